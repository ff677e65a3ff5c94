/** A worker's slot times each phase it sees from the look that first saw it, however many looks see it. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Slot, spent } from '../src/parallel/pool.ts';
import { BUSY_CHANNEL, BUSY_TIMEOUT, busyLaterCheck } from './fixtures/phase-clock-checks.ts';

test('a timer that computes past the timeout while its worker has not yet begun the next request is stopped as one that ran past it, not let finish', { timeout: 60_000 }, async () => {
  const { moduleUrl, name } = busyLaterCheck;
  const slot = new Slot({ init: { moduleUrl, name, budget: 1000, ownCompare: true, async: false, seed: 1, trials: 1, maxSize: 0 } }, BUSY_TIMEOUT, { started: 0, startCrashes: 0 });
  const busy = new BroadcastChannel(BUSY_CHANNEL);
  try {
    const begun = new Promise((resolve) => (busy.onmessage = resolve));
    const bound = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    bound[0] = 1;
    const trial = await slot.request({ type: 'trials', first: 0, step: 1, count: 1, bound: bound.buffer as SharedArrayBuffer, grace: 0 });
    assert.equal(trial.kind, 'reply');
    // The timer the trial left computes now, between two requests: the next one waits for it.
    await begun;
    const next = await slot.request({ type: 'drain', grace: 0 });
    // It computes for 8 timeouts: stopped at the timeout as the slot sees it, it does not finish.
    assert.deepEqual(next, { kind: 'timer', ms: BUSY_TIMEOUT, alone: false });
  } finally {
    busy.close();
    await slot.close();
  }
});

test("an asynchronous case's clock counts all the time its worker's thread did not wait for a CPU, though it waited while its event loop was busy: a loaded machine does not hide a slow function's wait", () => {
  // 1,000 ms: 100 computing, 800 runnable but waiting for a CPU (most of it while the loop ran the import's ticks), 100 asleep.
  const from = { wall: 0, times: { cpu: 0, queued: 0 } };
  const to = { wall: 1_000, times: { cpu: 100, queued: 800 } };
  assert.equal(spent(from, to, true), 200);
  // A synchronous case's clock is its CPU time alone.
  assert.equal(spent(from, to, false), 100);
  // Without the thread's times, nothing is counted: the wall clock's limit decides.
  assert.equal(spent({ wall: 0, times: undefined }, to, true), 0);
});
