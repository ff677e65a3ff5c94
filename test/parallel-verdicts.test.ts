import type { Worker } from 'node:worker_threads';
import { test } from 'node:test';
import { inspect } from 'node:util';
import assert from 'node:assert/strict';
import { runFixture } from './fixtures/run-fixture.ts';
import { sizeOf, trialCase } from '../src/spec/trial-case.ts';
import { SpecError } from '../src/spec/spec.ts';
import { WORKER_RULE, type DefinedCheck } from '../src/spec/registry.ts';
import { WorkerCrashError } from '../src/parallel/errors.ts';
import { take, takeSpec } from '../examples/take.ts';
import { lateAfterLastCheck, slowPickupCheck, slowPickupBigCheck, specLoopsCheck, workerOnlyCheck } from './fixtures/verdict-checks.ts';
import { checkSpec, checkSpecExhaustive } from '../src/checks.ts';
import { withWorkerLimits } from './fixtures/worker-limits.ts';

/** The timeout of runs where a spec loops forever: one that no function reaches (it counts computing time, where the system gives it); the spec's own limit, 1000 ms, stops the spec. */
const LOOP_TIMEOUT = 100;

const same = (a: { message: string; trials: number; shrinks: number; passed: boolean }, b: typeof a) => {
  assert.equal(b.passed, a.passed);
  assert.equal(b.trials, a.trials);
  assert.equal(b.shrinks, a.shrinks);
  assert.equal(b.message, a.message);
};

/** Runs `body` while each worker started is sent a `{ type: 'poke' }` after its first reply (see slowToPickUp in the fixtures). */
async function pokingWorkers<R>(body: () => Promise<R>): Promise<R> {
  const watch = (w: Worker) => {
    let poked = false;
    w.on('message', (m: { type?: string }) => {
      if (m.type !== 'reply' || poked) return;
      poked = true;
      w.postMessage({ type: 'poke' });
    });
  };
  process.on('worker', watch);
  try {
    return await body();
  } finally {
    process.off('worker', watch);
  }
}

