/**
 * Errors a user meets: functions of demands given something else, thrown values that cannot be
 * printed, and the mistakes of a newcomer, each with a message that says what is wrong, where,
 * and how to fix it, and that keeps the counterexample.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { now, thunk } from '../src/lazy/lazy.ts';
import { cons, nil } from '../src/lazy/list.ts';
import { data, number, type DataShape } from '../src/demand/shape.ts';
import { demandEquals, demandSize, isForced, lessDefined, type Demand } from '../src/demand/demand.ts';
import { fromDemand, toDemand } from '../src/demand/convert.ts';
import { prettyDemand, printDemand } from '../src/demand/print.ts';
import { toContext } from '../src/demand/observe.ts';
import { shrinkDemand } from '../src/engine/shrink.ts';
import { predictDemands } from '../src/spec/spec.ts';
import { takeSpec } from '../examples/take.ts';

// ---------------------------------------------------------------------------------------------
// Demand functions refuse what is not a demand

const aDemand = toDemand(cons(thunk, thunk));

/** Every exported function taking a demand, called with `d` in the place of argument `name`. */
const demandTakers: readonly [string, string, (d: Demand) => unknown][] = [
  ['demandEquals', 'a', (d) => demandEquals(d, aDemand)],
  ['demandEquals', 'b', (d) => demandEquals(aDemand, d)],
  ['lessDefined', 'a', (d) => lessDefined(d, aDemand)],
  ['lessDefined', 'b', (d) => lessDefined(aDemand, d)],
  ['demandSize', 'd', (d) => demandSize(d)],
  ['isForced', 'd', (d) => isForced(d)],
  ['prettyDemand', 'demand', (d) => prettyDemand(d)],
  ['printDemand', 'demand', (d) => printDemand(d)],
  ['fromDemand', 'demand', (d) => fromDemand(d)],
  ['toContext', 'demand', (d) => toContext(d)],
  ['shrinkDemand', 'demand', (d) => [...shrinkDemand(d)]],
  ['predictDemands', 'resultDemand', (d) => predictDemands(takeSpec, d, [now(1), nil])],
];

test('every function of demands refuses a non-demand with a TypeError naming the argument and how to make a demand', () => {
  for (const notADemand of [5, {}, { forced: false }, { forced: true, ctor: { name: ':' } }, null, undefined, cons(1, thunk)]) {
    for (const [fn, name, call] of demandTakers) {
      assert.throws(
        () => call(notADemand as unknown as Demand),
        (err: unknown) => {
          assert.ok(err instanceof TypeError, `${fn}: ${String(err)}`);
          assert.match(err.message, new RegExp(`^${fn}: its argument ${name} is not a demand`));
          assert.match(err.message, /toDemand\(value, shape\)/);
          assert.match(err.message, /observe/);
          return true;
        },
      );
    }
  }
  assert.equal(demandEquals(aDemand, toDemand(cons(thunk, thunk))), true, 'demands are still taken');
});

test('demands on two data types that share constructor names are not equal, nor less defined', () => {
  type Tree = { tag: 'Leaf' } | { tag: 'Node'; value: number };
  type Heap = { tag: 'Leaf' } | { tag: 'Node'; value: number };
  const Tree: DataShape<Tree> = data<Tree>('Tree', () => ({ Leaf: {}, Node: { value: number } }));
  const Heap: DataShape<Heap> = data<Heap>('Heap', () => ({ Leaf: {}, Node: { value: number } }));
  const tree = toDemand(Tree.make.Leaf(), Tree);
  const heap = toDemand(Heap.make.Leaf(), Heap);
  assert.equal(demandEquals(tree, heap), false);
  assert.equal(lessDefined(tree, heap), false);
  assert.equal(demandEquals(toDemand(Tree.make.Node({ value: 1 }), Tree), toDemand(Heap.make.Node({ value: 1 }), Heap)), false);
  // The same type declared twice by one name (option(number), say) is the same type.
  const Tree2: DataShape<Tree> = data<Tree>('Tree', () => ({ Leaf: {}, Node: { value: number } }));
  assert.equal(demandEquals(tree, toDemand(Tree2.make.Leaf(), Tree2)), true);
});
