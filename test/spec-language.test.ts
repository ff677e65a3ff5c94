import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  cons, defer, elementAt, fieldDemand, fromArray, isCapped, lazy, lazyNone, lazySome, lazyOf, lazyTuple, list, List, nil, now, number, option, prettyDemand,
  prettyValue, spineForced, anyElementDemanded, thunk, toDemand, tuple, UnevaluatedError, type Lazy, type LazyList,
  demandEquals, enumerateCases, observeDetailed, predictDemands, type Context, type Demand, type Shape, type Spec,
  checkSpec, checkSpecExhaustive, strictProperty, type Counterexample,
} from '../src/index.ts';
import { take, takePrime, takeSpec, takeSpecFirstAttempt } from '../examples/take.ts';
import { append, appendSpec, length, lengthSpec, map, mapSpec, mapStrict, reverse, reverseSpec, zip, zipSpec } from '../examples/list-specs.ts';
import { and, andSpec, andStrict, filter, filterSpec } from '../examples/and-filter.ts';
import { rot, rotNaive, rotSimpleSpec } from '../examples/okasaki-queue/rot.ts';
import { takePrimeByCombinatorsCheck } from './fixtures/take-variant-checks.ts';
import {
  andByCombinators, appendByCombinators, filterByCombinators, lengthByCombinators, mapByCombinators, reverseByCombinators, rotSimpleByCombinators, takeByCombinators, takePrimeByCombinators,
  zipByCombinators,
} from '../examples/spec-language.ts';

// ---------------------------------------------------------------------------------------------
// `thunk` needs no type argument nor cast (type-level: `tsc` compiles these lines; the run checks they still throw)

test('thunk fits lazy positions without a type argument or a cast, and its members can be read', () => {
  const xs = fromArray([1, 2, 3]);
  // defer of thunk is a Lazy<never>, so a Lazy<number> wherever one is expected, unannotated (was Lazy<unknown>)
  const deferred = defer(() => thunk);
  const asNumber: Lazy<number> = deferred;
  // a thunk's members are a Lazy's (were errors on `never`): no `thunk as Lazy<T>`
  const forcesThunk = lazy(() => thunk.force());
  const alsoNumber: Lazy<number> = forcesThunk;
  assert.equal(thunk.isEvaluated, false);
  // mapped, zipped, in arrays and conditionals: inferred, no `List.mapLazy<number, number>`
  const noElements: LazyList<number> = List.mapLazy(() => thunk, xs);
  const heads = [now(1), thunk].map((h) => h.isEvaluated);
  const pick = (h: Lazy<number>) => (h.isEvaluated ? h : thunk);
  const picked: Lazy<number> = pick(now(2));
  // a strict position cannot be unevaluated: thunk is refused there (`never` took it)
  // @ts-expect-error a number is never unevaluated in a demand
  const strict: number = thunk;
  // @ts-expect-error a strict tuple neither
  const pair: [number, number] = thunk;
  assert.throws(() => asNumber.force(), UnevaluatedError);
  assert.throws(() => alsoNumber.force(), UnevaluatedError);
  assert.equal(List.numCtrForced(noElements), 4);
  assert.deepEqual(heads, [true, false]);
  assert.equal(picked.force(), 2);
  assert.equal(typeof strict, 'function'); // the marker itself, at run time
  assert.equal(pair, thunk);
});

// ---------------------------------------------------------------------------------------------
// Helpers for demands in value form

test('spineForced counts the cons cells a demand evaluated, elementAt gives an element demand or thunk, anyElementDemanded whether map applied its function', () => {
  const d = cons(thunk, cons(2, thunk)); // _ : 2 : _
  assert.deepEqual([spineForced(d), spineForced(cons(1, nil)), spineForced(thunk), spineForced(nil)], [2, 1, 0, 0]);
  assert.deepEqual([isCapped(d), isCapped(cons(1, nil))], [false, true]);
  assert.deepEqual([0, 1, 2, 5].map((i) => prettyValue(elementAt(d, i))), ['_', '2', '_', '_']);
  assert.equal(elementAt(cons(1, nil), 1), thunk, 'past the end');
  assert.deepEqual([anyElementDemanded(d), anyElementDemanded(cons(thunk, cons(thunk, nil))), anyElementDemanded(thunk)], [true, false, false]);
});

