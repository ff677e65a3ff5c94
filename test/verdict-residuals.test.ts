/**
 * Verdicts that can be trusted, the variants issue 16 left: a timeout blames only what took the
 * time, a spec error under fast-check names its case, the lazyOf hint covers tuples, and lub and
 * glb keep the sharing of shared demands.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { now, thunk, type Lazy } from '../src/lazy/lazy.ts';
import * as L from '../src/lazy/list.ts';
import { fromArray } from '../src/lazy/list.ts';
import type { List } from '../src/lazy/cell.ts';
import { lazyOf, list } from '../src/demand/lazy-positions.ts';
import { number } from '../src/demand/primitives.ts';
import { record } from '../src/demand/records.ts';
import { ShapeMismatchError } from '../src/demand/shape-errors.ts';
import { tuple } from '../src/demand/tuples.ts';
import { demandEquals, demandSize, type Demand } from '../src/demand/demand.ts';
import { toDemand } from '../src/demand/convert.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { glb, lub } from '../src/demand/lattice.ts';
import { spec, SpecError } from '../src/spec/spec.ts';
import { assertStrictCase, strictExample, strictProperty } from '../src/spec/property.ts';
import { checkSpec, checkSpecExhaustive } from '../src/checks.ts';
import { checkSpecExhaustiveAsync } from '../src/async-checks.ts';
import { asyncIterable, asyncIterator, iterable, iterator } from '../src/iter/index.ts';
import { AsyncSource } from '../src/iter/source.ts';
import { withArbitrary } from '../src/engine/fast-check-bridge.ts';
import { mapOf, setOf } from '../src/demand/collections.ts';
import { normalize, observeDetailed, observeDetailedAsync } from '../src/demand/observe.ts';
import { sameStrictnessAs } from '../src/spec/reference.ts';
import { LateRejectionError } from '../src/spec/unhandled-rejections.ts';
import { showInputs } from '../src/spec/report.ts';
import type { Shape } from '../src/demand/shape-types.ts';
import { BURN, loopingTimerCheck, slowInputsCheck, slowSpecCheck, TIMEOUT } from './fixtures/residual-checks.ts';

// ---------------------------------------------------------------------------------------------
// A timeout counts the function's run only

test(`with workers and a timeout of ${TIMEOUT} ms, a correct spec computing ${BURN} ms on each case is neither blamed nor makes the function time out`, { timeout: 120_000 }, async () => {
  const r = await checkSpec(slowSpecCheck, { seed: 1, trials: 2, workers: 1, timeout: TIMEOUT });
  assert.equal(r.passed, true, r.message);
  const e = await checkSpecExhaustive(slowSpecCheck.spec, slowSpecCheck.fn, { depth: 0, workers: 1, timeout: TIMEOUT });
  assert.equal(e.passed, true, e.message);
});

test(`with workers and a timeout of ${TIMEOUT} ms, inputs whose generation computes ${BURN} ms do not make a fast function time out`, { timeout: 120_000 }, async () => {
  const r = await checkSpec(slowInputsCheck, { seed: 1, trials: 2, workers: 1, timeout: TIMEOUT });
  assert.equal(r.passed, true, r.message);
});

test('with workers, a timer the function left that computes for ever times the function out, not the spec of the last trial', { timeout: 120_000 }, async () => {
  // Not shrunk (maxShrinkAttempts 0): none of its candidates fails (0 shrinks), and trying them, in a worker started after the timeout stopped the last, cost the test 1 s of CPU alone.
  const r = await checkSpec(loopingTimerCheck, { seed: 1, workers: 1, timeout: 100, maxSize: 10, maxShrinkAttempts: 0 });
  assert.equal(r.passed, false);
  assert.match(r.message, /a timer the function left did not finish: timed out after 100 ms/);
});

// ---------------------------------------------------------------------------------------------
// A spec error under strictProperty names its case

/** The length of a list, and a spec of it that throws on lists longer than 2. */
const length = (xs: List<number>) => L.length(xs);
const throwsOnLong = spec([list(number)], number, (predict, _d, xs) => {
  if (L.length(xs) > 2) throw new Error('boom');
  predict(xs);
});
/** How a case's inputs print: `1 : 2 : []`. */
const shown = (xs: List<number>) => [...L.toArray(xs), '[]'].join(' : ');

