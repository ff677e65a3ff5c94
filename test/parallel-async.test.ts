/**
 * Asynchronous checks (checkSpecAsync, assertSpecAsync) with workers: each worker awaits the trials
 * of its stripe one after the other, with the verdict, counterexample and shrinks of the run in this
 * thread; an async trial that never settles, or waits past the timeout, is stopped after it; a
 * rejection left unhandled fails its trial, as in this thread.
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSpecAsync, assertSpecAsync } from '../src/async-checks.ts';
import { checkSpec } from '../src/checks.ts';
import { StrictCheckFailure } from '../src/spec/result.ts';
import { TrialTimeoutError } from '../src/parallel/errors.ts';
import { UnhandledRejectionError } from '../src/spec/unhandled-rejections.ts';
import type { ParallelCheckResult } from '../src/parallel/random.ts';
import { prettyValue } from '../src/demand/print.ts';
import { asyncNumbers, takeAsync, takeAsyncPullsOneMore, takeAsyncSpec } from '../examples/iterators/take-async.ts';
import { number } from '../src/demand/primitives.ts';
import { nNeverSettlesCheck, rejectsUnhandledCheck, takeAsyncCheck, takeAsyncPullsOneMoreCheck, takeRejectsUnhandled, waitsCheck } from './fixtures/async-checks.ts';

/** A counterexample's inputs, n and an async source, as a report prints them. */
const shown = (inputs: readonly unknown[] | undefined) => [prettyValue(inputs?.[0], number), prettyValue(inputs?.[1], asyncNumbers)];

const same = (a: { message: string; trials: number; shrinks: number; passed: boolean; seed: number }, b: typeof a) => {
  assert.equal(b.passed, a.passed);
  assert.equal(b.trials, a.trials);
  assert.equal(b.shrinks, a.shrinks);
  assert.equal(b.seed, a.seed);
  assert.equal(b.message, a.message);
};

/** A diagram row of a case stopped at its timeout: the demands the worker took with it, and the spec's, not asked. */
const timedOutRow = /\| \* \(unknown: the worker was stopped\) +\| +\| \* \(not asked: the function timed out after \d+ ms\) \|/g;

test('an async take over async iterables passes with 2 workers as without them: the same trials and message, each trial run once', { timeout: 120_000 }, async () => {
  const options = { seed: 4, trials: 200, unicode: false };
  const here = await checkSpecAsync(takeAsyncSpec, takeAsync, options);
  assert.equal(here.passed, true);
  const seen: number[] = [];
  const there = (await checkSpecAsync(takeAsyncCheck, { ...options, workers: 2, onTrial: (i) => seen.push(i) })) as ParallelCheckResult;
  same(here, there);
  assert.equal(there.executed, 200);
  assert.deepEqual(seen, Array.from({ length: 200 }, (_, i) => i));
  // The spec and function registered with defineCheck, given as they are, as the synchronous forms take them.
  same(here, await checkSpecAsync(takeAsyncSpec, takeAsync, { ...options, workers: 2 }));
  await assertSpecAsync(takeAsyncCheck, { ...options, workers: 2 });
});

test('a failing async take gives with 2 workers the counterexample, shrinks and seed of the run without them, and its seed replays it', { timeout: 120_000 }, async () => {
  for (const seed of [3, 17]) {
    const options = { seed, unicode: false };
    const here = await checkSpecAsync(takeAsyncSpec, takeAsyncPullsOneMore, options);
    assert.equal(here.passed, false);
    const there = await checkSpecAsync(takeAsyncPullsOneMoreCheck, { ...options, workers: 2 });
    same(here, there);
    assert.deepEqual(shown(there.counterexample?.inputs), shown(here.counterexample?.inputs));
    // The seed the message gives runs the same failure again.
    const replayed = Number(/seed (\d+)\)/.exec(there.message)![1]);
    same(there, await checkSpecAsync(takeAsyncPullsOneMoreCheck, { seed: replayed, unicode: false, workers: 2 }));
    await assert.rejects(assertSpecAsync(takeAsyncSpec, takeAsyncPullsOneMore, { ...options, workers: 2 }), (e: unknown) => e instanceof StrictCheckFailure && e.message === here.message);
  }
  // Shrinking that takes several steps: a failure found on a larger trial.
  const options = { seed: 11, trials: 1, maxSize: 25, unicode: false };
  const here = await checkSpecAsync(takeAsyncSpec, takeAsyncPullsOneMore, options);
  assert.ok(here.shrinks > 1, `shrinks ${here.shrinks}`);
  same(here, await checkSpecAsync(takeAsyncPullsOneMoreCheck, { ...options, workers: 2 }));
});

