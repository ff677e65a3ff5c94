/** Series (src/engine/series.ts) against the contracts of every shape: each depth holds the depth below, each value once, each fitting. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { series, NoSeriesError } from '../src/engine/series.ts';
import { assertSeriesGrow, SHAPES } from './fixtures/contracts.ts';

// Deep enough that recursive shapes and collections grow at every step, small enough to stay fast.
const DEPTH = 3;

for (const { name, shape, enumerable } of SHAPES) {
  if (!enumerable) continue;
  test(`the series of ${name} at each depth hold those of the depth below, each value once and fitting its shape`, () => {
    const sizes = assertSeriesGrow(shape, DEPTH);
    // Not vacuous: every shape here has values within the depth, and more at greater depths but for the finite ones.
    assert.ok(sizes.at(-1)! > 0, `${name}: ${sizes}`);
  });
}

test('a shape without a series is refused naming it and how to give it one, at every depth', () => {
  for (const { shape, enumerable } of SHAPES) {
    if (enumerable) continue;
    for (const depth of [0, 2]) assert.throws(() => series(shape, depth), (err: Error) => err instanceof NoSeriesError && err.message.includes(shape.name) && err.message.includes('withSeries'));
  }
});
