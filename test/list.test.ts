import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Lazy, UnevaluatedError, defer, isThunk, lazy, now, thunk } from '../src/lazy/lazy.ts';
import { Cons, NIL, nil, type Cell, type List } from '../src/lazy/cell.ts';
import * as L from '../src/lazy/list.ts';

// A list whose cells and elements count how often they are evaluated. `len` may be Infinity;
// `end: 'thunk'` makes the final tail the unevaluated marker instead of [].
function tracked<T>(len: number, at: (i: number) => T, end: 'nil' | 'thunk' = 'nil') {
  const cells: number[] = [];
  const elems: number[] = [];
  const cell = (i: number): List<T> =>
    i === len && end === 'thunk'
      ? thunk
      : lazy((): Cell<T> => {
          cells[i] = (cells[i] ?? 0) + 1;
          if (i === len) return NIL;
          return new Cons(
            lazy(() => {
              elems[i] = (elems[i] ?? 0) + 1;
              return at(i);
            }),
            cell(i + 1),
          );
        });
  const count = (xs: number[]) => xs.filter((n) => n > 0).length;
  return {
    list: cell(0),
    cells,
    elems,
    /** number of distinct cells (incl. the final []) forced */
    cellsForced: () => count(cells),
    elemsForced: () => count(elems),
    /** true when nothing was evaluated more than once (memoisation) */
    once: () => cells.every((n) => n <= 1) && elems.every((n) => n <= 1),
  };
}
const trackedArray = <T>(xs: readonly T[], end: 'nil' | 'thunk' = 'nil') => tracked(xs.length, (i) => xs[i]!, end);

// Same contents as fromArray, but every cell and element is an unevaluated thunk.
const lazyList = <T>(xs: readonly T[]) => trackedArray(xs).list;

const arr = fc.array(fc.integer({ min: -20, max: 20 }), { maxLength: 30 });
// Each property runs on an evaluated and on a lazily built input.
const both = <T>(xs: readonly T[]): List<T>[] => [L.fromArray(xs), lazyList(xs)];

test('conversions agree with arrays', () => {
  fc.assert(
    fc.property(arr, (xs) => {
      for (const l of both(xs)) {
        assert.deepEqual(L.toArray(l), xs);
        assert.equal(L.length(l), xs.length);
        assert.equal(L.isEmpty(l), xs.length === 0);
        assert.deepEqual(L.toLazyArray(l).map((x) => x.force()), xs);
      }
      assert.deepEqual(L.toArray(L.fromLazyArray(xs.map(now))), xs);
    }),
  );
  assert.deepEqual(L.toArray(L.fromString('ab😀')), ['a', 'b', '😀']);
  assert.deepEqual(L.toArray(L.cons(1, L.cons(now(2), nil))), [1, 2]);
  assert.deepEqual(L.toArray(L.lazyCons(lazy(() => 1), nil)), [1]);
});

test('observations agree with arrays', () => {
  fc.assert(
    fc.property(arr, fc.integer({ min: -2, max: 35 }), (xs, i) => {
      for (const l of both(xs)) {
        if (xs.length > 0) assert.equal(L.head(l), xs[0]);
        else assert.throws(() => L.head(l), /head: empty list/);
        if (xs.length > 0) assert.deepEqual(L.toArray(L.tail(l)), xs.slice(1));
        else assert.throws(() => L.tail(l).force(), /tail: empty list/);
        const u = L.uncons(l);
        assert.deepEqual(u && [u[0].force(), L.toArray(u[1])], xs.length ? [xs[0], xs.slice(1)] : undefined);
        if (i >= 0 && i < xs.length) assert.equal(L.index(l, i), xs[i]);
        else assert.throws(() => L.index(l, i), /index/);
        assert.equal(L.sum(l), xs.reduce((a, b) => a + b, 0));
        assert.equal(L.foldl((a, x) => a * 3 - x, 1, l), xs.reduce((a, x) => a * 3 - x, 1));
        assert.equal(
          L.foldr((x, acc) => x.force() - 2 * acc.force(), 7, l).force(),
          xs.reduceRight((acc, x) => x - 2 * acc, 7),
        );
        assert.equal(L.all((x) => x > i - 20, l), xs.every((x) => x > i - 20));
        assert.equal(L.any((x) => x > i - 20, l), xs.some((x) => x > i - 20));
        assert.equal(L.elem(i, l), xs.includes(i));
      }
    }),
  );
});