test('an async function that never settles is stopped after the timeout and reported as not finishing, with its inputs, shrunk', { timeout: 120_000 }, async () => {
  const r = await checkSpecAsync(nNeverSettlesCheck, { seed: 1, workers: 1, timeout: 1000, maxSize: 10, unicode: false });
  assert.equal(r.passed, false);
  assert.ok(r.counterexample?.error?.thrown instanceof TrialTimeoutError);
  assert.match(r.message, /the function did not finish: timed out after 1000 ms/);
  // n stays 3 (the only count that never settles), the source shrinks to the empty one.
  assert.deepEqual(shown(r.counterexample.inputs), ['3', 'async iter []']);
  assert.match(r.message, /\| \* 3 +\| +\| \(unknown: the worker was stopped\) \|/);
  assert.equal(r.message.match(timedOutRow)?.length, 2, r.message);
});

test('an async trial that waits past the timeout without computing is stopped: its waiting counts as its running', { timeout: 120_000 }, async () => {
  // Without workers the trial ends after its wait and passes; a timeout that counted only its thread's CPU time would let it.
  assert.equal((await checkSpecAsync(takeAsyncSpec, waitsCheck.fn, { seed: 1, trials: 12, maxSize: 10 })).passed, true);
  const r = await checkSpecAsync(waitsCheck, { seed: 1, trials: 12, maxSize: 10, workers: 2, timeout: 500, maxShrinkTimeouts: 0, unicode: false });
  assert.equal(r.passed, false);
  assert.ok(r.counterexample?.error?.thrown instanceof TrialTimeoutError);
  assert.equal(prettyValue(r.counterexample.inputs[0]), '3');
});

test('an async function leaving a rejection unhandled fails its trial in a worker, with the counterexample of the run in this thread', { timeout: 120_000 }, async () => {
  const here = await checkSpecAsync(takeAsyncSpec, takeRejectsUnhandled, { seed: 1, maxSize: 10, unicode: false });
  const r = await checkSpecAsync(rejectsUnhandledCheck, { seed: 1, workers: 2, maxSize: 10, unicode: false });
  assert.equal(r.passed, false);
  assert.ok(r.counterexample?.error?.thrown instanceof UnhandledRejectionError);
  assert.match(r.message, /\nThe function left a rejection unhandled: Error: a rejection no one handles\n/);
  assert.equal(prettyValue(r.counterexample.inputs[0]), '3');
  same(here, r);
});

test('what async checks with workers do not support is refused saying what to do', { timeout: 60_000 }, async () => {
  // An unregistered spec and function.
  const unregistered = async function* (n: number, it: AsyncIterable<number>) {
    yield* takeAsync(n, it);
  };
  await assert.rejects(checkSpecAsync(takeAsyncSpec, unregistered, { workers: 2 }), /checkSpecAsync with workers: this spec and function were not registered with defineCheck.*checkSpecAsync\(myCheck, options\)/s);
  await assert.rejects(assertSpecAsync(takeAsyncSpec, unregistered, { workers: 2 }), /assertSpecAsync with workers: .*assertSpecAsync\(myCheck, options\)/s);
  // A comparison given as a function, which cannot be sent to workers.
  await assert.rejects(checkSpecAsync(takeAsyncCheck, { workers: 2, compare: () => true }), /comparisons given as functions cannot be sent to workers/);
  // An asynchronous check given to a synchronous check, with workers or not.
  await assert.rejects(checkSpec(takeAsyncCheck, { workers: 2 }), /Use checkSpecAsync or assertSpecAsync|check it with checkSpecAsync or assertSpecAsync/);
  await assert.rejects(checkSpec(takeAsyncCheck), /checkSpecAsync or assertSpecAsync/);
});
