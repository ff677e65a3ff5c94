/**
 * With workers, a timer that loops, left by the last case of a run that passed, fails the run (the
 * run waits for the timers its cases left): the error names the timer, and the case that left it
 * where that can be told, or says that it cannot.
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sizeOf, trialCase } from '../src/spec/trial-case.ts';
import { prettyValue } from '../src/demand/print.ts';
import { TrialTimeoutError, WorkerCrashError } from '../src/parallel/errors.ts';
import { checkSpec, checkSpecExhaustive } from '../src/checks.ts';
import { take } from '../examples/take.ts';
import { busyLaterCheck, LOOPS_ON, loopsLaterCheck, thirdCallLoopsLaterCheck } from './fixtures/late-timer-checks.ts';

/** The timeout of these runs: the timer that loops spins its worker that long each time. */
const LOOP_TIMEOUT = 250;
const TRIALS = 5;
const MAX_SIZE = 2;

/** The n of trial `i` of a run of {@link loopsLaterCheck} with `seed`. */
const nOf = (seed: number, i: number) => (trialCase(loopsLaterCheck.spec as never, seed, i, sizeOf(i, TRIALS, MAX_SIZE)).inputs[0] as { force(): number }).force();

test('with workers, a timer that loops, left by the last trial of a run once it finished, fails the run as a counterexample naming that trial', { timeout: 180_000 }, async () => {
  // A seed whose last trial alone has the n that leaves the timer.
  const seed = Array.from({ length: 1000 }, (_, s) => s + 1).find((s) => Array.from({ length: TRIALS }, (_, i) => nOf(s, i) === LOOPS_ON).every((hit, i) => hit === (i === TRIALS - 1)))!;
  const r = await checkSpec(loopsLaterCheck, { seed, trials: TRIALS, maxSize: MAX_SIZE, workers: 1, timeout: LOOP_TIMEOUT, maxShrinkTimeouts: 1, unicode: false });
  assert.equal(r.passed, false, r.message);
  assert.match(r.message, new RegExp(`^Failed: a timer the function left did not finish: timed out after 250 ms \\(after ${TRIALS} trials and 0 shrinks; seed ${seed}\\)`));
  assert.equal(prettyValue(r.counterexample!.inputs[0]), String(LOOPS_ON));
  assert.ok(r.counterexample?.error?.thrown instanceof TrialTimeoutError);
});

test('with workers, a timer that loops after the last trial, which that trial does not leave alone in a fresh worker, fails the run naming that trial and saying an earlier one left it', { timeout: 180_000 }, async () => {
  await assert.rejects(
    checkSpec(thirdCallLoopsLaterCheck, { seed: 1, trials: 3, workers: 1, timeout: LOOP_TIMEOUT }),
    (e: Error) =>
      e instanceof WorkerCrashError &&
      /^a timer ran past the timeout \(250 ms\) in a worker after trial 3 \(seed 1\), the last it ran, once the run had passed, but no trial can be blamed: run again alone in a fresh worker, which waited up to 125 ms for the timers it set, that trial leaves no timer that does not finish\. A case the worker ran before \(a trial of this run up to trial 2/.test(e.message),
  );
});

test('with workers, a timer that loops, left by the last case of an exhaustive run, fails the run, saying that no case can be blamed', { timeout: 60_000 }, async () => {
  await assert.rejects(
    checkSpecExhaustive(loopsLaterCheck.spec, loopsLaterCheck.fn, { depth: 2, workers: 2, timeout: LOOP_TIMEOUT }),
    (e: Error) =>
      e instanceof WorkerCrashError &&
      /^a timer that a case left did not finish after the last case: it ran past the timeout \(250 ms\) while the run waited for the timers its cases left \(it loops, or blocks\)\. No case can be blamed: a worker runs the cases of a subtree back to back, and waits for the timers they left after them\./.test(e.message),
  );
});

test('with workers, timers that each end within the timeout pass an exhaustive run, however long they take together: the timeout bounds each timer, not their sum', { timeout: 60_000 }, async () => {
  // The cases of depth 2 with n = 2 leave timers of BUSY_MS (40) ms each, 17 or more in a subtree: more than twice the timeout together.
  const options = { depth: 2, workers: 1, timeout: LOOP_TIMEOUT, progress: false };
  const r = await checkSpecExhaustive(busyLaterCheck, options);
  assert.equal(r.passed, true, r.message);
  // The message of take's run without workers: its function's timers would compute here too.
  assert.equal(r.message, checkSpecExhaustive(busyLaterCheck.spec, take, { depth: 2, progress: false }).message);
});
