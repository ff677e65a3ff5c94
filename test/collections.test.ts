/**
 * Sets and maps: shapes, observation, printing, generation (also as results of random
 * functions), shrinking, a spec checked against them, and their series for the exhaustive mode.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defer, isThunk, lazy, now, thunk, type Lazy } from '../src/lazy/lazy.ts';
import { mapOf, setOf } from '../src/demand/collections.ts';
import { lazyOf, list } from '../src/demand/lazy-positions.ts';
import { boolean, fn, number, string } from '../src/demand/primitives.ts';
import type { Shape } from '../src/demand/shape-types.ts';
import { evaluatedPart, fromDemand, toDemand } from '../src/demand/convert.ts';
import { prettyDemand, prettyValue } from '../src/demand/print.ts';
import { normalize, observe, observeDetailed, whnf } from '../src/demand/observe.ts';
import { fromArray } from '../src/lazy/list.ts';
import { spec } from '../src/spec/spec.ts';
import { functionSeries, series } from '../src/engine/series.ts';
import { arbitrary } from '../src/engine/generate.ts';
import { randomFunction } from '../src/engine/random-function.ts';
import { shrinkValue } from '../src/engine/shrink.ts';
import { Seed } from '../src/engine/random.ts';
import { mismatchPathOf } from './fixtures/assertions.ts';
import { checkSpec, checkSpecExhaustive } from '../src/checks.ts';

type Table = ReadonlyMap<number, Lazy<number>>;
const table = mapOf(number, lazyOf(number));

/** The value at `k`, lazily: forcing the result forces that value only. */
const lookup = (m: Table, k: number): Lazy<number> => m.get(k) ?? now(0);
/** The same values, but it forces every value of the map first. */
const lookupStrict = (m: Table, k: number): Lazy<number> => {
  for (const v of m.values()) v.force();
  return m.get(k) ?? now(0);
};
/** Every key (a map is strict in its keys), and the value at `k` only if the result was demanded. */
const lookupSpec = spec([table, number], lazyOf(number), (predict, d, m, k) =>
  predict(new Map([...m].map(([key, v]) => [key, key === k && !isThunk(d) ? v : thunk])), k),
);

test('sets and maps print in demand notation; lazy values show what was forced', () => {
  const m: Table = new Map([
    [1, now(10)],
    [2, now(20)],
  ]);
  const { inputs } = observe(whnf, lookup, m, 1);
  assert.equal(prettyDemand(inputs[0]!), 'Map {1 => 10, 2 => _}');
  assert.equal(prettyValue(new Set([1, 2])), 'Set {1, 2}');
  assert.equal(prettyDemand(toDemand(new Map([[1, thunk]]), table)), 'Map {1 => _}');
});

test('a spec over maps: the lazy lookup passes, the strict one fails with a small, shrunk map', () => {
  assert.equal(checkSpec(lookupSpec, lookup, { seed: 1 }).passed, true);
  const r = checkSpec(lookupSpec, lookupStrict, { seed: 1, unicode: false });
  assert.equal(r.passed, false);
  const m = r.counterexample!.inputs[0] as Table;
  assert.equal(m.size, 1, r.message);
  // The strict lookup forced the value at a key it was not asked for; the spec leaves it alone.
  assert.match(r.message, /\| \* Map \{-?\d+ => -?\d+\} +\| +\| \* Map \{-?\d+ => _\}/);
});

test('random sets and maps, also made by random non-strict functions, and their shrinks', () => {
  const sets = Array.from({ length: 20 }, (_, i) => arbitrary(setOf(number))(Seed.of(i).stream(), 10));
  assert.ok(sets.every((s) => s instanceof Set && s.size <= 10));
  assert.ok(sets.some((s) => s.size > 2));
  const f = randomFunction(fn([mapOf(number, number)], setOf(number)), Seed.of(3), 6);
  assert.ok(f(new Map([[1, 2]])) instanceof Set);
  const shrinks = [...shrinkValue<ReadonlySet<number>>(new Set([3, 4, 5]), setOf(number))];
  assert.deepEqual([...shrinks[0]!], []);
  assert.ok(shrinks.every((s) => s.size <= 3));
});

test('shrunk sets and maps iterate as the original does, whatever order their demands list the elements in', () => {
  const inOrder = (s: ReadonlySet<number>) => [...s].join(',');
  assert.deepEqual([...shrinkValue<ReadonlySet<number>>(new Set([2, -1]), setOf(number))].map(inOrder), ['', '-1', '2', '0,-1', '1,-1', '2,0', '2,1']);
  const entries = (m: ReadonlyMap<number, number>) => [...m].map(([k, v]) => `${k}=${v}`).join(',');
  assert.deepEqual([...shrinkValue<ReadonlyMap<number, number>>(new Map([[2, 5], [-1, 0]]), mapOf(number, number))].map(entries).slice(0, 4), ['', '-1=0', '2=5', '0=5,-1=0']);
  // a function that looks at the first and the last element: the counterexample keeps them in order
  const firstOverLast = spec([setOf(number), lazyOf(number)], number, (predict, _d, set, _x) => predict(set, thunk));
  const f = (set: ReadonlySet<number>, x: Lazy<number>) => {
    const xs = [...set];
    return xs.length > 1 && xs[0]! > xs[xs.length - 1]! ? x.force() : 0;
  };
  const r = checkSpec(firstOverLast, f, { seed: 2 });
  assert.equal(inOrder(r.counterexample!.inputs[0] as ReadonlySet<number>), '0,-1', r.message);
});

