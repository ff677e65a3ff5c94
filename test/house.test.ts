/**
 * What the mends of the house changed where a caller can see it (issue 19, "a house that reads in
 * one look"): a shard is named alike by every report, and an exhaustive check without options is
 * refused for what it lacks.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSpec, checkSpecExhaustive } from '../src/checks.ts';
import { take, takePrime, takeSpec } from '../examples/take.ts';

test('a shard written with spaces is named as i/n by a random run, as an exhaustive run names it', () => {
  assert.match(checkSpec(takeSpec, take, { seed: 1, trials: 9, shard: ' 2 / 3 ' }).message, /^\+\+\+ OK, passed 3 trials \(seed 1, shard 2\/3\)\./);
  assert.match(checkSpec(takeSpec, takePrime, { seed: 1, shard: ' 1 / 3 ' }).message, /Reproduce with the option \{ seed: 1, shard: '1\/3' \}\.$/);
  assert.match(checkSpecExhaustive(takeSpec, take, { depth: 2, shard: ' 1 / 3 ' }).message, /of depth 2, shard 1\/3 \(/);
});

test('an exhaustive check called without options is refused for the depth it lacks', () => {
  assert.throws(() => (checkSpecExhaustive as (...args: unknown[]) => unknown)(takeSpec, take), { name: 'RangeError', message: /^depth must be a non-negative integer, got undefined$/ });
});
