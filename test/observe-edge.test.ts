/**
 * Observation at its edges: values nested deeper than the call stack goes, nested Lazies under
 * `whnf`, copies that must behave as their originals, mismatch paths under the dynamic shape, and
 * sets and maps whose demands must not depend on insertion order.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runInNewContext } from 'node:vm';
import { lazy, now, thunk, type Lazy } from '../src/lazy/lazy.ts';
import * as L from '../src/lazy/list.ts';
import { fromArray } from '../src/lazy/list.ts';
import type { List } from '../src/lazy/cell.ts';
import { mapOf, setOf } from '../src/demand/collections.ts';
import { data, option, type DataShape, type Option } from '../src/demand/declared-data.ts';
import { dynamic } from '../src/demand/dynamic.ts';
import { list } from '../src/demand/lazy-positions.ts';
import { showPath } from '../src/demand/path.ts';
import { fn, number, string } from '../src/demand/primitives.ts';
import { record } from '../src/demand/records.ts';
import { ShapeMismatchError } from '../src/demand/shape-errors.ts';
import type { Shape } from '../src/demand/shape-types.ts';
import { tuple } from '../src/demand/tuples.ts';
import { demandEquals, demandHolder, demandSize, type Demand } from '../src/demand/demand.ts';
import { evaluatedPart, toDemand } from '../src/demand/convert.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { entangle, normalize, observe, observeDetailed, toContext, whnf } from '../src/demand/observe.ts';
import { forceAt, RecordSite } from '../src/demand/record-site.ts';
import { cellMarks } from '../src/demand/cycles.ts';
import { mismatchPath } from './fixtures/assertions.ts';
import { Tree } from './fixtures/shapes.ts';

const sameDemand = (a: Demand, b: Demand) => assert.ok(demandEquals(a, b), `${prettyDemand(a)} differs from ${prettyDemand(b)}`);

// ---------------------------------------------------------------------------------------------
// Deep strict values

type Nat = { tag: 'Z' } | { tag: 'S'; p: Nat };
/** Peano numbers with a strict predecessor: a number n is n + 1 strict layers. */
const Nat: DataShape<Nat> = data<Nat>('Nat', (Nat) => ({ Z: {}, S: { p: Nat } }));

const DEEP = 30_000; // twice the deepest a recursion of one frame a layer goes on the default stack (15,400 frames)

function nat(n: number): Nat {
  let m: Nat = Nat.make.Z();
  for (let i = 0; i < n; i++) m = Nat.make.S({ p: m });
  return m;
}

function natToNumber(n: Nat): number {
  let k = 0;
  for (let m = n; m.tag === 'S'; m = m.p) k++;
  return k;
}

test('a value nested 30,000 strict layers deep is copied without overflowing the stack: declared, dynamic, entangled', () => {
  const n = nat(DEEP);
  // declared: the copy is complete (the function counts it), and its demand is the whole value
  const o = observeDetailed(whnf, (m: Nat) => lazy(() => natToNumber(m)), [n], { inputs: [Nat] });
  assert.equal(o.error, undefined, String(o.error?.thrown));
  assert.equal(prettyDemand(o.result), String(DEEP));
  assert.equal(demandSize(o.inputs[0]!), DEEP + 1);
  assert.ok(demandEquals(o.inputs[0]!, toDemand(n, Nat)), 'the demand is the whole value');
  // dynamic: nested tuples [[[…]]]
  let t: unknown = [];
  for (let i = 0; i < DEEP; i++) t = [t];
  const depth = (x: unknown) => {
    let k = 0;
    for (let y = x as unknown[]; y.length > 0; y = y[0] as unknown[]) k++;
    return k;
  };
  const od = observeDetailed(whnf, (x: unknown) => lazy(() => depth(x)), [t]);
  assert.equal(od.error, undefined, String(od.error?.thrown));
  assert.equal(prettyDemand(od.result), String(DEEP));
  assert.equal(demandSize(od.inputs[0]!), DEEP + 1);
  // entangled
  const [copy, demand] = entangle(n, Nat);
  assert.equal(natToNumber(copy), DEEP);
  assert.equal(demandSize(demand()), DEEP + 1);
});

