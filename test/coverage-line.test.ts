/**
 * The coverage line as a user reads it beside the `coverage` option: its shares sum to 100%, and
 * an argument without a name is named as the option keys it, by its index from 0.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSpec, iterable, number, specOf } from '../src/index.ts';
import { take, takeSpec } from '../examples/take.ts';

const numbers = iterable(number);
function* map(xs: Iterable<number>) {
  for (const x of xs) yield 2 * x;
}
const mapSpec = specOf([numbers], numbers, ({ pulledAsResult }) => [pulledAsResult()]);

/** The shares of each value in a coverage line: `[[0, 18, 82], …]`. */
const sharesOf = (message: string) => [...message.matchAll(/ (\d+)\/(\d+)\/(\d+)%/g)].map((m) => [1, 2, 3].map((k) => Number(m[k])));

test('the shares of the coverage line are rounded so that each value sums to 100%, as its counts do', () => {
  const r = checkSpec(mapSpec, map, { seed: 1, trials: 200 });
  assert.deepEqual(r.coverage!.result, { none: 0, partial: 121, full: 79 }, 'the run whose 60.5% and 39.5% both rounded up');
  const shares = sharesOf(r.message);
  assert.equal(shares.length, 2, r.message);
  for (const s of shares) assert.equal(s[0]! + s[1]! + s[2]!, 100, r.message);
  for (const seed of [1, 2, 3, 4, 5]) for (const s of sharesOf(checkSpec(takeSpec, take, { seed, trials: 7 }).message)) assert.equal(s[0]! + s[1]! + s[2]!, 100, `seed ${seed}`);
});

test('the coverage line and its shortfalls name an argument without a name as the coverage option keys it, from 0', () => {
  const r = checkSpec(mapSpec, map, { seed: 1, trials: 200, coverage: { 0: { none: 0.5 } } });
  assert.equal(r.passed, false);
  assert.match(r.message, /\n {2}args\[0\] was not forced in 8% of the trials \(16 of 200\), under the 50% asked \(coverage\.0\.none\)\.\n/, r.message);
  assert.match(r.message, /\nCoverage \(not forced\/partly\/fully\): result \d+\/\d+\/\d+%, args\[0\] \d+\/\d+\/\d+%\.\n/, r.message);
  assert.doesNotMatch(r.message, /argument 1/);
});
