/**
 * The sizes of a random run's trials: they cycle from 0 to `maxSize` as QuickCheck's do, so that
 * more trials never find a failure later than fewer, and a short run still reaches `maxSize`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sizeOf } from '../src/spec/trial-case.ts';
import { checkSpec } from '../src/checks.ts';
import { mutants } from '../bench/mutants.ts';

test('a run of 1,000 trials tries every size from 0 to maxSize in its first maxSize + 1 trials', () => {
  const sizes = Array.from({ length: 31 }, (_, i) => sizeOf(i, 1000, 30));
  assert.deepEqual(sizes, Array.from({ length: 31 }, (_, i) => i));
});

test('the sizes cycle back to 0 after maxSize, and the last cycle cut short still ends at maxSize', () => {
  // 100 trials of sizes 0 to 30: three whole cycles (93 trials), then 7 trials over 0 to 30.
  assert.deepEqual([sizeOf(31, 100, 30), sizeOf(62, 100, 30), sizeOf(92, 100, 30)], [0, 0, 30]);
  assert.deepEqual(Array.from({ length: 7 }, (_, i) => sizeOf(93 + i, 100, 30)), [0, 5, 10, 15, 20, 25, 30]);
});

test('a run shorter than a cycle grows from 0 to maxSize, and a run of one trial has maxSize', () => {
  assert.deepEqual(Array.from({ length: 4 }, (_, i) => sizeOf(i, 4, 30)), [0, 10, 20, 30]);
  assert.equal(sizeOf(0, 1, 30), 30);
  assert.equal(sizeOf(0, 1, 0), 0);
});

test('an over-strict function is found after as many trials in a run of 1,000 as in a run of 100', () => {
  for (const m of mutants) {
    for (const seed of [1, 2, 3]) {
      const short = checkSpec(m.spec, m.fn, { trials: 100, seed });
      const long = checkSpec(m.spec, m.fn, { trials: 1000, seed });
      assert.equal(short.passed, false, `${m.name} passed 100 trials with seed ${seed}`);
      assert.equal(long.trials, short.trials, `${m.name}, seed ${seed}: found after ${long.trials} trials of 1,000 and ${short.trials} of 100`);
      assert.ok(long.trials <= 12, `${m.name}, seed ${seed}: found only after ${long.trials} trials`);
    }
  }
});