test('a deep strict value under a Lazy is copied when the Lazy is forced; a mismatch deep in it is named', () => {
  const n = nat(DEEP);
  const o = observeDetailed(normalize, (m: Lazy<Nat>) => lazy(() => natToNumber(m.force())), [now(n)]);
  assert.equal(prettyDemand(o.result), String(DEEP));
  assert.equal(demandSize(o.inputs[0]!), DEEP + 1);
  // the innermost layer is no Nat: the path counts the layers above it
  let bad = { tag: 'S', p: 'zero' } as unknown as Nat;
  for (let i = 0; i < 3; i++) bad = Nat.make.S({ p: bad });
  const b = observeDetailed(whnf, (m: Nat) => m, [bad], { inputs: [Nat], names: ['n'] });
  assert.ok(b.error?.thrown instanceof ShapeMismatchError, String(b.error?.thrown));
  assert.equal(b.error.thrown.path, 'n.p.p.p.p');
});

// ---------------------------------------------------------------------------------------------
// whnf

test('whnf forces every Lazy around the outermost layer, called directly as when observing', () => {
  const f = (xs: List<number>) => now(now(xs));
  const recorded = observe(whnf, f, fromArray([1]));
  const direct = observe((v) => whnf(v), f, fromArray([1]));
  assert.equal(prettyDemand(recorded.result), '_ : _');
  assert.equal(prettyDemand(direct.result), '_ : _');
  assert.equal(prettyDemand(direct.inputs[0]!), '_ : _');
  sameDemand(recorded.inputs[0]!, direct.inputs[0]!);
  // and on a plain value: the innermost Lazy is forced
  const inner = lazy(() => 1);
  whnf(now(lazy(() => inner)));
  assert.ok(inner.isEvaluated, 'the inner Lazy is forced');
});

// ---------------------------------------------------------------------------------------------
// Copies behave as the originals, or observation says why it cannot copy

test("a dynamic object's `tag` that is not a string is a field, kept in the copy", () => {
  const getTag = (x: { tag: number; x: number }) => lazy(() => x.tag);
  const o = observe(normalize, getTag, { tag: 5, x: 1 });
  assert.equal(prettyDemand(o.result), '5');
  assert.equal(prettyDemand(o.inputs[0]!), '{ tag: 5, x: 1 }');
  const [copy] = entangle({ tag: true, x: 1 });
  assert.deepEqual(copy, { tag: true, x: 1 });
  // a string tag still names a constructor
  assert.equal(prettyDemand(toDemand({ tag: 'Leaf', size: 1 })), 'Leaf 1');
});

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
  sum(): number {
    return this.x + this.y;
  }
}

test('under the dynamic shape a class instance is refused with a ShapeMismatchError, in copies and in reads', () => {
  const notCopied = (err: unknown) => err instanceof ShapeMismatchError && err.path === 'p' && /Point/.test(err.message);
  // copied as a plain object, it lost its methods (p.sum is not a function) and `instanceof` said false
  const o = observeDetailed(normalize, (p: Point) => p.sum(), [new Point(1, 2)], { names: ['p'] });
  assert.ok(notCopied(o.error?.thrown), String(o.error?.thrown));
  assert.throws(() => observe(normalize, (p: Point) => p instanceof Point, new Point(1, 2)), ShapeMismatchError);
  // deep in a list, the path names it
  const inList = observeDetailed(normalize, (xs: List<Point>) => L.map((p: Point) => p.sum(), xs), [fromArray([new Point(1, 2), new Point(3, 4)])], { names: ['ps'] });
  assert.equal((inList.error?.thrown as ShapeMismatchError).path, 'ps.head');
  // reading a demand makes no copy, but a class instance read as the record of its own fields had
  // the demand of another object with the same fields, and lost its private ones
  assert.throws(() => toDemand(new Point(1, 2)), (err: unknown) => mismatchPath(err) === 'demand' && /an instance of Point/.test((err as Error).message));
  assert.equal(mismatchPath(observeDetailed(normalize, (x: number) => new Point(x, 2), [1]).error?.thrown), 'result');
  // objects without a prototype are plain: their copies have none either
  const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });
  const [copy] = entangle(bare);
  assert.equal(Object.getPrototypeOf(copy), null);
  assert.equal(observe(normalize, (r: Record<string, unknown>) => lazy(() => 'toString' in r), bare).result.forced, true);
  assert.equal(prettyDemand(observe(normalize, (r: Record<string, unknown>) => lazy(() => 'toString' in r), bare).result), 'false');
});