test('transformations agree with arrays', () => {
  fc.assert(
    fc.property(arr, arr, fc.integer({ min: -3, max: 35 }), (xs, ys, n) => {
      const p = (x: number) => x % 3 !== 0;
      for (const l of both(xs))
        for (const m of both(ys)) {
          assert.deepEqual(L.toArray(L.append(l, m)), [...xs, ...ys]);
          assert.deepEqual(L.toArray(L.reverse(l)), [...xs].reverse());
          assert.deepEqual(L.toArray(L.take(n, l)), xs.slice(0, Math.max(0, n)));
          assert.deepEqual(L.toArray(L.drop(n, l)), xs.slice(Math.max(0, n)));
          const [a, b] = L.splitAt(n, l);
          assert.deepEqual([L.toArray(a), L.toArray(b)], [xs.slice(0, Math.max(0, n)), xs.slice(Math.max(0, n))]);
          const k = xs.findIndex((x) => !p(x));
          const cut = k < 0 ? xs.length : k;
          assert.deepEqual(L.toArray(L.takeWhile(p, l)), xs.slice(0, cut));
          assert.deepEqual(L.toArray(L.dropWhile(p, l)), xs.slice(cut));
          assert.deepEqual(L.toArray(L.map((x) => x * 2, l)), xs.map((x) => x * 2));
          assert.deepEqual(L.toArray(L.mapLazy((x) => x.map((v) => v + 1), l)), xs.map((x) => x + 1));
          assert.deepEqual(L.toArray(L.filter(p, l)), xs.filter(p));
          const len = Math.min(xs.length, ys.length);
          assert.deepEqual(L.toArray(L.zipWith((x, y) => x - y, l, m)), xs.slice(0, len).map((x, i) => x - ys[i]!));
          assert.deepEqual(L.toArray(L.zip(l, m)), xs.slice(0, len).map((x, i) => [x, ys[i]]));
          assert.deepEqual(
            L.toArray(L.zipWithLazy((x, y) => x.force() * y.force(), l, m)),
            xs.slice(0, len).map((x, i) => x * ys[i]!),
          );
          assert.equal(L.listEquals(l, m), JSON.stringify(xs) === JSON.stringify(ys));
          assert.equal(L.listEquals(l, L.fromArray(xs)), true);
        }
    }),
  );
});

test('concat, generators and folds building lists agree with arrays', () => {
  fc.assert(
    fc.property(fc.array(arr, { maxLength: 6 }), fc.integer({ min: -2, max: 40 }), (xss, n) => {
      assert.deepEqual(L.toArray(L.concat(L.fromArray(xss.map(lazyList)))), xss.flat());
      assert.deepEqual(L.toArray(L.replicate(n, 'x')), Array(Math.max(0, n)).fill('x'));
      assert.deepEqual(L.toArray(L.range(n, n + xss.length - 2)), Array.from({ length: Math.max(0, xss.length - 1) }, (_, i) => n + i));
      assert.deepEqual(L.toArray(L.take(n, L.repeat(5))), Array(Math.max(0, n)).fill(5));
      assert.deepEqual(L.toArray(L.take(n, L.enumFrom(3))), Array.from({ length: Math.max(0, n) }, (_, i) => 3 + i));
      assert.deepEqual(L.toArray(L.take(n, L.iterate((x) => x * 2, 1))), Array.from({ length: Math.max(0, n) }, (_, i) => 2 ** i));
      const flat = xss.flat();
      if (flat.length > 0)
        assert.deepEqual(L.toArray(L.take(n, L.cycle(lazyList(flat)))), Array.from({ length: Math.max(0, n) }, (_, i) => flat[i % flat.length]));
      const viaFoldr = L.foldr<number, Cell<number>>((x, acc) => new Cons(x, acc), NIL, L.fromArray(flat));
      assert.deepEqual(L.toArray(viaFoldr), flat);
    }),
  );
});

// ---------------------------------------------------------------------------------------------
// Laziness

const throws = (f: () => unknown) => assert.throws(f, UnevaluatedError);

test('take: n <= 0 forces nothing, take n forces n cells', () => {
  assert.equal(L.isEmpty(L.take(0, thunk)), true);
  assert.equal(L.isEmpty(L.take(-1, thunk)), true);
  const t = tracked(Infinity, (i) => i);
  assert.deepEqual(L.toArray(L.take(2, t.list)), [0, 1]);
  assert.equal(t.cellsForced(), 2); // not the third cell
  assert.equal(L.length(L.take(2, L.cons(thunk, L.cons(thunk, thunk)))), 2);
});

