import { test } from 'node:test';
import assert from 'node:assert/strict';
import util from 'node:util';
import fc from 'fast-check';
import { ForceBudgetExceeded, Lazy, UnevaluatedError, lazy, now, thunk, withForceBudget } from '../src/lazy/lazy.ts';
import { Cons, NIL, nil, type Cell, type List } from '../src/lazy/cell.ts';
import * as L from '../src/lazy/list.ts';
import { cons, fromArray, fromString } from '../src/lazy/list.ts';
import { option, type Option } from '../src/demand/declared-data.ts';
import { dynamic } from '../src/demand/dynamic.ts';
import { lazyOf, list } from '../src/demand/lazy-positions.ts';
import { fn, number } from '../src/demand/primitives.ts';
import { record } from '../src/demand/records.ts';
import { ShapeMismatchError } from '../src/demand/shape-errors.ts';
import type { Shape } from '../src/demand/shape-types.ts';
import { tuple } from '../src/demand/tuples.ts';
import { demandEquals, lessDefined, type Demand } from '../src/demand/demand.ts';
import { fromDemand, toDemand } from '../src/demand/convert.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { entangle, normalize, observe, observe1, observeDetailed, toContext, whnf, type Context } from '../src/demand/observe.ts';
import { fitContext, randomContext } from '../src/engine/context.ts';
import { Seed } from '../src/engine/random.ts';
import { Tree } from './fixtures/shapes.ts';

const pd = (d: Demand) => prettyDemand(d);

// ---------------------------------------------------------------------------------------------
// Functions under observation

/** The paper's `take`, with a lazy count: `take 0 _ = []` does not look at the list. */
const take = <T>(n: Lazy<number>, xs: List<T>): List<T> =>
  lazy((): Cell<T> => {
    if (n.force() <= 0) return NIL;
    const c = xs.force();
    return c.tag === 'Nil' ? NIL : new Cons(c.head, take(n.map((k) => k - 1), c.tail));
  });

/** The paper's wrong `take'`: matches on the list before the count. */
const takePrime = <T>(n: Lazy<number>, xs: List<T>): List<T> =>
  lazy((): Cell<T> => {
    const c = xs.force();
    if (c.tag === 'Nil') return NIL;
    return n.force() <= 0 ? NIL : new Cons(c.head, takePrime(n.map((k) => k - 1), c.tail));
  });

const product = (a: number, b: number) => a * b;

/** The paper's zipWith (*) [10, 20] [30, 40], observed under normalize. */
const observeZipWith = () =>
  observe(normalize, (xs: List<number>, ys: List<number>) => L.zipWith(product, xs, ys), fromArray([10, 20]), fromArray([30, 40]));

// ---------------------------------------------------------------------------------------------
// The paper's examples

test("paper: observe1 whnf reverse \"abc\" gives input _ : _ : _ : [] and result _ : _", () => {
  const [result, input] = observe1(whnf, L.reverse, fromString('abc'));
  assert.equal(pd(input), '_ : _ : _ : []');
  assert.equal(pd(result), '_ : _');
});

test('paper: observe normalize (zipWith (*)) [10, 20] [30, 40]', () => {
  const { result, inputs } = observeZipWith();
  assert.equal(pd(result), '300 : 800 : []');
  assert.equal(inputs.length, 2);
  assert.equal(pd(inputs[0]!), '10 : 20 : []');
  assert.equal(pd(inputs[1]!), '30 : 40 : _');
});

test("paper: take with a lazy count, and take' that looks at the list first", () => {
  let o = observe(normalize, take, now(2), fromArray([1, 2, 3]));
  assert.deepEqual([pd(o.result), ...o.inputs.map(pd)], ['1 : 2 : []', '2', '1 : 2 : _']);
  o = observe(normalize, take, now(0), nil);
  assert.deepEqual([pd(o.result), ...o.inputs.map(pd)], ['[]', '0', '_']);
  o = observe(normalize, take, now(5), fromArray([7]));
  assert.deepEqual([pd(o.result), ...o.inputs.map(pd)], ['7 : []', '5', '7 : []']);
  // whnf: only the first cell of the result
  o = observe(whnf, take, now(3), fromArray([1, 2, 3]));
  assert.deepEqual([pd(o.result), ...o.inputs.map(pd)], ['_ : _', '3', '_ : _']);
  // take' 0 [] forces the list, not the count: the paper's counterexample
  o = observe(normalize, takePrime, now(0), nil);
  assert.deepEqual([pd(o.result), ...o.inputs.map(pd)], ['[]', '_', '[]']);
});

// ---------------------------------------------------------------------------------------------
// Random demands in value form

/** A list demand described as data: elements (null = unevaluated) and whether the spine ends in [] (else in _). */
type ListSpec = { items: (number | null)[]; capped: boolean };
const listSpec = (elem = fc.integer({ min: -50, max: 50 }), maxLength = 10): fc.Arbitrary<ListSpec> =>
  fc.record({ items: fc.array(fc.option(elem, { nil: null }), { maxLength }), capped: fc.boolean() });