test('where a shape is declared, and for a declared data value, a class instance is copied as the shape says', () => {
  // a value of one option(number) under another: each call makes its own prototype
  const some = option(number).make.Some({ value: 3 });
  const fromOption = (x: Option<number>) => (x.tag === 'Some' ? x.value : 0);
  const o = observeDetailed(whnf, fromOption, [some], { inputs: [option(number)], result: number });
  assert.equal(o.error, undefined, String(o.error?.thrown));
  assert.equal(prettyDemand(o.inputs[0]!), 'Some 3');
  // declared shapes over class instances: the user said what the copy is
  class Leaf {
    readonly tag = 'Leaf';
  }
  class Node {
    readonly tag = 'Node';
    constructor(
      readonly left: Lazy<Tree>,
      readonly value: number,
      readonly right: Lazy<Tree>,
    ) {}
  }
  const tree = new Node(now(new Leaf()), 5, now(new Node(now(new Leaf()), 7, now(new Leaf()))));
  const value = observeDetailed(whnf, (t: Tree) => (t.tag === 'Node' ? t.value : 0), [tree], { inputs: [Tree], result: number });
  assert.equal(value.error, undefined, String(value.error?.thrown));
  assert.equal(prettyDemand(value.inputs[0]!), 'Node _ 5 _');
  const pointShape = record({ x: number, y: number });
  const declared = observeDetailed(normalize, (p: { x: number }) => p.x, [new Point(1, 2)], { inputs: [pointShape] });
  assert.equal(prettyDemand(declared.inputs[0]!), '{ x: 1, y: 2 }');
  // the copy of the result that goes to a context, with its shape declared
  const made = observeDetailed((p) => (p as Point).x, (x: number) => new Point(x, 1), [3], { result: pointShape });
  assert.equal(prettyDemand(made.result), '{ x: 3, y: 1 }');
  // an argument named `result` is still an argument
  const named = observeDetailed(normalize, (p: Point) => p.sum(), [new Point(1, 2)], { names: ['result'] });
  assert.ok(named.error?.thrown instanceof ShapeMismatchError, String(named.error?.thrown));
});

test('values made in another realm (a vm context, as test runners make them) are read and copied as this realm\'s', () => {
  const made = runInNewContext('({ xs: [now(1), 2], s: new Set([2, 1]), m: new Map([["a", 1]]), bare: Object.create(null), o: { a: 1 } })', { now });
  assert.equal(prettyDemand(toDemand(made.s)), 'Set {1, 2}');
  assert.equal(prettyDemand(toDemand(made.m)), 'Map {"a" => 1}');
  assert.equal(prettyDemand(toDemand(made.s, setOf(number))), 'Set {1, 2}');
  assert.equal(prettyDemand(evaluatedPart(made.m, mapOf(string, number))), 'Map {"a" => 1}');
  // copied (that realm's plain objects and arrays were refused as class instances, its sets and maps read as records)
  const o = observe(normalize, (v: typeof made) => lazy(() => v.xs[1] + v.o.a + v.m.get('a') + [...v.s][0] + Object.keys(v.bare).length), made);
  assert.equal(prettyDemand(o.result), '6');
  assert.equal(prettyDemand(o.inputs[0]!), '{ xs: (_, 2), s: Set {1, 2}, m: Map {"a" => 1}, bare: {  }, o: { a: 1 } }');
  // an instance of a class of that realm is refused as one of this realm's is
  assert.throws(() => toDemand(runInNewContext('new Date(0)')), (err: unknown) => mismatchPath(err) === 'demand' && /an instance of Date/.test((err as Error).message));
});