test('lazySome, lazyNone and lazyTuple build evaluated layers at lazy positions, and fieldDemand reads a component or thunk', () => {
  assert.equal(prettyDemand(toDemand(lazySome(thunk), lazyOf(option(lazyOf(number))))), 'Some _');
  assert.equal(prettyDemand(toDemand(lazySome(now(3)), lazyOf(option(lazyOf(number))))), 'Some 3');
  assert.equal(prettyDemand(toDemand(lazyNone, lazyOf(option(number)))), 'None');
  const pairs = list(tuple(lazyOf(number), lazyOf(number)));
  assert.equal(prettyDemand(toDemand(cons(lazyTuple(thunk, now(2)), thunk), pairs)), '(_, 2) : _');
  assert.equal(prettyValue(fieldDemand(lazyTuple(thunk, now(2)), 1)), '2');
  assert.equal(fieldDemand(lazyTuple(thunk, now(2)), 0), thunk);
  assert.equal(fieldDemand(thunk, 0), thunk, 'the pair itself not evaluated');
});

// ---------------------------------------------------------------------------------------------
// The spec language: each example's spec in it predicts what its hand-written spec does, on every case up to a depth

/** Demands printed, with the argument shapes. */
const shown = (ds: readonly Demand[]) => ds.map((d) => prettyDemand(d)).join(', ');

/**
 * Every case up to `depth` (inputs, and a demand on the result `fn` gives them, as an exhaustive
 * check enumerates them): the number of cases, and those where the two specs predict different
 * demands, drawn as `inputs; result demand => one's | other's`, or where `other` predicts other
 * demands than `fn` made, drawn as `inputs; result demand => fn's != other's`. Where none, `fn`
 * passes `other` exactly on every case of an exhaustive check of that depth, whose cases these are.
 */
function compareSpecs<A extends readonly unknown[], R>(one: Spec<A, R>, other: Spec<A, R>, fn: (...args: A) => R, depth: number): { cases: number; differ: string[] } {
  const run = (inputs: unknown[], context: Context) => {
    const obs = observeDetailed(context, fn, inputs, { inputs: one.args, result: one.result });
    if (obs.error) throw obs.error.thrown; // a hole forced (the case is refined), or a real error
    const a = predictDemands(one, obs.result, inputs as unknown as A);
    const b = predictDemands(other, obs.result, inputs as unknown as A);
    if (!a.every((d, i) => demandEquals(d, b[i]!))) return `; ${prettyDemand(obs.result)} => ${shown(a)} | ${shown(b)}`;
    return b.every((d, i) => demandEquals(d, obs.inputs[i]!)) ? undefined : `; ${prettyDemand(obs.result)} => ${shown(obs.inputs)} != ${shown(b)}`;
  };
  let cases = 0;
  const differ: string[] = [];
  for (const c of enumerateCases(one.args, depth, run, { result: one.result })) {
    cases++;
    if (c.outcome !== undefined) differ.push(c.total().map((v, i) => prettyValue(v, one.args[i] as Shape<unknown>)).join(', ') + c.outcome);
  }
  return { cases, differ };
}

// Depths at which a combinator made wrong is caught: an element's demand read from the cell before
// it past the second cell (prefixOf), a reversal of only two cells (resultFrom), asResult's count
// capped at 2 or 3 cells. map and zip miss the first and the last of these at depth 2, so stay at 3.
const pairsOfSpecs: readonly { name: string; hand: Spec<readonly any[], any>; combinators: Spec<readonly any[], any>; fn: (...args: any[]) => any; depth: number; least: number }[] = [
  { name: 'take', hand: takeSpec, combinators: takeByCombinators, fn: take, depth: 4, least: 2_997 },
  { name: 'map', hand: mapSpec, combinators: mapByCombinators, fn: map, depth: 3, least: 19_828 },
  { name: 'and', hand: andSpec, combinators: andByCombinators, fn: and, depth: 8, least: 17 },
  { name: 'zip', hand: zipSpec, combinators: zipByCombinators, fn: zip, depth: 3, least: 11_218 },
  { name: 'append', hand: appendSpec, combinators: appendByCombinators, fn: append, depth: 3, least: 1_333 },
  { name: 'filter', hand: filterSpec, combinators: filterByCombinators, fn: filter, depth: 3, least: 4_257 },
  { name: 'rot_simple_spec (rotNaive)', hand: rotSimpleSpec, combinators: rotSimpleByCombinators, fn: rotNaive, depth: 3, least: 1_917 },
  { name: 'length', hand: lengthSpec, combinators: lengthByCombinators, fn: length, depth: 5, least: 6 },
  { name: 'reverse', hand: reverseSpec, combinators: reverseByCombinators, fn: reverse, depth: 4, least: 1_357 },
];