/** The list demand in value form: `thunk` for unevaluated elements and tail (built with cons/nil). */
function listValue({ items, capped }: ListSpec): List<number> {
  let l: List<number> = capped ? nil : thunk;
  for (let i = items.length - 1; i >= 0; i--) l = cons(items[i] === null ? thunk : items[i]!, l);
  return l;
}
/** Its expected printing (oracle). Elements of a list are never parenthesised unless lists. */
const listText = ({ items, capped }: ListSpec) => [...items.map((x) => (x === null ? '_' : String(x))), capped ? '[]' : '_'].join(' : ');
/** Expected lessDefined on list demands (oracle): a's spine is a prefix of b's, elements agree where a has them. */
function listLessDefined(a: ListSpec, b: ListSpec): boolean {
  if (a.items.length > b.items.length) return false;
  if (a.capped && !(b.capped && b.items.length === a.items.length)) return false;
  return a.items.every((x, i) => x === null || x === b.items[i]);
}
const listEq = (a: ListSpec, b: ListSpec) =>
  a.capped === b.capped && a.items.length === b.items.length && a.items.every((x, i) => x === b.items[i]);

const leaf = (): Tree => Tree.make.Leaf();
const node = (left: Lazy<Tree>, value: number, right: Lazy<Tree>): Tree => Tree.make.Node({ left, value, right });

/** Tree demands in value form: a lazy subtree is `thunk` or evaluated. */
const { lazyTree } = fc.letrec<{ tree: Tree; lazyTree: Lazy<Tree> }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null).map(leaf),
    fc.tuple(tie('lazyTree'), fc.integer({ min: -9, max: 9 }), tie('lazyTree')).map(([l, v, r]) => node(l, v, r)),
  ),
  lazyTree: fc.oneof({ depthSize: 'small' }, fc.constant(thunk as Lazy<Tree>), tie('tree').map((t) => now(t))),
}));

/** Oracle printer for tree demands in value form. */
function treeText(t: Lazy<Tree>, arg: boolean): string {
  if (t === thunk) return '_';
  const v = t.force();
  if (v.tag === 'Leaf') return 'Leaf';
  const s = `Node ${treeText(v.left, true)} ${v.value < 0 ? `(${v.value})` : v.value} ${treeText(v.right, true)}`;
  return arg ? `(${s})` : s;
}

const lazyNum = fc.option(fc.integer({ min: -9, max: 9 }), { nil: null }).map((x) => (x === null ? (thunk as Lazy<number>) : now(x)));
const numText = (l: Lazy<number>, arg = false) => (l === thunk ? '_' : arg && l.force() < 0 ? `(${l.force()})` : String(l.force()));

/** A case: a shape, a random demand in value form, and its expected printing. */
interface Case<T> {
  name: string;
  shape: Shape<T>;
  arb: fc.Arbitrary<{ value: T; text: string }>;
}
const cases: Case<any>[] = [
  { name: 'list', shape: list(number), arb: listSpec().map((s) => ({ value: listValue(s), text: listText(s) })) },
  { name: 'tree', shape: lazyOf(Tree), arb: lazyTree.map((t) => ({ value: t, text: treeText(t, false) })) },
  {
    name: 'tuple',
    shape: tuple(lazyOf(number), number, list(number)),
    arb: fc
      .tuple(lazyNum, fc.integer({ min: -9, max: 9 }), listSpec())
      .map(([a, b, l]) => ({ value: [a, b, listValue(l)], text: `(${numText(a)}, ${b}, ${listText(l)})` })),
  },
  {
    name: 'record',
    shape: record({ a: lazyOf(number), b: list(number) }),
    arb: fc.tuple(lazyNum, listSpec()).map(([a, l]) => ({ value: { a, b: listValue(l) }, text: `{ a: ${numText(a)}, b: ${listText(l)} }` })),
  },
  {
    name: 'option',
    shape: option(lazyOf(number)),
    arb: fc.option(lazyNum, { nil: null }).map((o) => ({
      value: (o === null ? { tag: 'None' } : { tag: 'Some', value: o }) as Option<Lazy<number>>,
      text: o === null ? 'None' : `Some ${numText(o, true)}`,
    })),
  },
  {
    name: 'lazy option of tree',
    shape: lazyOf(option(lazyOf(Tree))),
    arb: fc.option(lazyTree, { nil: null }).map((t) => ({
      value: now((t === null ? { tag: 'None' } : { tag: 'Some', value: t }) as Option<Lazy<Tree>>),
      text: t === null ? 'None' : `Some ${treeText(t, true)}`,
    })),
  },
];

for (const c of cases) {
  test(`toDemand/fromDemand round-trip and print random ${c.name} demands`, () => {
    fc.assert(
      fc.property(c.arb, ({ value, text }) => {
        const d = toDemand(value, c.shape);
        assert.equal(pd(d), text, 'printed in demand notation');
        // the dynamic shape reads the same demand off the value
        assert.ok(demandEquals(toDemand(value), d), 'dynamic shape agrees with the declared one');
        // toDemand . fromDemand = id
        const v2 = fromDemand(d);
        const d2 = toDemand(v2, c.shape);
        assert.ok(demandEquals(d2, d), `toDemand(fromDemand(d)) = d: ${pd(d2)} vs ${pd(d)}`);
        // fromDemand . toDemand = id (up to re-conversion)
        assert.ok(demandEquals(toDemand(fromDemand(toDemand(v2, c.shape)), c.shape), d));
        assert.equal(pd(d2), text);
        // equality and order are reflexive
        assert.ok(demandEquals(d, d) && lessDefined(d, d));
      }),
    );
  });
}