test('map: f runs only when a result element is forced, once', () => {
  let calls = 0;
  const t = trackedArray([1, 2, 3]);
  const m = L.map((x: number) => (calls++, x * 10), t.list);
  assert.equal(t.cellsForced(), 0); // building forces nothing
  assert.equal(L.isEmpty(m), false);
  assert.deepEqual([calls, t.cellsForced(), t.elemsForced()], [0, 1, 0]);
  assert.equal(L.head(m), 10);
  assert.equal(L.head(m), 10);
  assert.deepEqual([calls, t.elemsForced()], [1, 1]);
  assert.equal(L.length(m), 3);
  assert.deepEqual([calls, t.cellsForced(), t.elemsForced()], [1, 4, 1]);
  assert.ok(t.once());
  // mapLazy with a non-strict function never forces the elements
  assert.deepEqual(L.toArray(L.mapLazy(() => 1, L.cons(thunk, L.cons(thunk, nil)))), [1, 1]);
});

test('reverse: the first cell forces the whole spine, no element', () => {
  const t = trackedArray([1, 2, 3, 4]);
  const r = L.reverse(t.list);
  assert.equal(t.cellsForced(), 0);
  assert.equal(L.isEmpty(r), false);
  assert.deepEqual([t.cellsForced(), t.elemsForced()], [5, 0]);
  assert.equal(L.head(r), 4);
  assert.deepEqual(t.elems, [, , , 1]);
  throws(() => L.reverse(L.cons(1, thunk)).force());
});

test('zipWith: forces xs first, ys only when xs is a cons', () => {
  const ys = tracked(Infinity, (i) => 30 + 10 * i);
  assert.deepEqual(L.toArray(L.zipWith((a, b) => a + b, L.fromArray([10, 20]), ys.list)), [40, 60]);
  assert.equal(ys.cellsForced(), 2); // the third cell of ys is never needed
  assert.equal(L.isEmpty(L.zipWith((a, b) => a + b, nil, thunk)), true);
  throws(() => L.zip(L.cons(1, nil), thunk).force());
  // the spine does not force elements
  assert.equal(L.length(L.zipWith((a, b) => a + b, L.cons(thunk, nil), L.cons(thunk, thunk))), 1);
  assert.equal(L.length(L.zip(L.cons(thunk, nil), L.cons(thunk, thunk))), 1);
  const lz = L.zipWithLazy((a) => a, L.cons(7, nil), L.cons(thunk, nil));
  assert.deepEqual(L.toArray(lz), [7]);
});

test('zipWith: an element that depends on the elements before it is forced without recursion (fibs)', () => {
  // fibs = 0 : 1 : zipWith (+) fibs (tail fibs), its 10^5th element forced first
  const fibs: List<number> = L.cons(0, L.cons(1, defer(() => L.zipWith((a, b) => (a + b) % 1000, fibs, L.tail(fibs)))));
  const cells = L.toLazyArray(L.take(100_001, fibs));
  assert.equal(cells[100_000]!.force(), 875);
  assert.deepEqual(L.toArray(L.take(8, fibs)), [0, 1, 1, 2, 3, 5, 8, 13]);
});

test('append: ys is untouched until xs is exhausted, then re-exported', () => {
  const xs = trackedArray([1, 2]);
  const ys = trackedArray([3]);
  const a = L.append(xs.list, ys.list);
  assert.equal(L.head(a), 1);
  assert.deepEqual([xs.cellsForced(), ys.cellsForced()], [1, 0]);
  assert.equal(L.isEmpty(L.append(L.cons(1, thunk), thunk)), false);
  assert.deepEqual(L.toArray(a), [1, 2, 3]);
  assert.ok(xs.once() && ys.once());
  const h = lazy(() => 9);
  assert.equal(L.uncons(L.append(nil, L.lazyCons(h, nil)))![0], h); // the very same element
  // reassociating (a ++ b) ++ c keeps the order in which cells are forced
  const log: string[] = [];
  const logged = (name: string, cell: Cell<number>): List<number> => lazy(() => (log.push(name), cell));
  const abc = L.append(L.append(logged('a', NIL), logged('b', NIL)), logged('c', new Cons(now(1), nil)));
  assert.equal(L.head(abc), 1);
  assert.deepEqual(log, ['a', 'b', 'c']);
  const half = L.append(L.append(logged('d', NIL), logged('e', new Cons(now(2), nil))), thunk);
  assert.equal(L.head(half), 2);
  throws(() => L.length(half));
});

