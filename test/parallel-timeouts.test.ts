/**
 * Runs with workers whose function loops forever: each case that loops spins its worker's
 * thread for the timeout, then the worker is stopped and replaced. These are the slowest tests
 * with workers, in a file of their own so that they run beside the others (test/parallel.test.ts).
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TrialTimeoutError } from '../src/parallel/errors.ts';
import { takePrime, takeSpecFirstAttempt } from '../examples/take.ts';
import { prettyValue } from '../src/demand/print.ts';
import { loopCheck } from './fixtures/checks.ts';
import { checkSpec, checkSpecExhaustive } from '../src/checks.ts';

/** A diagram row of a case stopped at its timeout: the demands the worker took with it, and the spec's, not asked. */
const timedOutRow = /\| \* \(unknown: the worker was stopped\) +\| +\| \* \(not asked: the function timed out after \d+ ms\) \|/g;
/**
 * The timeout of runs where a case loops forever, each case that loops spinning its worker that
 * long: short, as no other case comes near it, however loaded the machine (it counts the worker's
 * computing time, where the system gives it; the others take a few ms of it).
 */
const LOOP_TIMEOUT = 100;
// One worker a run: each case that loops stops its worker, and a second only started and was stopped too.

test('a function that loops forever times out as a counterexample and the run ends', { timeout: 60_000 }, async () => {
  const r = await checkSpec(loopCheck.spec, loopCheck.fn, { seed: 42, workers: 1, timeout: LOOP_TIMEOUT, maxSize: 10, unicode: false });
  assert.equal(r.passed, false);
  assert.ok(r.counterexample?.error?.thrown instanceof TrialTimeoutError);
  assert.match(r.message, /timed out after \d+ ms/);
  // Without workers a never-settling promise is told, a loop that forces is stopped by the force budget: only the timeout is theirs.
  assert.match(r.message, /Reproduce with the option .* and workers \(without them, no timeout stops a trial\)\.$/);
  // Shrunk: n stays 3 (the only looping count), the list shrinks to [].
  assert.match(r.message, /\* 3 .*\n\| \* \[\]/);
  // The stopped worker took the demands with it: unknown, not `_` (not evaluated); the spec was not asked, as it timed out.
  assert.match(r.message, /\| \* 3 +\| +\| \(unknown: the worker was stopped\) \|/);
  assert.equal(r.message.match(timedOutRow)?.length, 2, r.message);
});

test('maxShrinkTimeouts: n timeouts while shrinking allow n smaller candidates, the last one included', async () => {
  // The candidate that used up the allowance was charged, then thrown away: with 1, nothing was ever shrunk.
  // The two runs are independent, each with workers of its own: at once (where the system says, a timeout counts the CPU time of its case, not the clock).
  await Promise.all(
    [0, 1].map(async (m) => {
      const r = await checkSpec(loopCheck.spec, loopCheck.fn, { seed: 2, workers: 1, timeout: LOOP_TIMEOUT, maxShrinkTimeouts: m, unicode: false });
      assert.equal(r.shrinks, m, `maxShrinkTimeouts ${m}`);
    }),
  );
});

test('exhaustive with workers: a case that loops forever times out as a counterexample', async () => {
  const r = await checkSpecExhaustive(loopCheck.spec, loopCheck.fn, { depth: 4, timeout: LOOP_TIMEOUT, unicode: false, workers: 1 });
  assert.equal(r.passed, false);
  assert.equal(r.depth, 3); // n = 3 first appears at depth 3
  assert.ok(r.counterexample?.error?.thrown instanceof TrialTimeoutError);
  assert.match(r.message, /did not finish: timed out after \d+ ms \(exhaustive, depth 3, after \d+ cases\)/);
  assert.deepEqual(r.counterexample.inputs.map((v) => prettyValue(v)), ['3', '[]']);
  assert.equal(r.message.match(timedOutRow)?.length, 2, r.message);
  await assert.rejects(checkSpecExhaustive(takeSpecFirstAttempt, takePrime, { depth: 1, workers: 2 }), /checkSpecExhaustive with workers: .*defineCheck/);
});
