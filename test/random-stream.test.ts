/** The random stream of the generators and contexts: what it draws is pure-rand's, so that a seed gives the cases it always gave. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { Random } from '../src/engine/random.ts';

test('a random integer is the one pure-rand draws from the same stream, for ranges of 1 to 2^32 numbers and wider, negative bounds too', () => {
  const spans = [0, 1, 2, 3, 5, 7, 30, 31, 1000, 65536, 2 ** 30 - 1, 2 ** 30, 2 ** 31, 3 * 2 ** 30, 2 ** 32 - 2, 2 ** 32 - 1, 2 ** 33];
  const theirs = xoroshiro128plus(5);
  const ours = new Random(xoroshiro128plus(5));
  for (let i = 0; i < 200_000; i++) {
    const lo = (i % 61) - 30;
    const hi = lo + spans[i % spans.length]!;
    assert.equal(ours.int(lo, hi), uniformInt(theirs, lo, hi), `draw ${i}, from ${lo} to ${hi}`);
  }
});
