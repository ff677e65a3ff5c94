/**
 * What a check module's import leaves in a worker is no case's: a timer of the import that fires
 * while an asynchronous function waits, that raises an error, or that never ends, and a worker that
 * dies before it begins any case, are blamed on no trial; the run passes, or rejects saying what
 * happened and what to do.
 * @module
 */
import { test } from 'node:test';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import assert from 'node:assert/strict';
import { checkSpec } from '../src/checks.ts';
import { checkSpecAsync } from '../src/async-checks.ts';
import { WorkerCrashError } from '../src/parallel/errors.ts';
import { aWorkerLetGoEnds } from './fixtures/let-go.ts';
import { withWorkerLimits } from './fixtures/worker-limits.ts';
import { importTimerDuringAwaitCheck } from './fixtures/residual-import-async-checks.ts';
import { IMPORT_ERROR, importThrowsAsyncCheck, importThrowsCheck } from './fixtures/residual-import-throws-checks.ts';
import { importLoopsCheck } from './fixtures/residual-import-loops-checks.ts';
import { diesAtStartCheck, EXIT_CODE } from './fixtures/residual-start-crash-checks.ts';
import { importable, ownProcessArgs } from './fixtures/own-process.ts';
import { importIntervalCheck } from './fixtures/residual-import-interval-checks.ts';
import { heartbeatHangCheck, heartbeatSlowCheck } from './fixtures/residual-import-heartbeat-checks.ts';

test('a timer the check module\'s import left, computing past the timeout while an asynchronous function waits for its own, is not blamed on the trial: a correct function passes with workers', { timeout: 60_000 }, async () => {
  // One worker: the import's timer computes once in each worker started (300 ms of CPU).
  const r = await checkSpecAsync(importTimerDuringAwaitCheck, { trials: 10, seed: 1, workers: 1, timeout: 200 });
  assert.equal(r.passed, true, r.message);
});

/** Whether `e` is the error of a run whose check module's import left a timer that threw `IMPORT_ERROR` in a worker: it names the module and no trial. */
const importThrew = (e: Error) =>
  e instanceof WorkerCrashError && e.message.includes(`the import of ${importThrowsCheck.moduleUrl} left a timer that raised an error (or ended the thread) in a worker`) && e.message.includes(IMPORT_ERROR) && !/trial \d/.test(e.message);

test('an error raised by a timer the check module\'s import left rejects the run naming the import, blamed on no trial, in asynchronous and synchronous checks', { timeout: 60_000 }, async () => {
  // One worker a run: the import's timer throws in each worker alike.
  await assert.rejects(checkSpecAsync(importThrowsAsyncCheck, { trials: 10, seed: 1, workers: 1, timeout: 200 }), importThrew);
  await assert.rejects(checkSpec(importThrowsCheck, { trials: 10, seed: 1, workers: 1, timeout: 200 }), importThrew);
});

test('a timer the check module\'s import left that never ends rejects the run, saying the import left it and what to do, blamed on no trial, within the import\'s limit', { timeout: 60_000 }, async () => {
  await withWorkerLimits({ import: 500 }, () =>
    assert.rejects(
      // One worker: each loops for the import's limit.
      checkSpec(importLoopsCheck, { trials: 10, seed: 1, workers: 1, timeout: 200 }),
      (e: Error) =>
        e instanceof WorkerCrashError &&
        e.message.includes(`the import of ${importLoopsCheck.moduleUrl} left a timer that did not finish within 500 ms in a worker (it loops, or blocks)`) &&
        /clear that timer, or set it only in the main thread/.test(e.message) &&
        !/trial \d|making a case/.test(e.message),
    ),
  );
});

test('fresh workers that die before they begin any trial are no counterexample: the run rejects saying the workers could not start, with the cause', { timeout: 60_000 }, async () => {
  await assert.rejects(
    checkSpec(diesAtStartCheck, { trials: 10, seed: 1, workers: 2, timeout: 200 }),
    (e: Error) => e instanceof WorkerCrashError && /^the workers could not start: /.test(e.message) && e.message.includes(`the worker exited with code ${EXIT_CODE}`) && !/trial \d/.test(e.message),
  );
});

test('a worker that a run lets go (more than the pool keeps) ends, though the check module\'s import left an interval running in it', { timeout: 30_000 }, async (t) => {
  // The interval kept the worker let go alive for ever.
  await aWorkerLetGoEnds(importIntervalCheck, t);
});

test('the ticks of an interval the check module\'s import left do not restart the clock of the function they interrupt: an asynchronous function that never settles still times out with workers', { timeout: 120_000 }, async () => {
  // Shrinking is not what this asserts: each candidate that times out costs a fresh worker.
  const r = await checkSpecAsync(heartbeatHangCheck, { trials: 10, seed: 1, workers: 1, timeout: 200, maxShrinkTimeouts: 0 });
  assert.equal(r.passed, false);
  assert.match(r.message, /^Failed: the function did not finish: timed out after 200 ms/);
});

test('the ticks of an interval the check module\'s import left do not restart the clock of the function they interrupt: an asynchronous function slower than the timeout times out with workers, not passes', { timeout: 120_000 }, async () => {
  const r = await checkSpecAsync(heartbeatSlowCheck, { trials: 10, seed: 1, workers: 1, timeout: 200, maxShrinkTimeouts: 0 });
  assert.equal(r.passed, false);
  assert.match(r.message, /^Failed: the function did not finish: timed out after 200 ms/);
});

test('an error raised by a callback the check module\'s import left, in a worker idle after its run passed, names the import, not a timer a case set', { timeout: 120_000 }, async () => {
  // In a process of its own: the error reaches the process that kept the worker as an uncaught exception.
  const fixture = JSON.stringify(importable(new URL('./fixtures/residual-idle-import-throws-checks.ts', import.meta.url)));
  const script = `import { BroadcastChannel } from 'node:worker_threads';
    import { checkSpec } from ${JSON.stringify(importable(new URL('../src/checks.ts', import.meta.url)))};
    import { idleImportThrowsCheck, IDLE_CHANNEL } from ${fixture};
    process.on('uncaughtException', (e) => { process.stdout.write(JSON.stringify({ name: e.name, message: e.message })); process.exit(0); });
    const r = await checkSpec(idleImportThrowsCheck, { trials: 10, seed: 1, workers: 2, timeout: 200 });
    if (!r.passed) throw new Error(r.message);
    const channel = new BroadcastChannel(IDLE_CHANNEL);
    channel.postMessage('over');
    channel.close();
    setTimeout(() => process.stdout.write('{}'), 30_000);`;
  const { stdout } = await promisify(execFile)(process.execPath, [...ownProcessArgs(), '--input-type=module', '-e', script], { timeout: 90_000 });
  const e = JSON.parse(stdout) as { name?: string; message?: string };
  assert.equal(e.name, 'WorkerCrashError', stdout);
  assert.match(e.message!, /^the import of \S+residual-idle-import-throws-checks\.ts left a timer that raised an error/);
  assert.match(e.message!, /the import's interval threw while its worker was idle/);
});