test('a spec that throws under strictProperty is a SpecError naming the inputs and the result demand of its case, which fast-check prints', () => {
  const r = fc.check(strictProperty(throwsOnLong, length), { seed: 1 });
  assert.ok(r.failed && r.errorInstance instanceof SpecError, String(r.errorInstance));
  const c = r.counterexample![0];
  const xs = c.inputs[0] as List<number>;
  const n = L.length(xs);
  assert.equal(r.errorInstance.message, `the spec threw Error: boom (inputs ${shown(xs)}; result demand ${n})`);
  assert.equal(String(c), `inputs ${shown(xs)}; result demand ${n}\nSpecError: the spec threw Error: boom`);
  assert.throws(() => fc.assert(strictProperty(throwsOnLong, length), { seed: 1 }), (e: Error) => e.message.includes(`Counterexample: [inputs ${shown(xs)}; result demand ${n}\nSpecError: the spec threw Error: boom]`));
  // One case checked on its own: its inputs and the result demand given.
  const example = strictExample(throwsOnLong, length, [fromArray([1, 2, 3])], 3);
  assert.throws(() => assertStrictCase(throwsOnLong, length, example), { name: 'SpecError', message: 'the spec threw Error: boom (inputs 1 : 2 : 3 : []; result demand 3)' });
});

// ---------------------------------------------------------------------------------------------
// The lazyOf hint for tuples

test('a function that forces a tuple component declared strict gets a hint naming the component, its argument and lazyOf', () => {
  const pairSpec = spec([tuple(number, lazyOf(number))], number, (predict, _d, p) => predict(p));
  const r = checkSpec(pairSpec, (p: [number, Lazy<number>]) => (p[0] as unknown as Lazy<number>).force() + p[1].force(), { seed: 1 });
  assert.equal(r.passed, false);
  assert.match(r.message, /\nThe function threw: TypeError: p\[0\]\.force is not a function\nHint: the function called force on p\[0\], which is not a Lazy\. In the shapes of p, component 0 of \[number, Lazy<number>\] is declared number: a strict component holds its value, not a Lazy\. If the function takes a Lazy there, declare the component lazyOf\(number\)\.\nReproduce/);
  // A tuple inside a record, and a field beside it: each named as what it is.
  const Holder = record({ pair: tuple(lazyOf(number), number), count: number });
  const holderSpec = spec([Holder], number, (predict, _d, h) => predict(h));
  const nested = checkSpec(holderSpec, (h: { pair: [Lazy<number>, number]; count: number }) => (h.pair[1] as unknown as Lazy<number>).force(), { seed: 1 });
  assert.match(nested.message, /\nHint: the function called force on h\.pair\[1\], which is not a Lazy\. In the shapes of h, component 1 of \[Lazy<number>, number\] is declared number: a strict component holds its value, not a Lazy\. If the function takes a Lazy there, declare the component lazyOf\(number\)\.\n/);
  // A lazy component gives no hint: the function forced something else.
  const lazyPair = checkSpec(pairSpec, (p: [number, Lazy<number>]) => ((p as unknown as Lazy<number>[])[2] as Lazy<number>).force(), { seed: 1 });
  assert.match(lazyPair.message, /The function threw: TypeError: Cannot read properties of undefined/);
  assert.doesNotMatch(lazyPair.message, /Hint/);
});

// ---------------------------------------------------------------------------------------------
// lub and glb keep sharing

const HANG = { timeout: 60_000 };
const DEPTH = 40;

/** The demand on `t_{k+1} = { l: t_k, r: t_k }` from `leaf`, `depth` levels: 2^depth paths to the leaf, depth + 1 objects. */
function sharedDemand(leaf: unknown, depth = DEPTH): Demand {
  let t = leaf;
  for (let i = 0; i < depth; i++) t = { l: t, r: t };
  return toDemand(t);
}

/** A pair of values of one skeleton, as a recipe: built with sharing or without (see {@link build}). */
type Recipe = { k: 'n'; v: number } | { k: 'thunk' } | { k: 'now'; of: Recipe } | { k: 'pair'; l: Recipe; r: Recipe } | { k: 'twin'; of: Recipe };

