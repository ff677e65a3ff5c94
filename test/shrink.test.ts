/** Shrinking (src/engine/shrink.ts) against the contracts of every shape: each shrink fits and is smaller, so shrinking ends. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lessDefined, demandEquals, type Demand } from '../src/demand/demand.ts';
import { toDemand } from '../src/demand/convert.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { shrinkDemand } from '../src/engine/shrink.ts';
import { assertFits, assertShrinksSmaller, generated, SHAPES } from './fixtures/contracts.ts';

for (const { name, shape, shrinks } of SHAPES) {
  test(`generated ${name} fit their shape, and so does every shrink of them, smaller, and shrinking ends`, () => {
    let candidates = 0;
    for (const v of generated(shape)) {
      assertFits(v, shape, `generated ${name}`);
      candidates += assertShrinksSmaller(v, shape);
    }
    // Not vacuous: the larger values have shrinks.
    assert.equal(candidates > 0, shrinks, `${name}: ${candidates} shrinks`);
  });
}

test('every shrink of a demand on a generated result is less defined than it or a list of it a cell shorter, and shrinking a demand ends', () => {
  for (const { shape, readsBack } of SHAPES) {
    if (!readsBack) continue;
    for (const v of generated(shape, 12)) {
      const d = toDemand(v, shape);
      for (const c of shrinkDemand(d)) {
        assert.ok((lessDefined(c, d) && !demandEquals(c, d)) || cellDropped(c, d), `${prettyDemand(c)} is a shrink of ${prettyDemand(d)}`);
      }
      let steps = 0;
      for (let next = shrinkDemand(d).next(); !next.done; next = shrinkDemand(next.value).next()) assert.ok(++steps < 10_000, `shrinking ${prettyDemand(d)} goes on`);
    }
  }
});

/** Whether `c` is `d` with one cell of a list left out (its tail in its place). */
function cellDropped(c: Demand, d: Demand): boolean {
  if (!d.forced) return false;
  if (d.ctor.style === 'cons' && d.field(1).forced && demandEquals(c, d.field(1))) return true;
  if (!c.forced || c.ctor !== d.ctor || c.arity !== d.arity) return false;
  const differ = d.fields.flatMap((f, i) => (demandEquals(c.field(i), f) ? [] : [i]));
  return differ.length === 1 && cellDropped(c.field(differ[0]!), d.field(differ[0]!));
}