test('demandEquals and lessDefined on random list demands agree with the list oracle; lessDefined is antisymmetric', () => {
  // a small domain so that related pairs are common
  const small = listSpec(fc.integer({ min: 0, max: 1 }), 3);
  fc.assert(
    fc.property(small, small, (a, b) => {
      const da = toDemand(listValue(a), list(number));
      const db = toDemand(listValue(b), list(number));
      assert.equal(demandEquals(da, db), listEq(a, b), `${pd(da)} == ${pd(db)}`);
      assert.equal(lessDefined(da, db), listLessDefined(a, b), `${pd(da)} <= ${pd(db)}`);
      assert.equal(lessDefined(db, da), listLessDefined(b, a), `${pd(db)} <= ${pd(da)}`);
      if (lessDefined(da, db) && lessDefined(db, da)) assert.ok(demandEquals(da, db), 'antisymmetry');
      if (demandEquals(da, db)) assert.ok(lessDefined(da, db) && lessDefined(db, da));
    }),
    { numRuns: 300 },
  );
  // antisymmetry on trees
  fc.assert(
    fc.property(lazyTree, lazyTree, (a, b) => {
      const [da, db] = [toDemand(a, lazyOf(Tree)), toDemand(b, lazyOf(Tree))];
      assert.equal(lessDefined(da, db) && lessDefined(db, da), demandEquals(da, db));
      assert.equal(demandEquals(da, db), treeText(a, false) === treeText(b, false));
    }),
  );
});

test('lessDefined: a weakened demand is less defined, and strictly so unless equal', () => {
  fc.assert(
    fc.property(listSpec(), fc.nat(), fc.array(fc.boolean(), { maxLength: 10 }), (s, cut, mask) => {
      // cut the spine (to an unevaluated tail) and forget some elements
      const k = cut % (s.items.length + 1);
      const weak: ListSpec =
        k < s.items.length || !s.capped
          ? { items: s.items.slice(0, k).map((x, i) => (mask[i] ? null : x)), capped: false }
          : { items: s.items.map((x, i) => (mask[i] ? null : x)), capped: true };
      const [d, w] = [toDemand(listValue(s), list(number)), toDemand(listValue(weak), list(number))];
      assert.ok(lessDefined(w, d), `${pd(w)} <= ${pd(d)}`);
      assert.equal(lessDefined(d, w), demandEquals(d, w));
    }),
  );
});

// ---------------------------------------------------------------------------------------------
// Observation

/** A list built lazily: nothing of it is evaluated until forced. */
function lazyList(xs: readonly number[], i = 0): List<number> {
  return lazy((): Cell<number> => (i === xs.length ? NIL : new Cons(lazy(() => xs[i]!), lazyList(xs, i + 1))));
}

type Fn = { name: string; arity: 1 | 2 | 3; f: (...args: any[]) => List<number>; expect: (a: number[], b: number[], n: number) => number[] };
const listFns: Fn[] = [
  { name: 'reverse', arity: 1, f: (xs: List<number>) => L.reverse(xs), expect: (a) => [...a].reverse() },
  { name: 'map', arity: 1, f: (xs: List<number>) => L.map((x: number) => 2 * x + 1, xs), expect: (a) => a.map((x) => 2 * x + 1) },
  { name: 'take', arity: 3, f: (n: Lazy<number>, xs: List<number>) => take(n, xs), expect: (a, _b, n) => a.slice(0, Math.max(0, n)) },
  { name: 'append', arity: 2, f: (xs: List<number>, ys: List<number>) => L.append(xs, ys), expect: (a, b) => [...a, ...b] },
  {
    name: 'zipWith',
    arity: 2,
    f: (xs: List<number>, ys: List<number>) => L.zipWith(product, xs, ys),
    expect: (a, b) => a.slice(0, Math.min(a.length, b.length)).map((x, i) => x * b[i]!),
  },
];
const argsOf = (f: Fn, a: number[], b: number[], n: number, mk: (xs: number[]) => List<number>): unknown[] =>
  f.arity === 1 ? [mk(a)] : f.arity === 2 ? [mk(a), mk(b)] : [now(n), mk(a)];

const nums = fc.array(fc.integer({ min: -100, max: 100 }), { maxLength: 15 });

test('observing a function does not change its result (normalize context)', () => {
  fc.assert(
    fc.property(fc.constantFrom(...listFns), nums, nums, fc.integer({ min: -2, max: 20 }), (f, a, b, n) => {
      const plain = f.f(...argsOf(f, a, b, n, fromArray));
      const plainArray = L.toArray(plain);
      assert.deepEqual(plainArray, f.expect(a, b, n));
      let seen: List<number> | undefined;
      const obs = observe(
        normalize,
        (...args: unknown[]) => (seen = f.f(...args)),
        ...argsOf(f, a, b, n, lazyList),
      );
      assert.deepEqual(L.toArray(seen!), plainArray, 'the result computed under observation');
      assert.ok(demandEquals(obs.result, toDemand(fromArray(plainArray))), `result demand ${pd(obs.result)}`);
      if (f.name !== 'take' && f.name !== 'zipWith') {
        // these need every cell and element of their inputs
        const inputs = argsOf(f, a, b, n, fromArray);
        obs.inputs.forEach((d, i) => assert.ok(demandEquals(d, toDemand(inputs[i])), `${f.name}: input ${i + 1} fully forced`));
      }
    }),
  );
});

test('a function that forces nothing observes _ on its inputs, and leaves them unevaluated', () => {
  const lazyFns: { f: (xs: List<number>, ys: List<number>) => unknown; result: string }[] = [
    { f: () => lazy(() => 42), result: '42' },
    { f: (xs) => L.lazyCons(lazy(() => L.head(xs)), L.tail(xs)), result: '_ : _' },
    { f: (xs, ys) => cons(0, L.append(xs, ys)), result: '_ : _' },
    { f: (xs, ys) => lazy(() => [L.reverse(xs), ys] as const), result: '(_, _)' },
    { f: (xs, ys) => now({ tag: 'Pair', fst: L.map((x: number) => x + 1, xs), snd: ys }), result: 'Pair _ _' },
  ];
  fc.assert(
    fc.property(fc.constantFrom(...lazyFns), nums, nums, ({ f, result }, a, b) => {
      const [xs, ys] = [lazyList(a), lazyList(b)];
      const obs = observe(whnf, f, xs, ys);
      assert.deepEqual(obs.inputs.map(pd), ['_', '_']);
      assert.equal(pd(obs.result), result);
      assert.ok(!xs.isEvaluated && !ys.isEvaluated, 'the original inputs were not forced');
    }),
  );
});

