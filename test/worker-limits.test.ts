import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSpec } from '../src/checks.ts';
import { WorkerCrashError } from '../src/parallel/errors.ts';
import { loopingGeneratorCheck } from './fixtures/looping-generator.ts';
import { withWorkerLimits } from './fixtures/worker-limits.ts';

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
