/** Instrumented copies (src/demand/instrument.ts), against the contracts of every shape: a copy is the value, and records exactly what is forced of it. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demandEquals } from '../src/demand/demand.ts';
import { fromDemand, toDemand } from '../src/demand/convert.ts';
import { entangle, normalize, toContext } from '../src/demand/observe.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { shrinkDemand } from '../src/engine/shrink.ts';
import { generated, SHAPES, shown } from './fixtures/contracts.ts';

for (const { name, shape, readsBack } of SHAPES) {
  if (!readsBack) continue;
  test(`an instrumented copy of generated ${name}, forced whole, is the value and records all of it`, () => {
    for (const v of generated(shape, 16)) {
      const [copy, demand] = entangle(v, shape);
      normalize(copy);
      assert.equal(shown(copy, shape), shown(v, shape));
      assert.ok(demandEquals(demand(), toDemand(v, shape)), `${name}: ${prettyDemand(demand())} recorded on ${shown(v, shape)}`);
    }
  });

  test(`an instrumented copy of generated ${name} records exactly the demand a context exerts, and forces nothing of the value beyond it`, () => {
    for (const v of generated(shape, 16)) {
      for (const d of [toDemand(v, shape), ...[...shrinkDemand(toDemand(v, shape))].slice(0, 8)]) {
        // The value holds `thunk` wherever d does not reach, which throws if forced: copying must not force it.
        const [copy, demand] = entangle(fromDemand(d, shape), shape);
        toContext(d)(copy);
        assert.ok(demandEquals(demand(), d), `${name}: forcing ${prettyDemand(d)} recorded ${prettyDemand(demand())}`);
      }
    }
  });
}