/** A context forcing the first `k` cells of a list result (and nothing else). */
const spine =
  (k: number): Context =>
  (v) => {
    let l = v as List<unknown>;
    for (let i = 0; i < k; i++) {
      const c = l.force();
      if (c.tag === 'Nil') return;
      l = c.tail;
    }
  };

test('lessDefined: demands under whnf are less defined than under normalize, and grow with the context', () => {
  fc.assert(
    fc.property(fc.constantFrom(...listFns), nums, nums, fc.integer({ min: -2, max: 20 }), fc.nat(20), fc.nat(20), (f, a, b, n, k1, k2) => {
      const args = () => argsOf(f, a, b, n, fromArray);
      const weak = observe(whnf, f.f, ...args());
      const strong = observe(normalize, f.f, ...args());
      assert.ok(lessDefined(weak.result, strong.result));
      weak.inputs.forEach((d, i) => assert.ok(lessDefined(d, strong.inputs[i]!), `${f.name}: ${pd(d)} <= ${pd(strong.inputs[i]!)}`));
      const [lo, hi] = k1 <= k2 ? [k1, k2] : [k2, k1];
      const small = observe(spine(lo), f.f, ...args());
      const big = observe(spine(hi), f.f, ...args());
      assert.ok(lessDefined(small.result, big.result), `${pd(small.result)} <= ${pd(big.result)}`);
      small.inputs.forEach((d, i) => {
        assert.ok(lessDefined(d, big.inputs[i]!), `${f.name}: ${pd(d)} <= ${pd(big.inputs[i]!)}`);
        assert.ok(lessDefined(big.inputs[i]!, strong.inputs[i]!));
        assert.ok(demandEquals(d, d));
      });
    }),
  );
});

test('observation is referentially transparent: two observations agree and share nothing', () => {
  const xs = fromArray([1, 2, 3]);
  const first = observe(whnf, L.reverse, xs);
  const second = observe(normalize, L.reverse, xs);
  const third = observe(whnf, L.reverse, xs);
  assert.equal(pd(first.inputs[0]!), '_ : _ : _ : []');
  assert.equal(pd(second.inputs[0]!), '1 : 2 : 3 : []');
  assert.ok(demandEquals(first.inputs[0]!, third.inputs[0]!));
  assert.ok(demandEquals(first.result, third.result));
});

test('an argument forced twice is recorded once, and what each walk forces of it adds up', () => {
  // two walks over the same argument: the spine and the elements both count, once
  const sumAndLength = (xs: List<number>) => lazy(() => L.toArray(xs).reduce((a, b) => a + b, 0) + L.length(xs));
  const o = observe(normalize, sumAndLength, fromArray([1, 2, 3]));
  assert.equal(pd(o.inputs[0]!), '1 : 2 : 3 : []');
  assert.equal(pd(o.result), '9');
  // the same pair reached through the argument twice: the first force of it sees its first
  // component forced, the second its second; the demand on the pair has both
  const pairs = fromArray<[Lazy<number>, Lazy<number>]>([[now(1), now(2)], [now(3), now(4)]]);
  const both = (xs: List<[Lazy<number>, Lazy<number>]>) => lazy(() => L.head(xs)[0].force() + L.head(xs)[1].force());
  const p = observe(normalize, both, pairs);
  assert.equal(pd(p.inputs[0]!), '(1, 2) : _');
  assert.equal(pd(p.result), '3');
  // a longer walk after a shorter one extends the spine recorded by the first
  const takeThenLength = (xs: List<number>) => lazy(() => L.toArray(L.take(1, xs))[0]! + L.length(xs));
  assert.equal(pd(observe(normalize, takeThenLength, fromArray([5, 6, 7])).inputs[0]!), '5 : _ : _ : []');
});

test('what a function forces of its arguments after the observation has ended is not recorded', () => {
  let kept: List<number> = nil;
  const keep = (xs: List<number>) => ((kept = xs), L.take(1, xs));
  const o = observe(normalize, keep, fromArray([1, 2, 3]));
  assert.equal(pd(o.inputs[0]!), '1 : _');
  assert.deepEqual(L.toArray(kept), [1, 2, 3]);
  assert.equal(pd(o.inputs[0]!), '1 : _');
});

test('entangle: each reading of the demand is what has been forced so far, and later forcing does not change it', () => {
  const [copy, demand] = entangle(fromArray([1, 2, 3]));
  assert.equal(pd(demand()), '_');
  const first = copy.force() as Cons<number>;
  const d1 = demand();
  assert.equal(pd(d1), '_ : _');
  first.head.force();
  L.length(first.tail);
  assert.equal(pd(demand()), '1 : _ : _ : []');
  assert.equal(pd(d1), '_ : _');
});