test('with workers, a spec that never finishes is a spec error that names it and its trial, not a function that did not finish', { timeout: 60_000 }, async () => {
  // The trial named is the first whose n is 3, where a run without workers would hang, whichever worker ran it.
  const n = (i: number) => (trialCase(specLoopsCheck.spec as never, 42, i, sizeOf(i, 100, 10)).inputs[0] as { force(): number }).force();
  const first = Array.from({ length: 100 }, (_, i) => i).find((i) => n(i) === 3)!;
  await assert.rejects(
    checkSpec(specLoopsCheck, { seed: 42, workers: 2, timeout: LOOP_TIMEOUT, maxSize: 10 }),
    (e: Error) => e instanceof SpecError && /the spec did not finish: the function had, but the spec \(or the comparison\) ran past its own limit of 1000 ms \(10 times the timeout, and at least 1000 ms\)/.test(e.message) && e.message.includes(`(trial ${first + 1}, seed 42, maxSize 10, inputs 3, `),
  );
  await assert.rejects(
    checkSpecExhaustive(specLoopsCheck.spec, specLoopsCheck.fn, { depth: 4, workers: 1, timeout: LOOP_TIMEOUT }),
    (e: Error) => e instanceof SpecError && /the spec did not finish/.test(e.message) && /\(exhaustive, depth 3, inputs 3, /.test(e.message),
  );
});

test('a timeout counts from the start of the trial in its worker: a fast function in a worker slow to pick up its trial passes', { timeout: 60_000 }, async () => {
  const r = await pokingWorkers(() => checkSpec(slowPickupCheck, { seed: 1, trials: 6, workers: 1, timeout: 500 }));
  assert.equal(r.passed, true, r.message);
});

test('a real mismatch is not hidden behind a timeout: 2 workers slow to pick up their trials report what the sequential run reports', { timeout: 60_000 }, async () => {
  const opts = { seed: 5, unicode: false };
  const s = checkSpec(slowPickupBigCheck.spec, slowPickupBigCheck.fn, opts);
  assert.ok(s.trials > 2 && s.shrinks > 2, `trials ${s.trials}, shrinks ${s.shrinks}`);
  same(s, await pokingWorkers(() => checkSpec(slowPickupBigCheck, { ...opts, workers: 2, timeout: 500 })));
});

test('an error a timer raises after the last trial fails the run with workers, as it crashes the run without them', { timeout: 60_000 }, async () => {
  const child = runFixture('late-sequential.ts');
  assert.notEqual(child.status, 0, 'without workers, the error crashes the process');
  assert.match(child.stderr, /late timer after the last trial/);
  // The timer fires 50 ms after the trial: mostly once the run waits for the timers its trials left,
  // and it rejects; but a worker kept off the CPU that long (a loaded machine) runs it while it waits
  // a turn after the trial, in a fresh worker alone, where the crash is the trial's counterexample.
  const late = /Error: late timer after the last trial/;
  const r = await checkSpec(lateAfterLastCheck, { trials: 1, seed: 1, workers: 1, unicode: false }).then(
    (result) => result,
    (e: Error) => {
      assert.ok(e instanceof WorkerCrashError && /after the last trial/.test(e.message) && late.test(e.message), e);
      return undefined;
    },
  );
  if (r === undefined) return;
  assert.equal(r.passed, false, r.message);
  assert.match(r.message, /^Failed: the worker crashed during a trial/);
  assert.match(r.message, late);
});

test('an error a timer raises long after a run with workers crashes the process, as it does without workers', { timeout: 60_000 }, () => {
  for (const mode of ['sequential', 'workers']) {
    const child = runFixture('late-after-run.ts', [mode]);
    assert.match(child.stdout, /\+\+\+ OK, passed 2 trials/, mode);
    assert.notEqual(child.status, 0, `${mode}: the late error crashes the process`);
    assert.doesNotMatch(child.stdout, /survived/, mode);
    assert.match(child.stderr, /late timer, long after the run/, mode);
  }
});

test('a failure seen only in a worker is reported as such, with the case as the worker saw it', { timeout: 60_000 }, async () => {
  const r = await checkSpec(workerOnlyCheck, { seed: 3, workers: 1, unicode: false });
  assert.equal(r.passed, false);
  assert.match(r.message, /^Failed: the spec does not match the function in a worker thread only \(after \d+ trials? and \d+ shrinks?; seed 3\)/);
  assert.match(r.message, /does it keep state between calls/);
  assert.match(r.message, /run again in the main thread, it passes/);
  assert.equal(r.counterexample, undefined, 'no counterexample of the main thread, where it passes');
  // The worker's diagram: the function forced the whole list, the spec did not.
  assert.match(r.message, /The case as the worker saw it:\n\+/);
  const e = await checkSpecExhaustive(workerOnlyCheck.spec, workerOnlyCheck.fn, { depth: 3, workers: 1, unicode: false });
  assert.equal(e.passed, false);
  assert.match(e.message, /^Failed: the spec does not match the function in a worker thread only \(exhaustive, depth \d+, after \d+ cases?\)/);
  assert.match(e.message, /The case as the worker saw it:\n\+/);
});

/** A check of a module this process does not import (its import would not return), as defineCheck there names it. */
const notImported = (file: string, name: string): DefinedCheck<Parameters<typeof take<number>>, ReturnType<typeof take<number>>> => ({
  moduleUrl: new URL(`./fixtures/${file}`, import.meta.url).href,
  name,
  spec: takeSpec,
  fn: take,
});

test('a worker that never becomes ready, its check module never done importing, gives an error that names the module once the import has run its own limit, not the longer limit of a worker that does not get to work', { timeout: 60_000 }, async () => {
  // The import limit shortened from its 10 s, which the busy import would spin: 500 ms, above the timeout so that the limit is its own.
  // Neither import ever finishes: wherever a loaded machine has it when the limit cuts it, the error is the same. The stall limit,
  // which held a worker that had not begun importing at the first look (a loaded machine, a worker started through tsx), past this test's own.
  await withWorkerLimits({ import: 500, stall: 600_000 }, () =>
    Promise.all(
      [notImported('never-ready.ts', 'neverReady'), notImported('busy-import.ts', 'busyImport')].map((check) =>
        assert.rejects(
          checkSpec(check, { trials: 3, workers: 1, timeout: 300 }),
          (e: Error) => e.message.includes(`importing ${check.moduleUrl} did not finish within 500 ms (the larger of the timeout and 500 ms)`) && e.message.includes(WORKER_RULE),
        ),
      ),
    ),
  );
});

test('a run whose workers cannot import the check says why and what a check module must be, and leaves nothing behind that keeps the process alive', { timeout: 60_000 }, async () => {
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  const before = timers();
  await assert.rejects(
    checkSpec(notImported('import-fails.ts', 'importFails'), { trials: 3, workers: 2, timeout: 2000 }),
    (e: Error) => /threw when a worker imported it: Error: this module cannot be imported in a worker\. Workers import the check's module again/.test(e.message),
  );
  assert.equal(timers(), before, 'a timer of the run is still waiting');
});

test('a module that runs its checks with workers when imported is refused in the worker, with the rule, and starts no more workers', { timeout: 60_000 }, async () => {
  let started = 0;
  const count = () => started++;
  process.on('worker', count);
  try {
    const { topLevelRun } = await import('./fixtures/runs-at-top-level.ts');
    const e = topLevelRun as Error;
    assert.ok(e instanceof TypeError, inspect(e));
    assert.match(e.message, /a check was started in a worker thread of strictcheck/);
    assert.ok(e.message.includes(WORKER_RULE), e.message);
    assert.equal(started, 1, 'the run started one worker, which it did not replace');
  } finally {
    process.off('worker', count);
  }
});