test('series of sets and maps: at most d elements of depth d - 1, distinct, smallest first', () => {
  const show = <T>(shape: Shape<T>, d: number) => series(shape, d).map((x) => prettyValue(x, shape as Shape<unknown>));
  assert.deepEqual(show(setOf(number), 2), ['Set {}', 'Set {0}', 'Set {1}', 'Set {-1}', 'Set {0, 1}', 'Set {-1, 0}', 'Set {-1, 1}']);
  assert.deepEqual(show(setOf(list(number)), 2), ['Set {}', 'Set {[]}', 'Set {0 : []}', 'Set {[], 0 : []}']);
  assert.deepEqual(show(mapOf(number, boolean), 1), ['Map {}', 'Map {0 => false}', 'Map {0 => true}']);
  assert.equal(series(mapOf(number, boolean), 2).length, 1 + 3 * 2 + 3 * 4);
  // functions of sets are the constant ones: a set is not inspected by case analysis
  assert.deepEqual(functionSeries(fn([setOf(number)], boolean), 1).map((f) => prettyValue(f)), ['λx. false', 'λx. true']);
});

test('exhaustive checking over maps: the lazy lookup passes, the strict one fails at depth 1', () => {
  for (const depth of [1, 2, 3]) assert.equal(checkSpecExhaustive(lookupSpec, lookup, { depth }).passed, true);
  const r = checkSpecExhaustive(lookupSpec, lookupStrict, { depth: 3, unicode: false });
  assert.equal(r.passed, false);
  assert.equal(r.depth, 1);
  assert.match(r.message, /\| \* Map \{0 => 0\} +\| +\| \* Map \{0 => _\}/);
});

test('a random function of a set tells sets of different sizes apart, even looking no deeper than the set', () => {
  // Sets of every size have the constructor name 'Set': its hash alone made {} and {7} one input.
  // About half of all functions look at their argument at all (draws stops first with probability 1/2).
  const told = Array.from({ length: 400 }, (_, i) => randomFunction(fn([setOf(number)], number), Seed.of(1).variant(i), 5)).filter(
    (f) => f(new Set()) !== f(new Set([7])),
  ).length;
  assert.ok(told > 140, `${told} of 400 functions tell {} from {7} (about 90 did before)`);
});

test('fromDemand keeps the unforced elements of a set and the unforced keys of a map apart', () => {
  const o = observe(whnf, (s: ReadonlySet<Lazy<number>>) => s.size, new Set([lazy(() => 1), lazy(() => 2)]));
  assert.equal(prettyDemand(o.inputs[0]!), 'Set {_, _}');
  // one `thunk` for both made a set of one element
  assert.equal(prettyDemand(toDemand(fromDemand(o.inputs[0]!))), 'Set {_, _}');
  const m = toDemand(new Map([[thunk, 'a'], [defer(() => thunk), 'b']]) as unknown as ReadonlyMap<unknown, string>);
  assert.equal(prettyDemand(toDemand(fromDemand(m))), prettyDemand(m));
});

test('every reader names a bad element of a set or a map alike: a set element by its position in the set, a map value by its key', () => {
  /** The paths toDemand, evaluatedPart, observe (a copy), normalize and another context (reading a result) name for the bad part of `v`. */
  const paths = (v: unknown, shape?: Shape<any>) => {
    const named = (f: () => unknown) => mismatchPathOf(f).replace(/^[a-z]+/, '');
    const thrown = (o: { error?: { thrown: unknown } }) => () => {
      if (o.error) throw o.error.thrown;
    };
    const identity = (x: unknown) => x;
    return [
      named(() => toDemand(v, shape)),
      named(() => evaluatedPart(v, shape)),
      named(thrown(observeDetailed(normalize, identity, [v], { inputs: shape && [shape], names: ['x'] }))),
      named(thrown(observeDetailed(normalize, () => v, [], { result: shape }))),
      named(thrown(observeDetailed((r) => normalize(r), () => v, [], { result: shape }))),
    ];
  };
  const alike = (v: unknown, shape: Shape<any> | undefined, path: string) => assert.deepEqual(paths(v, shape), Array(5).fill(path), path);
  // declared: 'a' is first in the set, last in its demand
  alike(new Set<unknown>(['a', 1]), setOf(number), '.0');
  alike(new Map<unknown, unknown>([['b', 'x'], ['a', 1]]), mapOf(string, number), '.get("b")');
  alike(new Map<unknown, unknown>([['x', 1]]), mapOf(number, number), '.keys.0');
  // dynamic, and below an element, which the demand lists elsewhere
  alike(new Set<unknown>([2, null, 1]), undefined, '.1');
  alike(new Set<unknown>([2, [now(null)], 1]), undefined, '.1.0');
  alike(new Map<unknown, unknown>([[3, 0], [2, [now(null)]]]), undefined, '.get(2).0');
  alike(new Map<unknown, unknown>([[[1], 0], [[2], null]]), undefined, '.values.1');
  alike(new Map<unknown, unknown>([[1, 0], [null, 0]]), undefined, '.keys.1');
  alike(fromArray([new Set<unknown>([now(null), 3])]), undefined, '.head.0');
});