test('a function in an argument is copied with its own properties: what the function observed reads of them is the same', () => {
  const add = (a: number, b: number) => a + b;
  const lengthAndName = (p: [(...a: number[]) => number, number]) => lazy(() => `${p[0].length} ${p[0].name}`);
  assert.equal(prettyDemand(observe(normalize, lengthAndName, [add, 1]).result), '"2 add"');
  const declared = observeDetailed(normalize, lengthAndName, [[add, 1]], { inputs: [tuple(fn([number, number], number), number)] });
  assert.equal(prettyDemand(declared.result), '"2 add"');
  // its other properties, a getter not run by copying, and no more than it has
  const sym = Symbol('s');
  let runs = 0;
  const tagged = Object.defineProperty(Object.assign((x: number) => x, { id: 7, [sym]: 'y' }), 'count', { get: () => ++runs, enumerable: true }) as ((x: number) => number) & { id: number; [sym]: string; count: number };
  const props = observe(normalize, (f: typeof tagged) => lazy(() => `${f.id}${f[sym]}${f.count}`), tagged);
  assert.equal(prettyDemand(props.result), '"7y1"');
  assert.equal(runs, 1);
  const [copy] = entangle(tagged);
  assert.deepEqual(Object.getOwnPropertyNames(copy), Object.getOwnPropertyNames(tagged));
  assert.equal(Object.keys(copy).join(), 'id,count');
  // the original is left as it was
  assert.deepEqual(Reflect.ownKeys(add), ['length', 'name']);
  // a class is built with `new` as it is, an instance of it
  class Pair {
    constructor(
      readonly a: number,
      readonly b: number,
    ) {}
  }
  const built = observe(normalize, (C: typeof Pair) => lazy(() => new C(1, 2) instanceof Pair), Pair);
  assert.equal(prettyDemand(built.result), 'true');
  assert.equal(prettyDemand(built.inputs[0]!), '<function>');
  // a copy not called is not in what is evaluated of the value holding it; one called is
  const [pair] = entangle([add, 1] as const);
  assert.equal(prettyDemand(evaluatedPart(pair)), '(_, 1)');
  pair[0](1, 2);
  assert.equal(prettyDemand(evaluatedPart(pair)), '(<function>, 1)');
});

test('a plain object is copied with all its own properties and their attributes, frozen; a getter is refused, never run', () => {
  const sym = Symbol('s');
  const o = Object.defineProperty({ a: 1, [sym]: now(42) }, 'hidden', { value: now(7), enumerable: false }) as { a: number; [sym]: Lazy<number>; hidden: Lazy<number> };
  const obs = observe(normalize, (x: typeof o) => lazy(() => x[sym].force() + x.hidden.force()), o);
  assert.equal(prettyDemand(obs.result), '49');
  sameDemand(obs.inputs[0]!, toDemand(o));
  const [copy] = entangle(o);
  assert.deepEqual(Reflect.ownKeys(copy), ['a', 'hidden', sym]);
  assert.equal(Object.getOwnPropertyDescriptor(copy, 'hidden')!.enumerable, false);
  assert.ok(!demandEquals(toDemand({ [sym]: 1 }), toDemand({ 'Symbol(s)': 1 })));
  // reached again through another copy (an argument's Lazy copies its layer anew at each force), its demand is extended
  const twice = observe(normalize, (x: Lazy<typeof o>) => lazy(() => x.force()[sym].force() + x.force().hidden.force()), now(o));
  sameDemand(twice.inputs[0]!, toDemand(now(o)));
  // frozen, whatever the original (strictness is observed on immutable data: test/input-mutation.test.ts), its attributes otherwise kept
  const locks = (x: object) => [Object.isFrozen(x), Object.isSealed(x), Object.isExtensible(x)].join();
  for (const v of [{ a: 1 }, Object.freeze({ a: 1 }), Object.seal({ a: 1 }), Object.preventExtensions({ a: 1 }), Object.freeze([1]), Object.seal([1]), [1]]) {
    assert.equal(prettyDemand(observe(normalize, (x: object) => lazy(() => locks(x)), v).result), JSON.stringify('true,true,false'));
  }
  const readOnly = Object.defineProperty({ a: 1 }, 'b', { value: 2, enumerable: false, configurable: true });
  assert.deepEqual(Object.getOwnPropertyDescriptor(entangle(readOnly)[0], 'b'), { ...Object.getOwnPropertyDescriptor(readOnly, 'b'), configurable: false });
  // a getter cannot be copied without running it: refused where it is, though the function does not read it
  let runs = 0;
  const withGetter = {
    a: 1,
    get b(): number {
      runs++;
      throw new Error('getter ran');
    },
  };
  const refused = observeDetailed(normalize, (x: { a: number }) => x.a, [withGetter], { names: ['o'] }).error?.thrown;
  assert.equal(mismatchPath(refused), 'o.b');
  assert.match(String(refused), /expected a data property .*got a getter$/);
  assert.throws(() => toDemand(withGetter), (err: unknown) => mismatchPath(err) === 'demand.b');
  assert.throws(() => evaluatedPart([1, now(withGetter)]), (err: unknown) => mismatchPath(err) === 'value.1.b');
  assert.equal(runs, 0);
  // a declared shape reads what it names
  assert.equal(prettyDemand(observeDetailed(normalize, (x: { a: number }) => x.a, [withGetter], { inputs: [record({ a: number })] }).inputs[0]!), '{ a: 1 }');
  // an array is the tuple of its elements: a hole or another property is refused, naming it
  const extra = observeDetailed(normalize, (x: string[] & { extra: string }) => x.extra, [Object.assign(['a'], { extra: 'x' })], { names: ['xs'] }).error?.thrown;
  assert.equal(mismatchPath(extra), 'xs.extra');
  assert.throws(() => toDemand([1, , 3]), (err: unknown) => mismatchPath(err) === 'demand.1' && /got a hole$/.test((err as Error).message));
});