for (const p of pairsOfSpecs) {
  test(`${p.name}: the spec in the spec language predicts the hand-written spec's demands, and the function's, on every case up to depth ${p.depth}`, { timeout: 120_000 }, () => {
    const { cases, differ } = compareSpecs(p.hand, p.combinators, p.fn, p.depth);
    assert.deepEqual(differ.slice(0, 5), []);
    assert.ok(cases >= p.least, `${cases} cases, fewer than the ${p.least} enumerated when this test was written`);
  });
}

test('the comparison of specs finds the cases where they differ: take against its first attempt', () => {
  const { differ } = compareSpecs(takeSpecFirstAttempt, takeByCombinators, take, 2);
  assert.ok(differ.includes('0, []; [] => 0, [] | 0, _'), differ.join('\n'));
});

// ---------------------------------------------------------------------------------------------
// A spec in the spec language is a Spec: every check takes it

/** A counterexample as the paper draws it: inputs; result demand; actual | predicted. */
const drawn = (c: Counterexample | undefined) =>
  c && `${c.inputs.map((v) => prettyValue(v)).join(', ')}; ${prettyDemand(c.resultDemand)}; ${shown(c.actual)} | ${shown(c.predicted)}`;
const paperTakePrime = '0, []; []; _, [] | 0, _';

test("take passes its spec in the spec language, and take' fails it with the paper's counterexample: randomly, exhaustively, with workers and as a fast-check property", { timeout: 120_000 }, async () => {
  assert.ok(checkSpec(takeByCombinators, take, { seed: 1, trials: 300 }).passed);
  assert.ok(checkSpecExhaustive(takeByCombinators, take, { depth: 4 }).passed);
  assert.equal(drawn(checkSpec(takeByCombinators, takePrime, { seed: 1 }).counterexample), paperTakePrime);
  assert.equal(drawn(checkSpecExhaustive(takeByCombinators, takePrime, { depth: 3 }).counterexample), paperTakePrime);
  const inWorkers = await checkSpec(takePrimeByCombinatorsCheck.spec, takePrimeByCombinatorsCheck.fn, { seed: 1, workers: 1 });
  assert.equal(drawn(inWorkers.counterexample), paperTakePrime);
  const r = fc.check(strictProperty(takeByCombinators, takePrime, { unicode: false }), { seed: 1 });
  assert.ok(r.failed);
  assert.match(String(r.counterexample?.[0]), /^inputs 0, \[\]; result demand \[\]\n/);
});

// That each passes its function exhaustively is the comparison's (above), over the cases an exhaustive check runs.
test('the specs in the spec language catch the too strict twins: mapStrict, andStrict, rot against rot_simple_spec', () => {
  const exhaustively = <A extends readonly unknown[], R>(s: Spec<A, R>, f: (...args: A) => R, depth: number) => checkSpecExhaustive(s, f, { depth, unicode: false });
  assert.equal(drawn(exhaustively(mapByCombinators, mapStrict, 3).counterexample), 'λx. 0, 0 : []; 0 : _; λx. 0, 0 : _ | λx. 0, _ : _');
  assert.equal(drawn(exhaustively(andByCombinators, andStrict, 3).counterexample), 'false : []; false; false : [] | false : _');
  assert.equal(drawn(exhaustively(rotSimpleByCombinators, rot, 3).counterexample), '0 : [], []; _ : _; _ : _, [] | _ : _, _');
});

test("take' has a spec in the language too: asResult's default demands the cell after the result's when n runs out first", () => {
  assert.ok(checkSpecExhaustive(takePrimeByCombinators, takePrime, { depth: 4 }).passed);
  const r = checkSpecExhaustive(takePrimeByCombinators, take, { depth: 3, unicode: false });
  assert.equal(drawn(r.counterexample), '0, []; []; 0, _ | _, []');
});
