/**
 * The recording of iterables: what an async function pulling an infinite async source for ever
 * costs before the force budget stops it (each pull a turn of the event loop or more, for ever,
 * made it seconds a run where a sync one takes milliseconds).
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { number, asyncIterable, AsyncSource, observeDetailedAsync, normalize, ForceBudgetExceeded } from '../src/index.ts';
import { offThread } from './fixtures/off-thread.ts';
import { countingTimers, DIVERGING_RUNS, type divergingSum } from './fixtures/diverging-runs.ts';

/** A take that yields n elements and then goes on pulling its source, never returning on an infinite one. */
async function* takeNeverStops<T>(n: number, it: AsyncIterable<T>): AsyncGenerator<T> {
  let i = 0;
  for await (const x of it) if (i++ < n) yield x;
}

describe('an async function pulling an infinite async source for ever', () => {
  test('is stopped by the force budget, its source waiting its delays on its planned pulls only, not a timer a pull for ever', { timeout: 120_000 }, async () => {
    const source = new AsyncSource({ elements: [1, 2], infinite: true, hasReturn: true, delays: [1, 2, 3] });
    const shapes = { inputs: [number, asyncIterable(number)], result: asyncIterable(number) };
    const { value: o, timers } = await countingTimers(() => observeDetailedAsync(normalize, takeNeverStops, [1, source], shapes, 20_000));
    assert.ok(o.error?.thrown instanceof ForceBudgetExceeded, `stopped by ${String(o.error?.thrown)}`);
    // The three planned pulls wait 6 turns; the observation's end waits a few more.
    assert.ok(timers < 20, `${timers} timers for 20,000 pulls`);
  });

  test('is reported as probably diverging with its shrunk counterexample, each run waiting a few timers, not one a pull', { timeout: 120_000 }, async () => {
    // Run off this thread, where node:test follows every promise (test/fixtures/off-thread.ts).
    const { timers, runs, ...r } = await offThread<Awaited<ReturnType<typeof divergingSum>>>(DIVERGING_RUNS, 'divergingSum');
    assert.equal(r.passed, false);
    assert.match(r.message, /made more than 20000 forces of thunks and pulls of iterators: it probably diverges/);
    assert.match(r.message, /iter \[[^\]]*…\]/, 'the counterexample keeps its infinite source');
    // A source's planned pulls (up to size + 1, 3 turns each at most) and the observation's end, where each of the 20,000 pulls waited up to 3.
    assert.ok(timers < 400 * runs, `${timers} timers in ${runs} runs`);
  });
});