test('a symbol is an atom; a Date, a Promise, any class instance is refused wherever the dynamic shape reads it, naming where', () => {
  const a = Symbol('a');
  assert.equal(prettyDemand(toDemand(a)), 'Symbol(a)');
  assert.ok(demandEquals(toDemand(a), toDemand(a)));
  assert.ok(!demandEquals(toDemand(a), toDemand(Symbol('a'))));
  assert.equal(prettyDemand(observe(normalize, (x: unknown) => x, [a, now(a)]).inputs[0]!), '(Symbol(a), Symbol(a))');
  // each was read as the empty record, all alike (Date(0) as Date(1)), and a class with only private fields was copied as one
  class Secret {
    #x = 1;
    get x(): number {
      return this.#x;
    }
  }
  for (const v of [new Date(0), Promise.resolve(1), new Secret(), new Point(1, 2)]) {
    assert.throws(() => toDemand({ v }), (err: unknown) => mismatchPath(err) === 'demand.v');
    assert.throws(() => evaluatedPart([now(v)]), (err: unknown) => mismatchPath(err) === 'value.0');
    assert.equal(mismatchPath(observeDetailed(normalize, (x: unknown) => lazy(() => typeof x), [v], { names: ['x'] }).error?.thrown), 'x');
    assert.equal(mismatchPath(observeDetailed(normalize, () => L.cons(v, L.nil), []).error?.thrown), 'result.head');
  }
});

test('a value that holds itself through strict fields is refused at once, naming where', () => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  const o = observeDetailed(normalize, (x: { a: number }) => x.a, [cyclic], { names: ['o'] });
  const err = o.error?.thrown;
  assert.ok(err instanceof ShapeMismatchError && err.path === 'o.self' && /a cyclic value: o holds itself/.test(err.message), String(err));
  // deeper, under a declared shape, and entangled
  const inner: Record<string, unknown> = { n: 1 };
  const outer = { xs: [0, inner] };
  inner.up = outer;
  assert.throws(() => observe(normalize, (v: unknown) => v, [outer]), /at args\[0\]\.0\.xs\.1\.up: .*args\[0\]\.0 holds itself/);
  type Ring = { tag: 'Ring'; next: Ring };
  const Ring: DataShape<Ring> = data<Ring>('Ring', (R) => ({ Ring: { next: R } }));
  const ring = Ring.make.Ring({ next: undefined as unknown as Ring }) as { next: Ring };
  ring.next = ring as Ring;
  const declared = observeDetailed(whnf, (r: Ring) => r, [ring], { inputs: [Ring], names: ['r'] }).error?.thrown;
  assert.match(String(declared), /at r\.next: .*a cyclic value: r holds itself/);
  assert.throws(() => entangle(cyclic), /cyclic value: value holds itself/);
  // a value that holds another twice is not cyclic
  const shared = { a: 1 };
  assert.equal(prettyDemand(observe(normalize, (v: unknown) => v, [shared, [shared]]).inputs[0]!), '({ a: 1 }, ({ a: 1 },))');
});