test('observed functions get copies, equal but not identical: a cycle check by identity does not end, and a force budget stops it', () => {
  const cyclic: List<number> = lazy(() => new Cons(now(1), lazy(() => new Cons(now(2), cyclic))));
  const isCyclic = (xs: List<number>): Lazy<boolean> =>
    lazy(() => {
      let [slow, fast] = [xs.force(), xs.force()];
      for (;;) {
        for (let i = 0; i < 2; i++) if (fast.tag === 'Cons') fast = fast.tail.force(); else return false;
        slow = (slow as Cons<number>).tail.force();
        if (slow === fast) return true;
      }
    });
  assert.equal(isCyclic(cyclic).force(), true);
  assert.throws(() => withForceBudget(10_000, () => observe(whnf, isCyclic, cyclic)), ForceBudgetExceeded);
});

/** A demand on a list, cell by cell: each head printed, then how it ends (`_` or `[]`). */
const cellsOf = (d: Demand): string[] => {
  const out: string[] = [];
  for (; d.forced && d.ctor.name === ':'; d = d.field(1)) out.push(pd(d.field(0)));
  out.push(pd(d));
  return out;
};

/** Walks the spine of `copy` (an `entangle` copy of a list) to its end, forcing the heads at the cells `forced` picks and calling `visit` at each cell after its head. */
const walkForcing = <A,>(copy: List<A>, forced: (i: number) => boolean, visit?: (i: number) => void): void => {
  let c = copy.force() as Cons<A>;
  for (let i = 0; ; i++) {
    if (forced(i)) c.head.force();
    visit?.(i);
    const next = c.tail.force();
    if (next === NIL) break;
    c = next as Cons<A>;
  }
};

test('long demands: heads recorded past thousands of cells sit at their cells (copies, walks and readings)', () => {
  const n = 9000; // past two chunks of a spine's heads
  const picked = new Set([0, 4095, 4096, 4097, 8191, 8192, n - 1]);
  const [copy, demand] = entangle(fromArray(Array.from({ length: n }, (_, i) => i)));
  let early: Demand | undefined;
  walkForcing(copy, (i) => picked.has(i), (i) => {
    if (i === 5000) early = demand();
  });
  const expected = (cells: number, end: string) => [...Array.from({ length: cells }, (_, i) => (picked.has(i) ? String(i) : '_')), end];
  assert.deepEqual(cellsOf(demand()), expected(n, '[]'));
  // the reading at cell 5000, its tail not forced yet
  assert.deepEqual(cellsOf(early!), expected(5001, '_'));

  // the walk of a built-in context, on the result, and on the input through the same copies
  const every = Array.from({ length: n }, (_, i) => String(i));
  const o = observe(normalize, (xs: List<number>) => L.map((x: number) => x + 1, xs), fromArray(Array.from({ length: n }, (_, i) => i)));
  assert.deepEqual(cellsOf(o.inputs[0]!), [...every, '[]']);
  assert.deepEqual(cellsOf(o.result), [...every.map((x) => String(Number(x) + 1)), '[]']);
});

test('long demands: heads of every kind past the first chunk of a spine keep what they are (numbers, -0, NaN, strings, tuples)', () => {
  const n = 9000;
  const head = (i: number): unknown => [i, String(i), -0, NaN, [i, 'x'], true][i % 6];
  const printed = (i: number) => [String(i), `"${i}"`, '-0', 'NaN', `(${i}, "x")`, 'true'][i % 6]!;
  const o = observe(normalize, (xs: List<unknown>) => L.map((x: unknown) => x, xs), fromArray(Array.from({ length: n }, (_, i) => head(i))));
  const every = [...Array.from({ length: n }, (_, i) => printed(i)), '[]'];
  // read twice: a primitive head's node, made at the first reading, is kept and read back
  for (let round = 0; round < 2; round++) {
    assert.deepEqual(cellsOf(o.inputs[0]!), every);
    assert.deepEqual(cellsOf(o.result), every);
  }
  // and only the heads forced are recorded, of every kind
  const [copy, demand] = entangle(fromArray(Array.from({ length: n }, (_, i) => head(i))));
  walkForcing(copy, (i) => i % 7 === 0);
  assert.deepEqual(cellsOf(demand()), [...Array.from({ length: n }, (_, i) => (i % 7 === 0 ? printed(i) : '_')), '[]']);
});

/** The same context without the built-in mark: observed through an instrumented copy of the result. */
const viaCopy = (c: Context): Context => (v) => c(v);

/** What an observation of `f` on `a` in `c` shows: its demands and error (a copy is forced by the context called on its own, so its messages name `value`, not `result`). */
const outcome = <A,>(c: Context, f: (a: A) => unknown, a: A) => {
  const o = observeDetailed(c, f, [a]);
  return { result: pd(o.result), input: pd(o.inputs[0]!), error: o.error ? String(o.error.thrown).replace(/ at (value|result)/, ' at ') : undefined };
};