test('drop, tail, dropWhile, filter, takeWhile force the spine only as far as needed', () => {
  const t = trackedArray([1, 2, 3, 4, 5]);
  const d = L.drop(2, t.list);
  assert.equal(t.cellsForced(), 0);
  assert.equal(L.isEmpty(d), false);
  assert.deepEqual([t.cellsForced(), t.elemsForced()], [3, 0]);
  assert.equal(L.drop(0, t.list), t.list);
  assert.equal(L.isEmpty(L.drop(5, L.cons(thunk, nil))), true);
  // tail [] fails only when forced; tail . tail of a singleton fails, drop 2 does not
  const tt = L.tail(L.tail(L.cons(1, nil)));
  assert.throws(() => tt.force(), /tail: empty list/);
  assert.equal(L.isEmpty(L.drop(1, L.tail(L.cons(1, nil)))), true);
  assert.throws(() => L.tail(L.drop(1, L.cons(1, nil))).force(), /tail: empty list/);
  assert.equal(L.head(L.tail(L.cons(thunk, L.cons(2, thunk)))), 2);

  const inf = tracked(Infinity, (i) => i);
  assert.equal(L.head(L.dropWhile((x) => x < 3, inf.list)), 3);
  assert.deepEqual([inf.cellsForced(), inf.elemsForced()], [4, 4]);
  assert.equal(L.head(L.filter((x) => x > 5, inf.list)), 6);
  assert.deepEqual([inf.cellsForced(), inf.elemsForced()], [7, 7]);
  assert.deepEqual(L.toArray(L.takeWhile((x) => x < 2, inf.list)), [0, 1]);
  assert.deepEqual(L.toArray(L.take(3, L.filter((x) => x % 2 === 0, L.enumFrom(0)))), [0, 2, 4]);
  assert.ok(inf.once());
  throws(() => L.filter(() => false, L.cons(1, thunk)).force());
});

test('strict observers force exactly what they must', () => {
  const d = L.cons<number>(thunk, L.cons(2, thunk)); // _ : 2 : _
  throws(() => L.length(d));
  assert.equal(L.length(L.cap(d)), 2);
  assert.equal(L.length(L.cons(thunk, L.cons(thunk, nil))), 2);
  assert.equal(L.index(d, 1), 2);
  throws(() => L.index(d, 0));
  const t = tracked(Infinity, (i) => i);
  assert.equal(L.index(t.list, 3), 3);
  assert.deepEqual([t.cellsForced(), t.elemsForced()], [4, 1]);
  assert.equal(L.any((x) => x > 10, L.enumFrom(0)), true);
  assert.equal(L.all((x) => x < 10, L.enumFrom(0)), false);
  assert.equal(L.elem(4, L.enumFrom(0)), true);
  assert.equal(L.listEquals(L.cons(1, L.cons(2, thunk)), L.cons(1, L.cons(3, thunk))), false);
  assert.equal(L.listEquals(L.cons(1, nil), L.cons(1, L.cons(thunk, thunk))), false);
  assert.equal(L.listEquals(L.fromArray([0.1]), L.fromArray([0.1000001]), (a, b) => Math.abs(a - b) < 1e-3), true);
});

test('foldr is as lazy as its function', () => {
  assert.equal(L.foldr((x, acc) => x.force() > 5 || acc.force(), false, L.enumFrom(0)).force(), true);
  const mapped = L.foldr<number, Cell<number>>((x, acc) => new Cons(x.map((v) => v * v), acc), NIL, L.enumFrom(1));
  assert.deepEqual(L.toArray(L.take(4, mapped)), [1, 4, 9, 16]);
  assert.equal(L.foldr(() => 1, 0, L.cons(thunk, thunk)).force(), 1);
});

