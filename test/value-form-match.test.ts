/**
 * A spec's prediction compared with the observed demand as it is read (value-form-match.ts) says
 * "equal" only where converting it first (`toDemand`) and comparing would: over random observed
 * demands (a function forcing a random part of a list, recorded as a check records it) and random
 * predictions, some equal to them, some not.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { lazy, thunk, type Lazy } from '../src/lazy/lazy.ts';
import { Cons, NIL, type Cell } from '../src/lazy/cell.ts';
import { number } from '../src/demand/primitives.ts';
import { list } from '../src/demand/lazy-positions.ts';
import { toDemand } from '../src/demand/convert.ts';
import { equalDemands } from '../src/demand/demand.ts';
import { observeDetailed } from '../src/demand/observe.ts';
import { matchesValueForm } from '../src/demand/value-form-match.ts';
import type { List } from '../src/lazy/list.ts';
import type { Shape } from '../src/demand/shape-types.ts';

/** What a function forces of a list: `cells` cells of its spine (to its end, if fewer), and the heads of those `heads` marks. */
const forcing = fc.record({ cells: fc.nat(6), heads: fc.array(fc.boolean(), { maxLength: 6 }) });
type Forcing = { cells: number; heads: boolean[] };

/** A list of `elements`, every cell and head lazy. */
function lazyList(elements: readonly number[]): List<number> {
  let xs: List<number> = lazy<Cell<number>>(() => NIL);
  for (let i = elements.length - 1; i >= 0; i--) {
    const tail = xs;
    const head = elements[i]!;
    xs = lazy(() => new Cons(lazy(() => head), tail));
  }
  return xs;
}

/** Forces what `f` says of `xs`. */
function force(xs: List<number>, f: Forcing): number {
  let at = xs;
  for (let i = 0; i < f.cells; i++) {
    const cell = at.force();
    if (!(cell instanceof Cons)) break;
    if (f.heads[i]) cell.head.force();
    at = cell.tail;
  }
  return 0;
}

/** The demand `f` puts on `elements` in value form, as a spec predicts it: `thunk` where nothing is forced. */
function prediction(elements: readonly number[], f: Forcing): List<number> {
  const cells = Math.min(f.cells, elements.length + 1);
  let xs: Lazy<Cell<number>> = thunk as never;
  for (let i = cells - 1; i >= 0; i--) {
    const tail = xs;
    xs = i === elements.length ? lazy<Cell<number>>(() => NIL) : lazy(() => new Cons(f.heads[i] ? lazy(() => elements[i]!) : (thunk as never), tail));
  }
  return xs as List<number>;
}

test('a prediction compared as it is read matches the observed demand only where its conversion equals it, and matches where they are equal', () => {
  const shape = list(number) as Shape<unknown>;
  let matched = 0;
  fc.assert(
    fc.property(fc.array(fc.integer({ min: -3, max: 3 }), { maxLength: 5 }), forcing, forcing, fc.boolean(), (elements, observed, other, same) => {
      const obs = observeDetailed(() => {}, (xs: List<number>) => force(xs, observed), [lazyList(elements)], { inputs: [shape], result: number });
      const actual = obs.inputs[0]!;
      const predicted = prediction(elements, same ? observed : other);
      const matches = matchesValueForm(predicted, shape, 'demand', actual);
      const equal = equalDemands(toDemand(prediction(elements, same ? observed : other), shape), actual);
      assert.ok(!matches || equal, 'matched a prediction whose conversion differs');
      if (same) assert.ok(equal, 'the prediction of what was forced converts to the observed demand');
      if (matches) matched++;
    }),
    { numRuns: 500, seed: 1 },
  );
  assert.ok(matched > 125, `matched ${matched} of 500`);
});