test('the built-in contexts (random ones too) record the demand they exert: the same as an instrumented copy of the result', () => {
  const fill = (t: Lazy<Tree>): Lazy<Tree> => {
    if (t === thunk) return now(leaf());
    const v = t.force();
    return now(v.tag === 'Leaf' ? v : node(fill(v.left), v.value, fill(v.right)));
  };
  // mirror builds its own thunks; identity returns the input's.
  const mirror = (t: Lazy<Tree>): Lazy<Tree> => t.map((v) => (v.tag === 'Leaf' ? v : node(mirror(v.right), v.value, mirror(v.left))));
  const fns = [mirror, (t: Lazy<Tree>) => t];
  fc.assert(
    fc.property(lazyTree, lazyTree, fc.constantFrom(...fns), fc.nat(), fc.nat(8), (value, d, f, seed, size) => {
      const t = fill(value);
      const demand = toDemand(d);
      const random = randomContext(Seed.of(seed), size);
      for (const [name, c] of Object.entries({ normalize, whnf, toContext: toContext(demand), fitContext: fitContext(demand), random })) {
        assert.deepEqual(outcome(c, f, t), outcome(viaCopy(c), f, t), `${name} ${pd(demand)} on ${pd(toDemand(t))}`);
      }
    }),
    { numRuns: 500 },
  );
  // Lists, recorded as spines: identity, a map of its own, and a list of lists.
  const listFns = [(xs: List<number>) => xs, (xs: List<number>) => L.map((x: number) => x + 1, xs), (xs: List<number>) => fromArray([xs, L.drop(1, xs)])];
  fc.assert(
    fc.property(fc.array(fc.integer({ min: -3, max: 3 }), { maxLength: 6 }), listSpec(fc.integer({ min: -3, max: 3 })), fc.constantFrom(...listFns), fc.nat(), fc.nat(8), (items, ls, f, seed, size) => {
      const demand = toDemand(listValue(ls));
      const random = randomContext(Seed.of(seed), size);
      for (const [name, c] of Object.entries({ normalize, whnf, toContext: toContext(demand), fitContext: fitContext(demand), random })) {
        assert.deepEqual(outcome(c, f, fromArray(items)), outcome(viaCopy(c), f, fromArray(items)), `${name} ${pd(demand)} on ${items}`);
      }
    }),
    { numRuns: 500 },
  );
});

test('random contexts record what they force of infinite and ill-shaped results as a copy shows it', () => {
  const show = (c: Context, f: () => unknown) => {
    const o = observeDetailed(c, f, [], { result: list(number) });
    return { result: pd(o.result), error: o.error ? String(o.error.thrown) : undefined };
  };
  const naturals = () => L.iterate((x: number) => x + 1, 0); // infinite: one context in four forces 1,000 + 100·size cells of it
  const illShaped = () => fromArray<unknown>([1, 2, 'three', 4]);
  let cut = 0;
  for (let seed = 0; seed < 40; seed++) {
    const random = randomContext(Seed.of(seed), 4);
    const a = show(random, naturals);
    assert.deepEqual(a, show(viaCopy(random), naturals));
    if (a.result.includes('more) …')) cut++; // printed elided: hundreds of cells
    assert.deepEqual(show(random, illShaped), show(viaCopy(random), illShaped));
  }
  assert.ok(cut > 0, 'some context forced the infinite result up to its bound');
});

test('recorded demands on lists (a spine per run of cells) behave as nodes: fields, equality, printing, conversion', () => {
  const full = (n: number) => fromArray(Array.from({ length: n }, (_, i) => i - 3));
  fc.assert(
    fc.property(listSpec(fc.integer({ min: -3, max: 20 })), (ls) => {
      const built = toDemand(listValue(ls));
      // a list as long as the demand, with the same elements where the demand has them
      const xs = fromArray(ls.items.map((x, i) => x ?? i - 3));
      const recorded = observe(toContext(built), (l: List<number>) => l, ls.capped ? xs : L.append(xs, full(1))).result;
      assert.ok(demandEquals(recorded, built) && demandEquals(built, recorded));
      assert.equal(pd(recorded), listText(ls));
      assert.ok(demandEquals(toDemand(fromDemand(recorded)), built));
      for (let d: Demand = recorded; d.forced && d.arity === 2; d = d.field(1)) {
        assert.deepEqual(d.fields.map(pd), [pd(d.field(0)), pd(d.field(1))]);
      }
    }),
  );
  // nested lists: the heads of a spine are spines
  const nested = observe(normalize, (l: List<List<number>>) => l, fromArray([fromArray([1, 2]), nil, fromArray([3])])).result;
  assert.equal(pd(nested), '(1 : 2 : []) : [] : (3 : []) : []');
  assert.ok(demandEquals(nested, toDemand(fromArray([fromArray([1, 2]), nil, fromArray([3])]))));
});

// ---------------------------------------------------------------------------------------------
// User data types and printing

test('a user-declared tree type observes and prints correctly', () => {
  // Node (Node Leaf (-1) Leaf) 1 (Node Leaf 2 Leaf)
  const t = now(node(now(node(now(leaf()), -1, now(leaf()))), 1, now(node(now(leaf()), 2, now(leaf())))));
  /** The value of the leftmost node. */
  const leftmost = (t: Lazy<Tree>): Lazy<number> =>
    lazy(() => {
      let cur = t.force();
      let v = NaN;
      while (cur.tag === 'Node') {
        v = cur.value;
        cur = cur.left.force();
      }
      return v;
    });
  const { result, inputs } = observe(normalize, leftmost, t);
  assert.equal(pd(inputs[0]!), 'Node (Node Leaf (-1) _) 1 _');
  assert.equal(pd(result), '-1');
  // with declared shapes, the same
  const detailed = observeDetailed(normalize, leftmost, [t], { inputs: [lazyOf(Tree)], result: lazyOf(number) });
  assert.equal(detailed.error, undefined);
  assert.equal(pd(detailed.inputs[0]!), 'Node (Node Leaf (-1) _) 1 _');

  // a function producing a tree lazily: mirror, observed under whnf and normalize
  const mirror = (t: Lazy<Tree>): Lazy<Tree> =>
    t.map((v) => (v.tag === 'Leaf' ? v : node(mirror(v.right), v.value, mirror(v.left))));
  let o = observe(whnf, mirror, t);
  assert.deepEqual([pd(o.result), pd(o.inputs[0]!)], ['Node _ 1 _', 'Node _ 1 _']);
  o = observe(normalize, mirror, t);
  assert.equal(pd(o.result), 'Node (Node Leaf 2 Leaf) 1 (Node Leaf (-1) Leaf)');
  assert.equal(pd(o.inputs[0]!), 'Node (Node Leaf (-1) Leaf) 1 (Node Leaf 2 Leaf)');
  // declared data values print as far as they are evaluated in the REPL
  assert.equal(util.inspect(node(thunk, 3, now(leaf()))), 'Node _ 3 Leaf');
});