/** Two recipes of one skeleton that differ in their numbers and in which lazy positions are evaluated; `twin`s share. */
const recipePairs: fc.Arbitrary<[Recipe, Recipe]> = fc.letrec<{ p: [Recipe, Recipe] }>((tie) => ({
  p: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.tuple(fc.nat(1), fc.nat(1)).map(([a, b]): [Recipe, Recipe] => [{ k: 'n', v: a }, { k: 'n', v: b }]),
    fc.tuple(tie('p'), fc.boolean(), fc.boolean()).map(([[a, b], fa, fb]): [Recipe, Recipe] => [fa ? { k: 'now', of: a } : { k: 'thunk' }, fb ? { k: 'now', of: b } : { k: 'thunk' }]),
    fc.tuple(tie('p'), tie('p')).map(([[a, b], [c, d]]): [Recipe, Recipe] => [{ k: 'pair', l: a, r: c }, { k: 'pair', l: b, r: d }]),
    tie('p').map(([a, b]): [Recipe, Recipe] => [{ k: 'twin', of: a }, { k: 'twin', of: b }]),
  ),
})).p;

/** The value of a recipe: with `shared`, one object (or Lazy) for each distinct sub-recipe, else a fresh one at each place. */
function build(r: Recipe, shared: Map<string, unknown> | undefined): unknown {
  const key = JSON.stringify(r);
  if (shared?.has(key)) return shared.get(key);
  let v: unknown;
  if (r.k === 'n') v = r.v;
  else if (r.k === 'thunk') v = thunk;
  else if (r.k === 'now') v = now(build(r.of, shared));
  else if (r.k === 'pair') v = { l: build(r.l, shared), r: build(r.r, shared) };
  else v = { l: build(r.of, shared), r: build(r.of, shared) };
  shared?.set(key, v);
  return v;
}

/**
 * The demand on `v`, walked after a chain of 1,100 objects: reading a value records its sharing only
 * past its first 1,024 layers (see shared-layers.ts), so that the demand on a small `v` shares too.
 */
function sharingDemand(v: unknown): Demand {
  let pad: unknown = 0;
  for (let i = 0; i < 1100; i++) pad = { p: pad };
  return toDemand({ pad, v });
}

test('lub and glb of demands sharing their structure (depth 40, 2^40 paths) cost what the demands hold, their results share too, and equal those of the demands unfolded', HANG, () => {
  const forced = sharedDemand(now(1));
  const left = sharedDemand(thunk);
  const joined = lub(forced, left)!;
  assert.ok(demandEquals(joined, forced));
  assert.equal(demandSize(joined), demandSize(forced), 'counted as it unfolds, walked as it is shared');
  const met = glb(forced, left)!;
  assert.ok(demandEquals(met, left));
  assert.equal(demandSize(met), demandSize(left));
  // Lazy leaves that differ: each leaf is `_`. Strict leaves that differ: no position above them may be `_` but the root.
  assert.ok(demandEquals(glb(sharedDemand(now(1)), sharedDemand(now(2)))!, left));
  assert.equal(prettyDemand(glb(sharedDemand(1), sharedDemand(2))!), '_');
  assert.equal(lub(sharedDemand(1), sharedDemand(2)), undefined);
  assert.equal(lub(sharedDemand(now(1)), sharedDemand(now(2))), undefined);
  // On small demands of every kind of sharing, the same results as on the demands unfolded.
  const same = (a: Demand | undefined, b: Demand | undefined) => (a === undefined || b === undefined ? a === b : demandEquals(a, b));
  fc.assert(
    fc.property(recipePairs, ([ra, rb]) => {
      const sharing = new Map<string, unknown>();
      const [a, b] = [sharingDemand(build(ra, sharing)), sharingDemand(build(rb, sharing))];
      const [ua, ub] = [sharingDemand(build(ra, undefined)), sharingDemand(build(rb, undefined))];
      assert.ok(same(lub(a, b), lub(ua, ub)), 'lub');
      assert.ok(same(glb(a, b), glb(ua, ub)), 'glb');
      assert.ok(same(lub(a, a), ua) && same(glb(b, b), ub), 'idempotent');
    }),
    { numRuns: 100, seed: 1 },
  );
});

// ---------------------------------------------------------------------------------------------
// iter: verdicts over iterables and observed inputs