test('infinite lists: repeat, cycle, iterate, enumFrom, range, replicate', () => {
  const r = L.repeat(1);
  assert.equal((r.force() as Cons<number>).tail, r); // one cyclic cell
  const c = L.cycle(L.fromArray([1, 2, 3]));
  assert.equal(L.drop(3, c).force(), c.force()); // cyclic after one pass
  assert.deepEqual(L.toArray(L.take(7, c)), [1, 2, 3, 1, 2, 3, 1]);
  assert.throws(() => L.cycle(nil).force(), /cycle: empty list/);
  assert.equal(L.isEmpty(L.cycle(L.cons(1, thunk))), false);
  let calls = 0;
  const it = L.iterate((x: number) => (calls++, x + 1), 0);
  assert.equal(L.length(L.take(5, it)), 5);
  assert.equal(calls, 0); // the spine does not compute elements
  assert.equal(L.index(it, 4), 4);
  assert.equal(calls, 4);
  assert.equal(L.length(L.replicate(3, thunk)), 3);
  assert.deepEqual(L.toArray(L.take(3, L.range(1, 1e15))), [1, 2, 3]);
  assert.equal(L.isEmpty(L.range(2, 1)), true);
});

test('concat skips empty inner lists and stays lazy', () => {
  // a List is itself a Lazy, so cons/repeat/replicate of a list element need now(list)
  const xss = L.fromArray([nil, L.fromArray([1]), nil, L.cons(2, thunk)]);
  assert.deepEqual(L.toArray(L.take(2, L.concat(xss))), [1, 2]);
  assert.deepEqual(L.toArray(L.take(5, L.concat(L.repeat(now(L.fromArray([1, 2])))))), [1, 2, 1, 2, 1]);
  assert.equal(L.head(L.concat(L.lazyCons(now(L.fromArray([1])), thunk))), 1);
  throws(() => L.concat(L.lazyCons(now<List<number>>(nil), thunk)).force());
});

test('demand helpers: cap, isCapped, numCtrForced', () => {
  const d = L.cons<number>(thunk, L.cons(2, thunk)); // _ : 2 : _
  const capped = L.cap(d);
  assert.ok(isThunk(L.uncons(capped)![0])); // elements untouched
  assert.equal(L.index(capped, 1), 2);
  assert.equal(L.isCapped(d), false);
  assert.equal(L.isCapped(capped), true);
  assert.equal(L.isCapped(thunk), false);
  assert.equal(L.isCapped(nil), true);
  assert.equal(L.isEmpty(L.cap(thunk)), true);
  assert.equal(L.numCtrForced(L.cons(1, L.cons(thunk, nil))), 3); // 1 : _ : []
  assert.equal(L.numCtrForced(L.cons(thunk, thunk)), 1); // _ : _
  assert.equal(L.numCtrForced(thunk), 0);
  assert.equal(L.numCtrForced(nil), 1);
  assert.equal(L.numCtrForced(d), 2);
  // a tail that reaches thunk when forced counts as unevaluated too
  assert.equal(L.numCtrForced(L.cons(1, lazy(() => (thunk as List<number>).force()))), 1);
});

// ---------------------------------------------------------------------------------------------
// Stack safety

const N = 30_000; // twice the deepest a recursion of one frame a level goes on the default stack (15,400 frames): a recursive walk overflows
const bigArray = Array.from({ length: N }, (_, i) => i);

test('stack safety: 30,000 cells', () => {
  const big = L.fromArray(bigArray);
  assert.equal(L.length(big), N);
  assert.equal(L.toArray(big).length, N);
  assert.equal(L.head(L.reverse(big)), N - 1);
  assert.equal(L.length(L.append(big, big)), 2 * N);
  assert.equal(L.index(L.map((x) => x + 1, big), N - 1), N);
  assert.equal(L.toArray(L.take(N, big)).length, N);
  assert.equal(L.isEmpty(L.drop(N, big)), true);
  assert.equal(L.isEmpty(L.filter(() => false, big)), true);
  assert.equal(L.isEmpty(L.dropWhile(() => true, big)), true);
  assert.equal(L.sum(L.zipWith((a, b) => a - b, big, big)), 0);
  assert.equal(L.foldl((a, x) => a + x, 0, big), (N * (N - 1)) / 2);
  // a demand with N cells and a thunk tail
  let open: List<number> = thunk;
  for (let i = 0; i < N; i++) open = L.lazyCons(thunk, open);
  assert.equal(L.length(L.cap(open)), N);
  assert.equal(L.numCtrForced(open), N);
  assert.equal(L.isCapped(open), false);
});