test('printing: records, tuples, options, functions, negative numbers, nested lists', () => {
  assert.equal(pd(toDemand({ a: 1, b: thunk })), '{ a: 1, b: _ }');
  assert.equal(pd(toDemand({ a: now(1), b: thunk }, record({ a: lazyOf(number), b: lazyOf(number) }))), '{ a: 1, b: _ }');
  assert.equal(pd(toDemand([1, thunk])), '(1, _)');
  assert.equal(pd(toDemand([now(1), thunk], tuple(lazyOf(number), lazyOf(number)))), '(1, _)');
  assert.equal(pd(toDemand({ tag: 'Some', value: 3 }, option(number))), 'Some 3');
  assert.equal(pd(toDemand({ tag: 'Some', value: -3 }, option(number))), 'Some (-3)');
  assert.equal(pd(toDemand({ tag: 'Some', value: thunk }, option(lazyOf(number)))), 'Some _');
  assert.equal(pd(toDemand({ tag: 'None' }, option(number))), 'None');
  assert.equal(pd(toDemand((x: number) => x)), '<function>');
  assert.equal(pd(toDemand((x: number) => x, fn([number], number))), '<function>');
  assert.equal(pd(toDemand(node(now(leaf()), -1, thunk))), 'Node Leaf (-1) _');
  assert.equal(pd(toDemand(cons(-1, cons(thunk, nil)))), '-1 : _ : []');
  assert.equal(pd(toDemand(cons(fromArray([1]), nil))), '(1 : []) : []');
  assert.equal(pd(toDemand(cons(fromArray([1, 2]), cons(thunk, cons(nil, thunk))))), '(1 : 2 : []) : _ : [] : _');
  assert.equal(pd(toDemand({ tag: 'Some', value: fromArray([1]) }, option(list(number)))), 'Some (1 : [])');
  assert.equal(pd(toDemand(thunk)), '_');
  // function demands: called or not
  const called = observe(normalize, (f: (x: number) => number) => lazy(() => f(1)), (x: number) => x + 1);
  assert.deepEqual([pd(called.result), pd(called.inputs[0]!)], ['2', '<function>']);
  const ignored = observe(normalize, (_f: (x: number) => number) => now(0), (x: number) => x + 1);
  assert.deepEqual([pd(ignored.result), pd(ignored.inputs[0]!)], ['0', '_']);
});

test('demand nodes: arity and field(i) agree with fields, for a list (a spine, its cells made when read) and a triple', () => {
  for (const [d, shown, fieldsShown] of [
    [toDemand(cons(1, cons(thunk, nil))), '1 : _ : []', ['1', '_ : []']],
    [toDemand([1, thunk, 3]), '(1, _, 3)', ['1', '_', '3']],
  ] as const) {
    assert.ok(d.forced);
    assert.equal(d.arity, fieldsShown.length);
    assert.deepEqual(d.fields.map(pd), fieldsShown);
    // the nodes a spine makes when read are made once: reading again gives the same nodes
    assert.deepEqual(Array.from({ length: d.arity }, (_, i) => d.field(i)), d.fields);
    assert.ok(d.fields.every((f, i) => f === d.field(i)));
    assert.ok(demandEquals(d, toDemand(fromDemand(d))));
    assert.equal(pd(d), shown);
  }
});

test('console.log / util.inspect of a demand prints demand notation', () => {
  const { result, inputs } = observeZipWith();
  for (const d of [result, ...inputs, toDemand(thunk), toDemand(node(now(leaf()), -1, thunk)), toDemand({ a: 1, b: thunk })]) {
    assert.equal(util.inspect(d), pd(d));
    assert.equal(util.format('%o', d), pd(d));
    assert.equal(String(d), pd(d));
  }
  assert.equal(util.inspect(inputs[1]), '30 : 40 : _');
  assert.equal(util.inspect({ demand: result }), '{ demand: 300 : 800 : [] }');
});

// ---------------------------------------------------------------------------------------------
// Stack safety on 30,000 cells, twice the deepest a recursion of one frame a cell goes on the default stack (15,400 frames): a recursive walk overflows

test('stack safety: observing, comparing, printing and converting demands on 30,000 cells', () => {
  const n = 30_000;
  const full = observe(normalize, L.reverse, fromArray(Array.from({ length: n }, (_, i) => i)));
  const input = full.inputs[0]!;

  // converting: fromDemand then toDemand gives the same demand
  const back = toDemand(fromDemand<List<number>>(input), list(number));
  assert.ok(demandEquals(back, input));
  assert.ok(lessDefined(back, input) && lessDefined(input, back));
  // the spine without elements, _ : _ : … : [], is strictly less defined
  const spineOnly = toDemand(L.fromLazyArray(new Array<Lazy<number>>(n).fill(thunk)), list(number));
  assert.ok(lessDefined(spineOnly, input));
  assert.ok(!lessDefined(input, spineOnly));
  assert.ok(!demandEquals(spineOnly, input));
  // the reversed result differs from the input
  assert.ok(!demandEquals(full.result, input));
  assert.ok(demandEquals(full.result, full.result));

  // printing in bounded width
  for (const d of [input, full.result, spineOnly]) {
    const s = pd(d);
    assert.ok(s.length < 1000, `printed ${s.length} characters`);
    assert.ok(s.includes('…') && s.includes('more'), s);
  }
  assert.ok(pd(input).startsWith('0 : 1 : 2 : '));
  assert.ok(pd(input).endsWith(`: ${n - 2} : ${n - 1} : []`));
  assert.ok(pd(full.result).startsWith(`${n - 1} : ${n - 2} : `));
  assert.ok(pd(spineOnly).startsWith('_ : _ : ') && pd(spineOnly).endsWith('_ : []'));
});