/** A pass-through that keeps the next pull pending while it yields, and closes its source in `finally`: abandoned, the pull it made ahead is left rejected. */
async function* prefetch<T>(xs: AsyncIterable<T>): AsyncGenerator<T> {
  const it = xs[Symbol.asyncIterator]();
  let p = it.next();
  try {
    for (;;) {
      const r = await p;
      if (r.done) return;
      p = it.next();
      yield r.value;
    }
  } finally {
    p.catch(() => {});
    await it.return?.();
  }
}

test('a late rejection of the exhaustive mode names its case by the inputs that made it: an outer source whose second pull throws, its inner source unread, and its inputs pulled reproduce that', { timeout: 60_000 }, async () => {
  const nested = asyncIterable(asyncIterable(number));
  const err = (await checkSpecExhaustiveAsync(sameStrictnessAs([nested], nested, prefetch), prefetch, { depth: 1 }).then(
    (r) => assert.fail(`the run did not fail: ${r.message}`),
    (e: unknown) => e,
  )) as LateRejectionError;
  assert.ok(err instanceof LateRejectionError, String(err));
  assert.match(err.message, /SourceError: the source threw at pull 2\. It was left by a case of checkSpecExhaustiveAsync of prefetch, on inputs async iter \[async iter \[\], throw\], judged before/);
  // The inputs it holds are those printed: total, read without refining a hole.
  assert.equal(showInputs({ args: [nested as Shape<unknown>] }, err.inputs), 'async iter [async iter [], throw]');
  const it = (err.inputs[0] as AsyncIterable<AsyncIterable<number>>)[Symbol.asyncIterator]();
  const inner = await it.next();
  assert.equal(inner.done, false);
  assert.deepEqual(await inner.value![Symbol.asyncIterator]().next(), { done: true, value: undefined });
  await assert.rejects(it.next(), { name: 'SourceError', message: 'the source threw at pull 2' });
});

/** Each function changes its input Set or Map through a built-in method called on it, never through its own. */
const borrowedChanges: [string, (x: any) => unknown, () => unknown, Shape<unknown>][] = [
  ['Set.prototype.add.call', (s: Set<number>) => (Set.prototype.add.call(s, 99), s.has(99)), () => new Set([1]), setOf(number) as Shape<unknown>],
  ['Set.prototype.delete.call', (s: Set<number>) => (Set.prototype.delete.call(s, 1), s.size), () => new Set([1]), setOf(number) as Shape<unknown>],
  ['Set.prototype.clear.call', (s: Set<number>) => (Set.prototype.clear.call(s), s.size), () => new Set([1]), setOf(number) as Shape<unknown>],
  ['Set.prototype.delete.call then add.call, reordering it', (s: Set<number>) => (Set.prototype.delete.call(s, 1), Set.prototype.add.call(s, 1), [...s][0]), () => new Set([1, 2]), setOf(number) as Shape<unknown>],
  ['Set.prototype.add.call on a Set inside a Lazy', (s: Lazy<Set<number>>) => (Set.prototype.add.call(s.force(), 99), s.force().size), () => now(new Set([1])), lazyOf(setOf(number)) as Shape<unknown>],
  ['Map.prototype.set.call', (m: Map<number, number>) => (Map.prototype.set.call(m, 1, 5), m.get(1)), () => new Map([[1, 2]]), mapOf(number, number) as Shape<unknown>],
  ['Map.prototype.set.call of a new key', (m: Map<number, number>) => (Map.prototype.set.call(m, 7, 5), m.size), () => new Map([[1, 2]]), mapOf(number, number) as Shape<unknown>],
  ['Map.prototype.delete.call', (m: Map<number, number>) => (Map.prototype.delete.call(m, 1), m.size), () => new Map([[1, 2]]), mapOf(number, number) as Shape<unknown>],
  ['Map.prototype.clear.call', (m: Map<number, number>) => (Map.prototype.clear.call(m), m.size), () => new Map([[1, 2]]), mapOf(number, number) as Shape<unknown>],
  ['Set.prototype.add.call on a Set a source delivered', (xs: Iterable<Set<number>>) => {
    for (const s of xs) return (Set.prototype.add.call(s, 99), s.size);
    return 0;
  }, () => [new Set([1])], iterable(setOf(number)) as Shape<unknown>],
];