test('stack safety: other operations on long lists', () => {
  const M = N; // well beyond the ~2,000 nested forces a recursion would survive
  const xs = L.range(0, M - 1);
  assert.equal(L.index(L.map((x) => x * 2, L.map((x) => x + 1, L.map((x) => x - 1, xs))), M - 1), 2 * (M - 1));
  assert.equal(L.length(L.takeWhile(() => true, xs)), M);
  assert.equal(L.listEquals(xs, L.fromArray(bigArray.slice(0, M))), true);
  assert.equal(L.length(L.foldr<number, Cell<number>>((x, acc) => new Cons(x, acc), NIL, xs)), M);
  assert.equal(L.length(L.concat(L.replicate(M, now<List<number>>(nil)))), 0);
  assert.equal(L.length(L.concat(L.map((x) => L.fromArray([x, x]), xs))), 2 * M);
  assert.equal(L.length(L.mapLazy((x) => x, xs)), M);
  assert.equal(L.length(L.zip(xs, L.cycle(L.fromArray([1, 2])))), M);
  assert.equal(L.length(L.splitAt(M / 2, xs)[1]), M / 2);
  assert.equal(L.toLazyArray(L.reverse(xs)).length, M);
});

test('stack safety: iterate element 30,000 steps away', () => {
  assert.equal(L.index(L.iterate((x) => x + 1, 0), N), N);
});

test('stack safety: deep nesting', () => {
  const D = 10_000;
  // left- and right-nested appends of singletons
  let left: List<number> = nil;
  let right: List<number> = nil;
  for (let i = 0; i < D; i++) {
    left = L.append(left, L.fromArray([i]));
    right = L.append(L.fromArray([D - 1 - i]), right);
  }
  assert.deepEqual(L.toArray(left), Array.from({ length: D }, (_, i) => i));
  assert.deepEqual(L.toArray(right), Array.from({ length: D }, (_, i) => i));
  // right-nested appends of unevaluated empty lists, then one cell
  let empties: List<number> = L.cons(1, nil);
  for (let i = 0; i < D; i++) empties = L.append(lazy(() => NIL), empties);
  assert.equal(L.head(empties), 1);
  // map nested 10,000 deep: each cell and element is a Lazy.map chain
  let m = L.fromArray([0, 1, 2]);
  for (let i = 0; i < D; i++) m = L.map((x) => x + 1, m);
  assert.deepEqual(L.toArray(m), [D, D + 1, D + 2]);
  // tail/drop applied 100,000 times in a loop
  let t = L.enumFrom(0);
  for (let i = 0; i < 100_000; i++) t = i % 2 ? L.tail(t) : L.drop(1, t);
  assert.equal(L.head(t), 100_000);
  let tt = L.fromArray([1, 2, 3]);
  for (let i = 0; i < D; i++) tt = L.tail(tt);
  assert.throws(() => tt.force(), /tail: empty list/);
  // take nested in a loop
  let k = L.enumFrom(0);
  for (let i = 0; i < D; i++) k = L.take(D - i, k);
  assert.deepEqual(L.toArray(k), [0]);
  // a queue built by appending, its head peeked each time: the appends' unforced tails nest
  let q: List<number> = nil;
  for (let i = 0; i < D; i++) {
    q = L.append(q, L.fromArray([i]));
    L.head(q);
  }
  assert.equal(L.sum(q), (D * (D - 1)) / 2);
});

test('stack safety: other operations nested 1,000 deep (one recursion per level, like GHC)', () => {
  const D = 1000;
  let mixed: List<number> = nil;
  for (let i = 0; i < D; i++) {
    mixed = L.append(mixed, L.fromArray([i, i]));
    if (i % 2) mixed = L.tail(mixed);
  }
  assert.equal(L.length(mixed), 1.5 * D);
  let f = L.enumFrom(0);
  let z = L.enumFrom(0);
  let w = L.enumFrom(0);
  let r = L.range(0, 9);
  for (let i = 0; i < D; i++) {
    f = L.filter((x) => x % 2 === 0, f);
    z = L.zipWith((a, b) => a + b, L.enumFrom(0), z);
    w = L.dropWhile((x) => x < i, w);
    r = L.reverse(r);
  }
  assert.equal(L.index(f, 3), 6);
  assert.equal(L.index(z, 3), 3 * (D + 1));
  assert.equal(L.head(w), D - 1);
  assert.deepEqual(L.toArray(r), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
});

test('plain values and Lazy are distinguished by cons', () => {
  const x: Lazy<number> = lazy(() => 3);
  assert.equal(L.uncons(L.cons(x, nil))![0], x);
  assert.equal(L.head(L.cons(3, nil)), 3);
});