test('reading the demand of a value that holds itself is refused, naming where, and a finite part of one is read', () => {
  const refused = (f: () => unknown, path: string | RegExp, first: string | RegExp) =>
    assert.throws(f, (err: unknown) => {
      assert.ok(err instanceof ShapeMismatchError, String(err));
      assert.match(err.path, typeof path === 'string' ? new RegExp(`^${path.replace(/\./g, '\\.')}$`) : path);
      assert.match(err.message, new RegExp(`a cyclic value: ${typeof first === 'string' ? first.replace(/\./g, '\\.') : first.source} holds itself here`));
      return true;
    });
  const o: Record<string, unknown> = { a: 1 };
  o.self = o;
  refused(() => toDemand(o), 'demand.self', 'demand');
  refused(() => evaluatedPart(o), 'value.self', 'value');
  refused(() => observe(whnf, () => o), 'result.self', 'result');
  // L.repeat is one cell whose tail is itself: cyclic once forced. List cells are marked only
  // past 2^20 cells by default (a mark keeps the cells after it alive), so the cycle is found there.
  const ones = L.repeat(1);
  L.toArray(L.take(3, ones));
  refused(() => evaluatedPart(ones), 'value.tail×1048577', 'value.tail×1048576');
  // Past 16 cells, the same walks find the same cycles 2^16 times sooner.
  const unmarkedDepth = cellMarks.unmarkedDepth;
  cellMarks.unmarkedDepth = 16;
  try {
    refused(() => evaluatedPart(ones), 'value.tail×17', 'value.tail×16');
    refused(() => toDemand(L.repeat(1)), 'demand.tail×17', 'demand.tail×16');
    refused(() => observe(normalize, () => L.repeat(1)), 'result.tail×17', 'result.tail×16');
    // a cycle of two cells entered below a deep head, in a declared shape: named by its path
    const late = L.append(fromArray([fromArray([1, 2])]), L.cycle(fromArray([fromArray([3]), fromArray([4, 5])])));
    refused(() => toDemand(late, list(list(number))), /^demand\.tail×\d+$/, /demand\.tail×\d+/);
  } finally {
    cellMarks.unmarkedDepth = unmarkedDepth;
  }
  // a tree whose lazy child is itself
  type Loop = { tag: 'Loop'; next: Lazy<Loop> };
  const loop: Loop = { tag: 'Loop', next: lazy(() => loop) };
  loop.next.force();
  refused(() => evaluatedPart(loop), 'value.next', 'value');
  // not cyclic: a value held twice, a finite demand on a cyclic value, a long list
  const leaf = now({ tag: 'Leaf' });
  assert.equal(prettyDemand(toDemand({ l: leaf, r: [leaf, leaf] })), '{ l: Leaf, r: (Leaf, Leaf) }');
  assert.equal(prettyDemand(observe(toContext(toDemand(L.cons(1, L.cons(1, L.cons(1, thunk))))), () => L.repeat(1)).result), '1 : 1 : 1 : _');
  assert.equal(demandSize(observe(normalize, (xs: List<number>) => xs, fromArray(Array.from({ length: 100_000 }, () => 7))).inputs[0]!), 200_001);
});

test('a path through many cells of a list is written with a count', () => {
  const bad = L.append(fromArray(Array.from({ length: 100_000 }, (_, i) => i)), fromArray(['x' as unknown as number]));
  assert.throws(
    () => toDemand(bad, list(number)),
    (err: unknown) => err instanceof ShapeMismatchError && err.path === 'demand.tail×100000.head' && err.message.length < 200,
  );
  assert.equal(showPath({ parent: { parent: 'xs', key: 'tail', times: 8 }, key: 'head' }), 'xs.tail.tail.tail.tail.tail.tail.tail.tail.head');
});