/** Set.prototype's and Map.prototype's own properties, to tell that an observation left them as they were. */
const builtinMethods = () => [Object.getOwnPropertyDescriptors(Set.prototype), Object.getOwnPropertyDescriptors(Map.prototype)];

test('a change to an input Set or Map through the built-in method called on it (Set.prototype.add.call(s, x), Map.prototype.set.call, delete, clear) fails the observation naming the input, sync or async, and leaves Set.prototype and Map.prototype as they were', async () => {
  const before = builtinMethods();
  for (const [what, f, input, shape] of borrowedChanges) {
    const o = observeDetailed(normalize, f, [input()], { inputs: [shape], names: ['s'] });
    assert.ok(o.error?.thrown instanceof TypeError, `${what}: the change went unseen (result ${prettyDemand(o.result)})`);
    assert.match((o.error.thrown as Error).message, /^the function changed its input s\b.*: it changed the (Set|Map) through (Set|Map)\.prototype's methods called on it .*Strictness is observed on immutable data/s, what);
    const later = await observeDetailedAsync(normalize, async (x: unknown) => (await null, f(x)), [input()], { inputs: [shape], names: ['s'] });
    assert.ok(later.error?.thrown instanceof TypeError, `${what}, after an await: the change went unseen`);
  }
  assert.deepEqual(builtinMethods(), before);
  // A call that changes nothing is no change, as a copy frozen again is none.
  const same = (s: Set<number>, m: Map<number, number>) => (Set.prototype.add.call(s, 1), Set.prototype.delete.call(s, 5), Map.prototype.set.call(m, 1, 2), Map.prototype.delete.call(m, 5), s.size + m.size);
  const o = observeDetailed(normalize, same, [new Set([1]), new Map([[1, 2]])], { inputs: [setOf(number), mapOf(number, number)] });
  assert.equal(o.error, undefined, String(o.error?.thrown));
  assert.deepEqual([prettyDemand(o.result), ...o.inputs.map((d) => prettyDemand(d))], ['2', 'Set {1}', 'Map {1 => 2}']);
  // Of two inputs changed so, the first is named.
  const both = (a: Set<number>, b: Set<number>) => (Set.prototype.add.call(a, 7), Set.prototype.add.call(b, 7), 0);
  const two = observeDetailed(normalize, both, [new Set([1]), new Set([2])], { inputs: [setOf(number), setOf(number)], names: ['a', 'b'] });
  assert.match(String((two.error?.thrown as Error | undefined)?.message), /^the function changed its input a\b/);
});

test('a check of a function that adds to its input Set through Set.prototype.add.call fails and says why, where it passed the spec it meets unchanged', () => {
  const sizeSpec = spec([setOf(number)], number, (predict, _d, s) => predict(s));
  const grows = (s: ReadonlySet<number>) => (Set.prototype.add.call(s as Set<number>, 1_000), s.size);
  assert.equal(checkSpec(sizeSpec, (s: ReadonlySet<number>) => s.size, { seed: 1 }).passed, true);
  const r = checkSpec(sizeSpec, grows, { seed: 1 });
  assert.equal(r.passed, false);
  assert.match(r.message, /The function threw: TypeError: the function changed its input args\[0\]: it changed the Set through Set\.prototype's methods called on it/);
});

/** The protocol's names: all that a function may reach on a recorded source or iterator. */
const PROTOCOL = new Set<PropertyKey>(['next', 'return', 'throw', Symbol.iterator, Symbol.asyncIterator]);

/** What a function can reach on `o` besides the protocol: its own properties, those of its prototypes (but `constructor` and Object.prototype's) and their constructors' statics. */
function reachable(o: object): string[] {
  const found: string[] = Reflect.ownKeys(o).map(String);
  for (let p = Object.getPrototypeOf(o) as object | null; p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    for (const key of Reflect.ownKeys(p)) if (key !== 'constructor' && !PROTOCOL.has(key)) found.push(String(key));
    const ctor = Object.getOwnPropertyDescriptor(p, 'constructor')?.value as object | undefined;
    if (ctor !== undefined) for (const key of Reflect.ownKeys(ctor)) if (!['length', 'name', 'prototype'].includes(key as string)) found.push(`constructor.${String(key)}`);
  }
  return found;
}

test('a recorded source, sync or async, re-iterable or one-shot, and each of its iterators (with return, throw, both or neither) give a function nothing but the protocol: no field, no other method, no static of their classes', async () => {
  const seen: [string, object][] = [];
  const takeAll = (name: string) => (xs: Iterable<number> & Partial<Iterator<number>>) => {
    seen.push([name, xs]);
    const it = xs[Symbol.iterator]();
    seen.push([`${name}'s iterator`, it]);
    return it.next().done ? 0 : 1;
  };
  const takeAllAsync = (name: string) => async (xs: AsyncIterable<number>) => {
    seen.push([name, xs]);
    const it = xs[Symbol.asyncIterator]();
    seen.push([`${name}'s iterator`, it]);
    return (await it.next()).done ? 0 : 1;
  };
  /** An iteration of 1, 2 with `return`, `throw`, both or neither, its methods sync or async. */
  const iteration = (methods: readonly string[], wrap: (r: unknown) => unknown) => {
    const ys = [1, 2];
    const all: Record<string, (e?: unknown) => unknown> = { next: () => wrap({ done: ys.length === 0, value: ys.shift() }), return: () => wrap({ done: true, value: undefined }), throw: (e) => { throw e; } };
    return Object.fromEntries(methods.map((m) => [m, all[m]!]));
  };
  for (const methods of [['next', 'return', 'throw'], ['next', 'return'], ['next', 'throw'], ['next']]) {
    const kind = `with ${methods.join(', ')}`;
    observeDetailed(normalize, takeAll(`an iterable ${kind}`), [{ [Symbol.iterator]: () => iteration(methods, (r) => r) }], { inputs: [iterable(number)] });
    await observeDetailedAsync(normalize, takeAllAsync(`an async iterable ${kind}`), [{ [Symbol.asyncIterator]: () => iteration(methods, async (r) => r) }], { inputs: [asyncIterable(number)] });
  }
  observeDetailed(normalize, takeAll('an iterator'), [[1, 2][Symbol.iterator]()], { inputs: [iterator(number)] });
  await observeDetailedAsync(normalize, takeAllAsync('an async iterator'), [new AsyncSource({ elements: [1], infinite: false, hasReturn: true, delays: [] }).iterator()], { inputs: [asyncIterator(number)] });
  assert.equal(seen.length, 20);
  for (const [name, o] of seen) assert.deepEqual(reachable(o), [], name);
});

/** A hand-written source of 1, 2, 3 whose iterators keep answering values after `return()` (`afterDone`: after answering done, too); sync, or async. */
function unending(opts: { afterDone?: boolean; async?: boolean } = {}) {
  const iteration = () => {
    let k = 0;
    let doneOnce = !opts.afterDone;
    const answer = (r: IteratorResult<number>) => (opts.async ? Promise.resolve(r) : r);
    return {
      next: () => {
        if (!doneOnce && k === 1) return (doneOnce = true), answer({ done: true, value: undefined });
        return answer(k < 3 ? { done: false, value: ++k } : { done: true, value: undefined });
      },
      // Closes nothing: the next pull answers the next element.
      return: () => answer({ done: true, value: undefined }),
    };
  };
  return opts.async ? { [Symbol.asyncIterator]: iteration } : { [Symbol.iterator]: iteration };
}

/** Pulls one element, closes the iteration, pulls again: the sum of what the pulls answered. */
const pullAfterReturn = (xs: Iterable<number>) => {
  const it = xs[Symbol.iterator]();
  const a = it.next();
  it.return!();
  const b = it.next();
  return (a.done ? 0 : a.value) + (b.done ? 0 : b.value);
};
const pullAfterReturnAsync = async (xs: AsyncIterable<number>) => {
  const it = xs[Symbol.asyncIterator]();
  const a = await it.next();
  await it.return!();
  const b = await it.next();
  return (a.done ? 0 : a.value) + (b.done ? 0 : b.value);
};
/** Pulls until done, then once more. */
const pullPastDone = (xs: Iterable<number>) => {
  const it = xs[Symbol.iterator]();
  let s = 0;
  for (let r = it.next(); !r.done; r = it.next()) s += r.value;
  const more = it.next();
  return s + (more.done ? 0 : more.value);
};

test('a source that hands out an element after return() closed its iteration, or after it answered done, fails the observation naming the source and its protocol violation, sync or async; one that answers done then is recorded as it was', async () => {
  const violation = { name: 'ShapeMismatchError', message: /^value does not match its shape at (xs|args\[0\])\.iteration\.next2: expected an iterator that answers done once it has answered done \(as ECMAScript asks\) or been closed with return\(\) \(as a generator does\), got one whose next\(\) answered an element \(number 2\) after (return\(\): the function pulled the iteration it had closed, and the source's return\(\) did not end it\. strictcheck records an iteration up to its close|done: strictcheck records an iteration up to its end)/ };
  assert.throws(() => observeDetailed(normalize, pullAfterReturn, [unending()], { inputs: [iterable(number)], names: ['xs'] }), violation);
  assert.throws(() => observeDetailed(normalize, pullPastDone, [unending({ afterDone: true })], { inputs: [iterable(number)], names: ['xs'] }), violation);
  await assert.rejects(observeDetailedAsync(normalize, pullAfterReturnAsync, [unending({ async: true })], { inputs: [asyncIterable(number)], names: ['xs'] }), violation);
  // Two pulls pending at once, the first answering done, the second an element.
  const pullPairAsync = async (xs: AsyncIterable<number>) => {
    const it = xs[Symbol.asyncIterator]();
    const first = await it.next();
    const [a, b] = await Promise.all([it.next(), it.next()]);
    return [first, a, b].reduce((s, r) => s + (r.done ? 0 : r.value), 0);
  };
  await assert.rejects(observeDetailedAsync(normalize, pullPairAsync, [unending({ async: true, afterDone: true })], { inputs: [asyncIterable(number)], names: ['xs'] }), { ...violation, message: /at xs\.iteration\.next3: .* answered an element \(number 2\) after done/ });
  // In a check, the error is thrown, as a source that does not fit its shape is.
  const anySpec = spec([withArbitrary(fc.constant(unending() as Iterable<number>), iterable(number))], number, (predict, _d, xs) => predict(xs));
  assert.throws(() => checkSpec(anySpec, pullAfterReturn, { seed: 1 }), violation);
  // A source whose iteration ends when closed: the pull after return() answers done, and the demand is what was pulled.
  const closing = observeDetailed(normalize, pullAfterReturn, [{ *[Symbol.iterator]() { yield* [1, 2, 3]; } }], { inputs: [iterable(number)], names: ['xs'] });
  assert.equal(closing.error, undefined);
  assert.deepEqual([prettyDemand(closing.result), prettyDemand(closing.inputs[0]!)], ['1', '1 : return()']);
  const ended = observeDetailed(normalize, pullPastDone, [[1, 2]], { inputs: [iterable(number)], names: ['xs'] });
  assert.deepEqual([ended.error, prettyDemand(ended.inputs[0]!)], [undefined, '1 : 2 : []']);
});

test('an async source that answers an element after done, to a pull settling before an earlier one, fails the observation and leaves no pull of the function waiting for ever', { timeout: 20_000 }, async () => {
  // Pull 0 answers an element, pull 1 done, pulls 2 and 3 elements: settling in reverse order, so pull 3 is refused while pull 2 waits on it.
  const later = (n: number) => new Promise<void>((resolve) => { const step = (k: number): unknown => (k === 0 ? resolve() : setImmediate(step, k - 1)); step(n); });
  const source = { [Symbol.asyncIterator]: () => { let k = 0; return { next: () => { const i = k++; return later(4 - i).then(() => (i === 1 ? { done: true as const, value: undefined } : { done: false as const, value: { a: i } })); } }; } };
  const f = async (xs: AsyncIterable<{ a: number }>) => {
    const it = xs[Symbol.asyncIterator]();
    const pulls = [it.next(), it.next(), it.next(), it.next()];
    for (const p of pulls) p.catch(() => {});
    await Promise.allSettled(pulls);
    return 1;
  };
  // A live timer, as a test runner's or a pool's, keeps the event loop from emptying: a pull left waiting would hang the observation.
  const keep = setInterval(() => {}, 1_000);
  try {
    await assert.rejects(observeDetailedAsync(normalize, f, [source], { inputs: [asyncIterable(record({ a: number }))] }), (err) => err instanceof ShapeMismatchError && /answered an element \(an object\) after done/.test(err.message));
  } finally {
    clearInterval(keep);
  }
});
