/**
 * A fresh worker has begun no case: what runs in it before its first request begins (a timer its
 * check module's import left, or a listener of its messages) is no case's, and an outcome of a
 * request that never began is not that request's case's: no trial is blamed for it, and no shrink
 * candidate taken on it.
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSpec, checkSpecExhaustive } from '../src/checks.ts';
import { prettyValue } from '../src/demand/print.ts';
import { importTimerCheck as randomCheck } from './fixtures/import-timer-random-checks.ts';
import { importTimerCheck as fastCheck } from './fixtures/import-timer-fast-checks.ts';
import { importTimerCheck as exhaustiveCheck } from './fixtures/import-timer-exhaustive-checks.ts';
import { listenerLoopsCheck } from './fixtures/listener-loop-checks.ts';
import { importTimerLateCheck } from './fixtures/import-timer-late-checks.ts';

// Each import's timer computes 3 times the timeout or more (the fixtures' computeFor counts its
// thread's CPU time, as the timeout does): blamed on a case, it times it out however loaded the machine.
// One worker a run: the timer runs in each worker alike, and a second worker only starts and burns again.

test('a timer the check module\'s import left, computing past the timeout before the first trial, is not blamed on trial 1: a correct function passes with workers', { timeout: 60_000 }, async () => {
  const r = await checkSpec(randomCheck, { trials: 30, seed: 1, workers: 1, timeout: 50 });
  assert.equal(r.passed, true, r.message);
});

test('with a timeout far shorter than the import\'s timer, a correct function still passes with workers', { timeout: 60_000 }, async () => {
  const r = await checkSpec(fastCheck, { trials: 30, seed: 1, workers: 1, timeout: 50 });
  assert.equal(r.passed, true, r.message);
});

test('a timer the check module\'s import left that fires once the first trial has run, computing past the timeout, is blamed on no trial: a correct function passes', { timeout: 60_000 }, async () => {
  const r = await checkSpec(importTimerLateCheck, { trials: 30, seed: 1, workers: 1, timeout: 50 });
  assert.equal(r.passed, true, r.message);
});

test('in the exhaustive mode with workers, a timer the check module\'s import left is blamed on no case: a correct function passes', { timeout: 60_000 }, async () => {
  const r = await checkSpecExhaustive(exhaustiveCheck, { depth: 3, workers: 1, timeout: 50 });
  assert.equal(r.passed, true, r.message);
});

test('shrinking a timer that does not finish, a fresh worker stopped before it began a shrink candidate takes no candidate that does not exist: the counterexample is kept', { timeout: 180_000 }, async () => {
  // Trial 1's input, 0, has no shrink candidate: a fresh worker asked for the first computes for ever before it begins it (see the fixture).
  // With 7e1511f's fix undone, in the slot or in the shrink loop, that candidate was taken, and the path to it failed: 'Cannot read properties of undefined (reading 'inputs')'.
  const r = await checkSpec(listenerLoopsCheck, { trials: 10, seed: 1, workers: 1, timeout: 100, maxShrinkTimeouts: 1, unicode: false });
  assert.equal(r.passed, false);
  assert.match(r.message, /a timer the function left did not finish: timed out after 100 ms \(after 1 trial and 0 shrinks/);
  assert.equal(prettyValue(r.counterexample!.inputs[0]), '0');
});