// ---------------------------------------------------------------------------------------------
// Mismatch paths under the dynamic shape

test('under the dynamic shape a mismatch is named by its full path, as under declared shapes', () => {
  const xs = fromArray([1, 2, null as unknown as number]);
  const count = (x: List<number>) => L.length(L.filter((v) => v !== 0, x));
  assert.equal(mismatchPath(observeDetailed(normalize, count, [xs], { names: ['xs'] }).error?.thrown), 'xs.tail.tail.head');
  assert.equal(mismatchPath(observeDetailed(normalize, count, [xs]).error?.thrown), 'args[0].tail.tail.head');
  assert.throws(() => toDemand(xs), (err: unknown) => mismatchPath(err) === 'demand.tail.tail.head');
  // in the result, recorded by a built-in context or copied for another
  const made = () => fromArray([1, 2, null as unknown as number]);
  assert.equal(mismatchPath(observeDetailed(normalize, made, []).error?.thrown), 'result.tail.tail.head');
  assert.equal(mismatchPath(observeDetailed((v) => normalize(v), made, []).error?.thrown), 'result.tail.tail.head');
  // through records, tuples, strict and lazy fields
  const nested = () => ({ a: [1, now({ b: now(L.cons(1, L.cons(null, L.nil))) })] });
  assert.throws(() => toDemand(nested()), (err: unknown) => mismatchPath(err) === 'demand.a.1.b.tail.head');
  assert.equal(mismatchPath(observeDetailed(normalize, nested, []).error?.thrown), 'result.a.1.b.tail.head');
  assert.equal(mismatchPath(observeDetailed((r) => normalize(r), nested, []).error?.thrown), 'result.a.1.b.tail.head');
  assert.equal(mismatchPath(observeDetailed(normalize, (v: unknown) => v, [nested()], { names: ['v'] }).error?.thrown), 'v.a.1.b.tail.head');
  // a list of lists, and a strict list cell
  const lists = fromArray([fromArray([1]), fromArray([2, null as unknown as number])]);
  assert.equal(mismatchPath(observeDetailed(normalize, (v: unknown) => v, [lists], { names: ['xss'] }).error?.thrown), 'xss.tail.head.tail.head');
  assert.equal(mismatchPath(observeDetailed(normalize, (v: unknown) => v, [[new L.Cons(now(1), null as never)]], { names: ['t'] }).error?.thrown), 't.0.tail');
  // a dynamic part of a declared shape
  const withDynamic = record({ n: number, d: dynamic });
  assert.equal(mismatchPath(observeDetailed(normalize, (r: unknown) => r, [{ n: 1, d: [2, null] }], { inputs: [withDynamic] }).error?.thrown), 'args[0].d.1');
  assert.throws(() => toDemand({ n: 1, d: [2, now(null)] }, withDynamic), (err: unknown) => mismatchPath(err) === 'demand.d.1');
  // a context forcing layer by layer: each field's site has its path
  const holder = demandHolder();
  const sites: RecordSite[] = [];
  forceAt(RecordSite.root(now([1, now({ b: 2 })]), dynamic, 'result', holder, 0), sites, { r: { int: (lo) => lo }, size: 1, pulls: 1 });
  assert.deepEqual(sites.map((s) => showPath(s.path)), ['result.0', 'result.1']);
});

// ---------------------------------------------------------------------------------------------
// Sets and maps

