import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSpec } from '../src/checks.ts';
import { WorkerCrashError } from '../src/parallel/errors.ts';
import { loopingGeneratorCheck } from './fixtures/looping-generator.ts';
import { withWorkerLimits } from './fixtures/worker-limits.ts';
import { firstCheck, slowOverStrictCheck } from './fixtures/replay-checks.ts';
import { prettyValue } from '../src/demand/print.ts';

test("with workers, a generator of inputs that never ends is named by its trial and seed, and the run ends: the case is not made again in this thread, where it would not end either", { timeout: 60_000 }, async () => {
  await withWorkerLimits({ stall: 10_000 }, () =>
    assert.rejects(
      Promise.resolve(checkSpec(loopingGeneratorCheck, { seed: 1, workers: 2, timeout: 100 })),
      (e: Error) =>
        e instanceof WorkerCrashError &&
        /^trial \d+ \(seed 1\): the worker did not finish making a case \(its inputs and context\) within 10200 ms/.test(e.message) &&
        /A generator of its inputs probably never ends/.test(e.message),
    ),
  );
});

test('a worker that replays a shrink path longer than the stall limit before it is ready is held to that limit per case, and the counterexample is kept', { timeout: 60_000 }, async () => {
  // A run of a check of the module first leaves 2 workers idle: the run below takes one, and the
  // worker that replaces the one stopped while shrinking is the other, ready at once rather than
  // started anew (which the short stall limit would not allow on a loaded machine).
  assert.equal((await checkSpec(firstCheck, { trials: 2, seed: 1, workers: 2 })).passed, true);
  // A stall limit of 1000 ms (twice the timeout): the replacement replays the counterexample and
  // its 4 shrinks, 2 naps of 200 ms each (function and spec), twice the limit, each nap a fifth of it.
  const r = await withWorkerLimits({ stall: 0 }, () => checkSpec(slowOverStrictCheck, { seed: 5, workers: 1, timeout: 500, unicode: false }));
  assert.equal(r.passed, false, r.message);
  assert.equal(r.workersStarted, 2, 'one worker was stopped while shrinking (the candidate that loops), and replaced');
  assert.equal(r.shrinks, 4);
  assert.deepEqual(r.counterexample?.inputs.map((v) => prettyValue(v)), ['10', '0']);
  assert.match(r.message, /^Failed: the spec does not match the function \(after \d+ trials and 4 shrinks; seed 5\)/);
});
