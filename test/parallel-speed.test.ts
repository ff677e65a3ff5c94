/**
 * What the parallel runs' own costs leave as they were: a worker reads no clock of its thread to
 * time its trials (the slot that watches it times them), so that code that replaces that clock
 * cannot make a trial look as if it ran for ever.
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSpec } from '../src/checks.ts';
import { frozenClockCheck } from './fixtures/frozen-clock.ts';

test("a function that freezes its worker's Date.now is timed by the run as any other: its trials pass, none timed out", { timeout: 60_000 }, async () => {
  // 200 trials of at least a millisecond each: the run lasts longer than the timeout, whose watch looks at the worker meanwhile.
  const options = { seed: 1, trials: 200 };
  const here = checkSpec(frozenClockCheck.spec, frozenClockCheck.fn, options);
  const there = await checkSpec(frozenClockCheck, { ...options, workers: 1, timeout: 100 });
  assert.equal(there.passed, true, there.message);
  assert.equal(there.message, here.message);
});
