/** The walk that reads demands off values (src/demand/record.ts), against the contracts of every shape, and its compact store of list cells. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isThunk, Lazy, lazy, now } from '../src/lazy/lazy.ts';
import { Cons, NIL, type List } from '../src/lazy/cell.ts';
import { fromArray, toArray } from '../src/lazy/list.ts';
import { demandEquals, type Demand } from '../src/demand/demand.ts';
import { evaluatedPart, fromDemand, toDemand } from '../src/demand/convert.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { list } from '../src/demand/lazy-positions.ts';
import { number } from '../src/demand/primitives.ts';
import { demandOf } from '../src/demand/record.ts';
import { ALL, WHNF } from '../src/demand/guide.ts';
import { shrinkDemand } from '../src/engine/shrink.ts';
import { assertReadsBack, generated, SHAPES } from './fixtures/contracts.ts';

/** The first `n` demands less defined than `d`: `d` cut back at its lazy positions. */
const lessDefinedThan = (d: Demand, n: number) => [...shrinkDemand(d)].slice(0, n);

for (const { name, shape, readsBack } of SHAPES) {
  if (!readsBack) continue;
  test(`the demand on generated ${name}, read back, is the value again, and so is any less defined demand`, () => {
    for (const v of generated(shape, 16)) {
      assertReadsBack(v, shape);
      // A demand cut back reads back as a value with unevaluated positions there: its own demand, again.
      for (const d of lessDefinedThan(toDemand(v, shape), 8)) {
        const again = toDemand(fromDemand(d, shape), shape);
        assert.ok(demandEquals(again, d), `${prettyDemand(d)} read back is ${prettyDemand(again)}`);
        assert.ok(demandEquals(evaluatedPart(fromDemand(d, shape), shape), d), `the evaluated part of ${prettyDemand(d)} read back`);
      }
    }
  });

  test(`a walk of generated ${name} under normalize records it whole, and under whnf its outer layer with no lazy field forced`, () => {
    for (const v of generated(shape, 16)) {
      const whole = toDemand(v, shape);
      assert.ok(demandEquals(demandOf(v, shape, 'v', ALL), whole));
      const outer = demandOf(v, shape, 'v', WHNF);
      assert.ok(outer.forced, `${name}: whnf records the outer layer`);
      const layer = (shape.kind === 'lazy' ? shape.inner() : shape).project(v instanceof Lazy ? v.force() : v, null);
      // Strict fields are part of the layer: recorded whole, as in the whole demand.
      for (let i = 0; i < outer.arity; i++) {
        const lazyField = layer.shapes[i]!.kind === 'lazy';
        assert.equal(outer.field(i).forced, !lazyField, `${name}: field ${i} of ${prettyDemand(outer)} under whnf`);
        if (!lazyField && whole.forced) assert.ok(demandEquals(outer.field(i), whole.field(i)));
      }
    }
  });
}

test('a demand on a list longer than a chunk of the compact store holds every cell, in order', () => {
  const n = 10_000; // more than two chunks of 4,096 heads
  const xs = Array.from({ length: n }, (_, i) => i);
  const d = toDemand(fromArray(xs), list(number));
  assert.deepEqual(toArray(fromDemand(d, list(number))), xs);
});

test('the evaluated part of a long list whose first cells alone were forced ends where the forcing stopped', () => {
  const n = 9_000;
  const forced = 5_000;
  // Cells made on demand: forcing cell k builds cell k + 1 unevaluated.
  const from = (k: number): List<number> => lazy(() => (k < n ? new Cons(now(k), from(k + 1)) : NIL));
  const xs = from(0);
  let cell = xs;
  for (let k = 0; k < forced; k++) cell = (cell.force() as Cons<number>).tail;
  const back = fromDemand(evaluatedPart(xs, list(number)), list(number));
  let cells = 0;
  for (let c: List<number> = back; !isThunk(c) && c.force() instanceof Cons; c = (c.force() as Cons<number>).tail) assert.equal((c.force() as Cons<number>).head.force(), cells++);
  assert.equal(cells, forced);
});