test('the demand on a set or a map does not depend on insertion order; the copy keeps the order', () => {
  const S = setOf(number);
  sameDemand(toDemand(new Set([1, 2]), S), toDemand(new Set([2, 1]), S));
  sameDemand(toDemand(new Set([1, 2])), toDemand(new Set([2, 1])));
  assert.equal(prettyDemand(toDemand(new Set([3, 1, 2]), S)), 'Set {1, 2, 3}');
  assert.equal(prettyDemand(toDemand(new Set(['b', 2, 'a', 1, true, 10n]))), 'Set {true, 1, 2, 10n, "a", "b"}');
  const M = mapOf(string, number);
  sameDemand(toDemand(new Map([['a', 1], ['b', 2]]), M), toDemand(new Map([['b', 2], ['a', 1]]), M));
  assert.equal(prettyDemand(toDemand(new Map([['b', 2], ['a', 1]]), M)), 'Map {"a" => 1, "b" => 2}');
  // observed: the same demand for either order
  const size = (s: ReadonlySet<number>) => lazy(() => s.size);
  sameDemand(observe(whnf, size, new Set([1, 2])).inputs[0]!, observe(whnf, size, new Set([2, 1])).inputs[0]!);
  // elements that are not primitives keep their order, after the primitives
  assert.equal(prettyDemand(toDemand(new Set<unknown>([now(5), 2, now(4), 1]))), 'Set {1, 2, 5, 4}');
  // the copy iterates as the original does: observing does not change what the function returns
  const first = (s: ReadonlySet<number>) => lazy(() => [...s][0]);
  assert.equal(prettyDemand(observe(normalize, first, new Set([2, 1])).result), '2');
  const firstKey = (m: ReadonlyMap<string, Lazy<number>>) => lazy(() => [...m.keys()][0]);
  assert.equal(prettyDemand(observe(normalize, firstKey, new Map([['b', now(2)], ['a', now(1)]])).result), '"b"');
});

test('a mismatch in a set or a map is named by where it is in the value, not in the demand: a set element by its position, a map value by its key', () => {
  const size = (s: { size: number }) => s.size;
  assert.equal(mismatchPath(observeDetailed(whnf, size, [new Set<unknown>([new Point(1, 2), 5, 1])]).error?.thrown), 'args[0].0');
  assert.equal(mismatchPath(observeDetailed(whnf, size, [new Map<unknown, unknown>([[3, new Point(1, 2)], [1, 0]])]).error?.thrown), 'args[0].get(3)');
  const sizes = (xs: List<{ size: number }>) => L.map(size, xs);
  assert.equal(mismatchPath(observeDetailed(normalize, sizes, [fromArray([new Set<unknown>([2, new Point(1, 2), 1])])]).error?.thrown), 'args[0].head.1');
  assert.equal(mismatchPath(observeDetailed(whnf, size, [new Set<unknown>(['x', 5, 1])], { inputs: [setOf(number)] }).error?.thrown), 'args[0].0');
});

test('a value met again under another shape is no cycle: a declared record that reads fewer of its fields ends', () => {
  // Comparing originals alone refused these as cyclic, depending on where the moving mark was.
  const o: { n: number; self?: unknown } = { n: 1 };
  o.self = o;
  const selfShape = record({ n: number, self: record({ n: number }) });
  assert.equal(prettyDemand(observe1Shaped(o, selfShape)), '{ n: 1, self: { n: 1 } }');
  type Node = { n: number; next?: Node; prev?: Node };
  const a: Node = { n: 1 };
  const b: Node = { n: 2, prev: a };
  const c: Node = { n: 3, prev: b };
  a.next = b;
  b.next = c;
  const chain = record({ n: number, next: record({ n: number, next: record({ n: number, prev: record({ n: number }) }) }) });
  assert.equal(prettyDemand(observe1Shaped(a, chain)), '{ n: 1, next: { n: 2, next: { n: 3, prev: { n: 2 } } } }');
});

/** The demand `normalize` puts on `value`, observed under `shape`, through the identity. */
function observe1Shaped(value: unknown, shape: Shape<any>): Demand {
  return observeDetailed(normalize, (x: unknown) => x, [value], { inputs: [shape] }).inputs[0]!;
}

test('JSON.stringify writes a Lazy as it prints, never forcing it: an observed input shows as unevaluated, not the value it wraps read without a force', () => {
  assert.equal(JSON.stringify({ a: now(5), b: lazy(() => 6) }), '{"a":"Lazy(5)","b":"Lazy(<unevaluated>)"}');
  const o = observe(normalize, (x: Lazy<number>) => JSON.stringify(x), now(5));
  assert.equal(prettyDemand(o.inputs[0]!), '_');
  assert.equal(prettyDemand(o.result), '"\\"Lazy(<unevaluated>)\\""');
});
