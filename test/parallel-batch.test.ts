/** Workers batch: each runs its stripe of trials in a loop and reports counts and failures, with the verdict of the run in this thread. */
import type { Worker } from 'node:worker_threads';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ParallelCheckResult } from '../src/parallel/random.ts';
import { takeCheck, takePrimeCheck } from './fixtures/checks.ts';
import { checkSpec } from '../src/checks.ts';

/** Runs `body`, counting the messages the workers it starts send this thread. */
async function countingMessages<T>(body: () => Promise<T>): Promise<{ result: T; messages: number }> {
  let messages = 0;
  const watch = (w: Worker) => w.on('message', () => messages++);
  process.on('worker', watch);
  try {
    return { result: await body(), messages };
  } finally {
    process.off('worker', watch);
  }
}

test('a passing run of 200 trials with 2 workers takes a few messages from each worker, not one per trial', { timeout: 120_000 }, async () => {
  const { result, messages } = await countingMessages(() => checkSpec(takeCheck, { trials: 200, seed: 7, workers: 2 }) as Promise<ParallelCheckResult>);
  assert.equal(result.passed, true, result.message);
  assert.equal(result.executed, 200);
  // Per worker: ready, the stripe's reply, the reply to the run's last wait for timers.
  assert.ok(messages <= 2 * 3, `the workers sent ${messages} messages`);
});

test('a batched run reports the first failing trial, its counterexample and coverage as the run in this thread does, shard or not', { timeout: 120_000 }, async () => {
  for (const [seed, shard] of [[1, undefined], [5, '2/3']] as const) {
    const options = { seed, trials: 300, unicode: false, ...(shard ? { shard } : {}) };
    const s = checkSpec(takePrimeCheck.spec, takePrimeCheck.fn, options);
    const p = await checkSpec(takePrimeCheck, { ...options, workers: 2 });
    assert.equal(p.passed, s.passed);
    assert.equal(p.trials, s.trials);
    assert.equal(p.message, s.message);
  }
  const s = checkSpec(takeCheck.spec, takeCheck.fn, { seed: 3, trials: 500 });
  const p = await checkSpec(takeCheck, { seed: 3, trials: 500, workers: 2 });
  assert.deepEqual(p.coverage, s.coverage);
  assert.equal(p.message, s.message);
});

test('a run with workers of more trials than the workers can number is refused before it starts, not cut short', async () => {
  await assert.rejects(checkSpec(takeCheck, { trials: 2 ** 31, seed: 1, workers: 2 }), { name: 'RangeError', message: /^trials: at most 2147483647 with workers, got 2147483648$/ });
});
