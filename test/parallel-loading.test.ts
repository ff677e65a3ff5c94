/**
 * How workers load a check module, and what its import leaves there: the continuations of what the
 * import started are the import's, never a case's, and never keep a worker alive once its run has let
 * it go; a TypeScript check module is loaded in a worker as the main process loaded it (its module
 * format and its interop), or refused saying what the module does that a worker cannot load, and what to do.
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { checkSpec } from '../src/checks.ts';
import { checkSpecAsync } from '../src/async-checks.ts';
import { importPromiseLoopCheck, importPromiseLoopSyncCheck } from './fixtures/loading-import-promise-loop-checks.ts';

test("a loop of promise continuations the check module's import left, computing past the timeout while an asynchronous function waits for its own timer, is not blamed on the trial: a correct function passes with workers", { timeout: 60_000 }, async () => {
  const r = await checkSpecAsync(importPromiseLoopCheck, { trials: 10, seed: 1, workers: 2, timeout: 200 });
  assert.equal(r.passed, true, r.message);
});

test("a worker that a run lets go ends, though the check module's import left a loop of promise continuations awaiting timers in it", { timeout: 30_000 }, async (t) => {
  const exited: Promise<number>[] = [];
  const watch = (w: Worker) => void exited.push(new Promise((resolve) => w.once('exit', resolve)));
  process.on('worker', watch);
  try {
    // One worker more than the pool keeps idle for the module: it is let go at the end of the run.
    const r = await checkSpec(importPromiseLoopSyncCheck, { trials: 50, seed: 1, workers: availableParallelism() + 1, timeout: 1000 });
    assert.equal(r.passed, true, r.message);
  } finally {
    process.off('worker', watch);
  }
  // The workers are unref'd: this keeps the process alive until one ends, or the test's guard fails it (the loop kept the one let go alive for ever).
  const alive = setInterval(() => {}, 1000);
  t.signal.addEventListener('abort', () => clearInterval(alive));
  await Promise.race(exited).finally(() => clearInterval(alive));
});
