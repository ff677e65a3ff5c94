/** The engine's generators and shrinkers on their own: shrinking ends, generation fails clearly when it cannot. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { lazy, now, thunk, type Lazy } from '../src/lazy/lazy.ts';
import { mapOf, setOf } from '../src/demand/collections.ts';
import { data, option } from '../src/demand/declared-data.ts';
import { lazyOf, list } from '../src/demand/lazy-positions.ts';
import { bigint, boolean, fn, number, string } from '../src/demand/primitives.ts';
import type { Shape } from '../src/demand/shape-types.ts';
import { tuple } from '../src/demand/tuples.ts';
import { prettyValue } from '../src/demand/print.ts';
import { spec } from '../src/spec/spec.ts';
import { trialCase } from '../src/spec/trial-case.ts';
import { arbitrary } from '../src/engine/generate.ts';
import { withArbitrary } from '../src/engine/fast-check-bridge.ts';
import { randomFunction } from '../src/engine/random-function.ts';
import { shrinkValue } from '../src/engine/shrink.ts';
import { Seed } from '../src/engine/random.ts';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { Color, isRed, isRedWrongSpec, Stream, Tree } from './fixtures/shapes.ts';
import { checkSpec } from '../src/checks.ts';

// Constructors with and without fields, interleaved, one of them recursive.
type Mixed = { tag: 'Circle'; r: number } | { tag: 'Dot' } | { tag: 'Square'; inner: Lazy<Mixed> } | { tag: 'Point' };
const Mixed = data<Mixed>('Mixed', (M) => ({ Circle: { r: number }, Dot: {}, Square: { inner: lazyOf(M) }, Point: {} }));
// Some before None, unlike the built-in option: a constructor with fields declared first.
type Maybe = { tag: 'Just'; value: Color } | { tag: 'Nothing' };
const Maybe = data<Maybe>('Maybe', () => ({ Just: { value: Color }, Nothing: {} }));

const shown = <T>(v: T, shape: Shape<T>) => [...shrinkValue(v, shape)].map((c) => prettyValue(c, shape as Shape<unknown>));

test('a constructor without fields shrinks only to one declared before it, so shrinking an enum ends', () => {
  // Every other one was offered: Red shrank to Green, and Green to Red, for ever.
  assert.deepEqual(shown(Color.make.Red(), Color), []);
  assert.deepEqual(shown(Color.make.Green(), Color), ['Red']);
  assert.deepEqual(shown(Color.make.Blue(), Color), ['Red', 'Green']);
  // One with fields still shrinks to any without, wherever declared; never back.
  assert.deepEqual(shown(Maybe.make.Just({ value: Color.make.Green() }), Maybe), ['Nothing', 'Just Red']);
  assert.deepEqual(shown(Maybe.make.Nothing(), Maybe), []);
  assert.deepEqual(shown(Mixed.make.Point(), Mixed), ['Dot']);

  const r = checkSpec(isRedWrongSpec, isRed, { seed: 1, maxShrinkAttempts: 10_000 });
  assert.ok(!r.passed && r.shrinks <= 2, `${r.shrinks} shrinks`);
});

test('shrinkValue never offers a number or bigint beyond 2^53 as its own shrink, nor a larger one', () => {
  // n - d rounded back to n for large doubles, and bigints were shrunk through a rounded Number.
  for (const n of [2 ** 60, -(2 ** 60), Number.MAX_VALUE, 2 ** 53 + 2]) {
    const shrinks = [...shrinkValue(n, number)];
    assert.ok(shrinks.length > 0 && shrinks.every((c) => Math.abs(c) < Math.abs(n) || c === -n), `${n}: ${shrinks}`);
    assert.ok(!shrinks.includes(n));
  }
  for (const n of [2n ** 64n, 2n ** 64n - 1n, -(2n ** 64n) + 1n, 2n ** 53n + 1n]) {
    const shrinks = [...shrinkValue(n, bigint)];
    const abs = (x: bigint) => (x < 0n ? -x : x);
    assert.ok(shrinks.every((c) => abs(c) < abs(n) || c === -n), `${n}: ${shrinks.filter((c) => abs(c) >= abs(n))}`);
    assert.ok(!shrinks.includes(n));
    assert.equal(shrinks.at(-1), n - (n > 0n ? 1n : -1n), 'down to one less, exactly');
  }
});

test('the fast-check contexts of 0 and -0 are kept apart', () => {
  // Kept by value in a Map, where -0 is 0: -0's context then shrank 0 to 0 itself.
  const doubles = withArbitrary(fc.double({ noNaN: true, min: -1, max: 1 }), number);
  let seen = 0;
  for (let i = 0; i < 20_000 && seen < 2; i++) {
    const v = arbitrary(doubles)(Seed.of(i).stream(), 0);
    if (seen === 0 ? Object.is(v, 0) : Object.is(v, -0)) seen++;
  }
  assert.equal(seen, 2, 'made 0, then -0');
  assert.ok(![...shrinkValue(0, doubles)].some((v) => Object.is(v, 0)), 'not its own shrink');
  assert.ok([...shrinkValue(-0, doubles)].some((v) => Object.is(v, 0)), '-0 shrinks to 0');
});

test('shrinkValue never offers a value as its own shrink: Infinity and NaN shrink to 0', () => {
  for (const v of [Infinity, -Infinity, NaN]) assert.deepEqual([...shrinkValue(v, number)], [0]);
  assert.deepEqual([...shrinkValue(2.5, number)], [2]);
  assert.deepEqual([...shrinkValue(0, number)], []);
});

test('shrink chains end and never come back to a value', () => {
  const shapes: Shape<unknown>[] = [
    Color,
    Mixed,
    Maybe,
    Tree,
    option(Color),
    list(Color),
    list(tuple(number, Maybe)),
    tuple(Color, option(number), boolean, string, bigint),
    setOf(Color),
    mapOf(number, Mixed),
  ] as Shape<unknown>[];
  const key = (v: unknown, shape: Shape<unknown>) => prettyValue(v, shape, { maxNodes: 100_000, maxItems: 100_000 });
  fc.assert(
    fc.property(fc.nat(shapes.length - 1), fc.integer(), fc.nat(12), fc.array(fc.nat(), { minLength: 1 }), (which, seed, size, picks) => {
      const shape = shapes[which]!;
      let v = arbitrary(shape)(Seed.of(seed).stream(), size);
      const seen = new Set([key(v, shape)]);
      for (let step = 0; ; step++) {
        const candidates = [...shrinkValue(v, shape)];
        if (candidates.length === 0) return;
        assert.ok(step < 1000, `${shape.name}: still shrinking after ${step} steps, at ${key(v, shape)}`);
        v = candidates[picks[step % picks.length]! % candidates.length];
        const k = key(v, shape);
        assert.ok(!seen.has(k), `${shape.name}: came back to ${k}`);
        seen.add(k);
      }
    }),
    { numRuns: 100 },
  );
});

test('a data type without a finite value is refused, naming it, before any trial; one inside a function is made lazily', () => {
  // An infinite stream: generated eagerly, it overflowed the stack.
  const refused = /cannot generate values of (\S+): Stream has no finite value/;
  assert.throws(() => arbitrary(Stream), { name: 'TypeError', message: refused });
  // Only some values hold a stream: it was drawn at some trials only.
  type Holder = { tag: 'Empty' } | { tag: 'Full'; s: Stream };
  const Holder = data<Holder>('Holder', () => ({ Empty: {}, Full: { s: Stream } }));
  let calls = 0;
  const f = (h: Lazy<Holder>): Lazy<number> => lazy(() => (calls++, 0));
  const s = spec<[Lazy<Holder>], Lazy<number>>([lazyOf(Holder)], lazyOf(number), (predict) => predict(thunk));
  assert.throws(() => checkSpec(s, f), { name: 'TypeError', message: /cannot generate values of Lazy<Holder>: Stream has no finite value/ });
  assert.equal(calls, 0);
  // A function's result is made as it is forced.
  const g = randomFunction(fn([number], lazyOf(Stream)), Seed.of(1), 5);
  let cell = g(1).force();
  for (let i = 0; i < 100; i++) cell = cell.tail.force();
  assert.equal(typeof cell.head, 'number');
  assert.doesNotThrow(() => arbitrary(tuple(fn([number], lazyOf(Stream)), list(number))));
});

test('a generated function whose result is a strict recursive type is capped as arbitrary is, at any size', () => {
  // produce() built strict fields by recursion with no cap: at size 20000 a Nat overflowed the stack.
  type Nat = { tag: 'Z' } | { tag: 'S'; pred: Nat };
  const Nat = data<Nat>('Nat', (N) => ({ Z: {}, S: { pred: N } }));
  const depth = (v: Nat) => {
    let n = 0;
    for (; v.tag === 'S'; v = v.pred) n++;
    return n;
  };
  const depths = (size: number, seeds: number) => Array.from({ length: seeds }, (_, i) => depth(randomFunction(fn([number], Nat), Seed.of(i), size)(i)));
  const deepest = Math.max(...depths(20_000, 20));
  assert.ok(deepest > 100 && deepest <= 500, `deepest ${deepest}`);
  // Up to the cap, the same seeds give the same values as before.
  assert.deepEqual(depths(30, 10), [4, 22, 3, 0, 19, 10, 18, 7, 5, 2]);
  assert.deepEqual(depths(500, 10), [367, 106, 447, 286, 49, 446, 290, 159, 386, 4]);
});

test('shrinking does not offer a field again that is a constructor without fields, or the same object as another field', () => {
  // The constructor without fields was offered, then each field that held it: Leaf thrice.
  const L = Tree.make.Leaf();
  const N = (left: Tree, value: number, right: Tree) => Tree.make.Node({ left: now(left), value, right: now(right) });
  assert.deepEqual(shown(N(L, 0, L), Tree), ['Leaf']);
  assert.deepEqual(shown(N(N(L, 1, L), 0, L), Tree), ['Leaf', 'Node Leaf 1 Leaf', 'Node Leaf 0 Leaf', 'Node (Node Leaf 0 Leaf) 0 Leaf']);
  const t = N(L, 1, L);
  assert.equal(shown(N(t, 0, t), Tree).filter((c) => c === 'Node Leaf 1 Leaf').length, 1);
  // A quarter of a tree's candidates repeated an earlier one; the few left are shrinks that meet.
  let total = 0;
  let repeats = 0;
  for (let i = 0; i < 200; i++) {
    const cs = shown(arbitrary(Tree)(Seed.of(i).stream(), 8), Tree);
    total += cs.length;
    repeats += cs.length - new Set(cs).size;
  }
  assert.ok(repeats < total * 0.05, `${repeats} of ${total} candidates repeat`);
});

test('every safe-integer seed gives its own run, and a 32-bit one the run it gave before', () => {
  // Only the low 32 bits were used: 7 and 7 + 2^32 gave the same run.
  const s = spec([lazyOf(number), lazyOf(number)], lazyOf(number), (predict) => predict(thunk, thunk));
  const run = (seed: number) => Array.from({ length: 10 }, (_, i) => trialCase(s as never, seed, i, 30).inputs.map((v) => (v as Lazy<number>).force()).join(',')).join(' ');
  const seeds = [7, 7 + 2 ** 32, 7 - 2 ** 32, 7 + 2 ** 40, 2 ** 31, -(2 ** 31), 2 ** 32, 0, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER - 2 ** 32];
  const runs = seeds.map(run);
  assert.equal(new Set(runs).size, seeds.length, 'distinct seeds, distinct runs');
  assert.notDeepEqual(Seed.of(7), Seed.of(7 + 2 ** 32));
  // A seed in [-2^31, 2^31) starts from pure-rand's own seeding, as before.
  for (const n of [0, 1, 7, -5, 2 ** 31 - 1, -(2 ** 31), 123_456_789]) {
    assert.deepEqual([...Object.values(Seed.ofRun(n))], xoroshiro128plus(n).getState(), `seed ${n}`);
  }
});
