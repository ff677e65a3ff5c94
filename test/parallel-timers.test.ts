/**
 * Timers a function leaves behind in a worker, that never end: blamed on what they are, and on the
 * case that left them where it can be told.
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sizeOf, trialCase } from '../src/spec/trial-case.ts';
import { prettyValue } from '../src/demand/print.ts';
import { TrialTimeoutError, WorkerCrashError } from '../src/parallel/errors.ts';
import { checkSpec, checkSpecExhaustive } from '../src/checks.ts';
import { loopingTimerCheck } from './fixtures/residual-checks.ts';
import { secondCallLoopsCheck } from './fixtures/checks.ts';

/** The timeout of these runs: the timer that loops spins its worker that long each time. */
const LOOP_TIMEOUT = 250;
// One worker a run: a stripe, a subtree and a fresh worker to run a trial again alone are those of
// one worker as of two, and each worker stopped by a looping timer is started anew.

test('with workers, a timer left by a case of an exhaustive walk that never ends is blamed on a timer of the function, not on the making of a case', { timeout: 60_000 }, async () => {
  await assert.rejects(
    checkSpecExhaustive(loopingTimerCheck.spec, loopingTimerCheck.fn, { depth: 4, workers: 1, timeout: LOOP_TIMEOUT }),
    (e: Error) =>
      e instanceof WorkerCrashError &&
      /^a timer that a case of a subtree of depth 3 left did not finish within the timeout \(250 ms\): it loops, or blocks/.test(e.message) &&
      !/making a case/.test(e.message),
  );
});

test('with workers, a timer that never ends is blamed on the trial that left it, not on the last trial of its stripe', { timeout: 60_000 }, async () => {
  // Shrinking is not what this asserts: each candidate that leaves the timer spins a fresh worker for the timeout.
  const r = await checkSpec(loopingTimerCheck, { seed: 42, workers: 1, timeout: LOOP_TIMEOUT, maxSize: 10, maxShrinkTimeouts: 0, unicode: false });
  assert.equal(r.passed, false);
  // The trial named is the first whose n is 3, whichever worker ran it.
  const n = (i: number) => (trialCase(loopingTimerCheck.spec as never, 42, i, sizeOf(i, 100, 10)).inputs[0] as { force(): number }).force();
  const first = Array.from({ length: 100 }, (_, i) => i).find((i) => n(i) === 3)!;
  assert.equal(r.trials, first + 1, r.message);
  assert.equal(prettyValue(r.counterexample!.inputs[0]), '3');
  assert.ok(r.counterexample?.error?.thrown instanceof TrialTimeoutError);
  assert.match(r.message, /^Failed: a timer the function left did not finish: timed out after 250 ms \(after \d+ trials? and \d+ shrinks?; seed 42\)/);
});

test('with workers, a timer that never ends, which no trial leaves alone in a fresh worker, is blamed on none: the error says a trial the worker ran before, up to the one before, left it', { timeout: 60_000 }, async () => {
  await assert.rejects(
    checkSpec(secondCallLoopsCheck, { seed: 1, workers: 1, timeout: LOOP_TIMEOUT }),
    (e: Error) =>
      e instanceof WorkerCrashError &&
      /a timer ran past the timeout \(250 ms\) in a worker at trial 2 \(seed 1\), but no trial can be blamed: run again alone in a fresh worker, which waited up to 125 ms for the timers it set, that trial leaves no timer that does not finish\. A case the worker ran before \(a trial of this run up to trial 1, or, in a worker kept from an earlier run, one of that run's\) probably left the timer \(it loops, or blocks\)/.test(e.message),
  );
});