// ---------------------------------------------------------------------------------------------
// Bad input

test('declared lists read past their first cells: each misfit is named by its path (strict tail, strict head, a tail that is no cell, a result element)', () => {
  const ln = list(number);
  const misfit = (value: unknown, path: string, what: RegExp) =>
    assert.throws(
      () => toDemand(value as List<number>, ln),
      (err: unknown) => err instanceof ShapeMismatchError && err.path === path && what.test(err.message),
    );
  misfit(now(new Cons(now(1), now(new Cons(now(2), NIL as never)))), 'demand.tail.tail', /expected a Lazy/);
  misfit(now(new Cons(now(1), now(new Cons(2 as never, nil)))), 'demand.tail.head', /expected a Lazy, got number 2/);
  misfit(now(new Cons(now(1), now(5 as never))), 'demand.tail', /expected a list cell/);
  misfit(fromArray([1, 2, 3, 'x' as never]), 'demand.tail.tail.tail.head', /expected number/);
  const o = observeDetailed(normalize, (xs: List<number>) => L.map((x: number) => x, xs), [fromArray([1, 2, 'z' as never])], { result: ln });
  assert.ok(o.error?.thrown instanceof ShapeMismatchError && o.error.thrown.path === 'result.tail.tail.head', String(o.error?.thrown));
  // and what fits is recorded as with dynamic shapes
  assert.equal(pd(toDemand(L.fromLazyArray([now(1), thunk, now(3)]), ln)), '1 : _ : 3 : []');
  assert.equal(pd(toDemand(L.append(fromArray([1, 2]), thunk), ln)), '1 : 2 : _');
});

test('a value not matching its declared shape throws ShapeMismatchError naming the path', () => {
  assert.throws(
    () => toDemand(fromArray(['a']) as unknown as List<number>, list(number)),
    (err: unknown) => err instanceof ShapeMismatchError && /head/.test(err.message) && /head/.test(err.path) && /number/.test(err.message),
  );
  // deeper in the list: the path names the position
  assert.throws(
    () => toDemand(fromArray([1, 2, 'x' as unknown as number]), list(number)),
    (err: unknown) => err instanceof ShapeMismatchError && err.path.includes('tail.tail.head'),
  );
  // observed with declared shapes: the mismatch is found when the bad part is forced
  const bad = fromArray([1, 'two' as unknown as number]);
  const obs = observeDetailed(normalize, (xs: List<number>) => L.map((x: number) => x, xs), [bad], { inputs: [list(number)] });
  const thrown = obs.error?.thrown;
  assert.ok(thrown instanceof ShapeMismatchError, `expected ShapeMismatchError, got ${String(thrown)}`);
  assert.match(thrown.message, /head/);
  assert.match(thrown.path, /^args\[0\]\.tail\.head$/);
  // further down, the path counts the cells
  const late = observeDetailed(normalize, L.reverse, [fromArray([1, 2, 3, 4, 'five' as unknown as number])], { inputs: [list(number)] });
  assert.ok(late.error?.thrown instanceof ShapeMismatchError);
  assert.equal(late.error.thrown.path, 'args[0].tail.tail.tail.tail.head');
  // observe rethrows what cannot be observed (here null, found when the context forces it)
  assert.throws(() => observe(normalize, (x: Lazy<unknown>) => x, now(null)), ShapeMismatchError);
  // a tree whose strict field has the wrong type
  assert.throws(
    () => toDemand(now(node(thunk, 'one' as unknown as number, thunk)), lazyOf(Tree)),
    (err: unknown) => err instanceof ShapeMismatchError && err.path.endsWith('value'),
  );
  // a plain value where a Lazy is declared
  assert.throws(() => toDemand(3 as unknown as Lazy<number>, lazyOf(number)), ShapeMismatchError);
  // the dynamic shape cannot observe null
  assert.throws(() => toDemand(null, dynamic), ShapeMismatchError);
});

test('forcing thunk outside a spec throws UnevaluatedError', () => {
  const d = cons(1, cons(thunk, thunk)) as List<number>;
  assert.throws(() => L.toArray(d), UnevaluatedError);
  assert.throws(() => L.sum(fromDemand(toDemand(cons(1, thunk)))), UnevaluatedError);
  assert.equal(L.head(d), 1, 'the evaluated part is usable');
});

test('a list cell where a Lazy is expected (a list inside a list) is a mismatch that says how to wrap it', () => {
  const lists = list(list(number));
  // A head holding the inner list (a Lazy of a cell) is right; the inner list itself as the head, its cell where the list goes, is the slip.
  assert.doesNotThrow(() => toDemand(now(new Cons(now(fromArray([1])), nil)), lists));
  const wrong = now(new Cons(fromArray([1]) as never, nil));
  assert.throws(() => toDemand(wrong, lists), /expected a Lazy \(a list is a Lazy of its first cell: wrap the cell with now\(…\)\), got /);
});
