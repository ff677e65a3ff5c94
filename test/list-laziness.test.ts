/**
 * Each `List` function against GHC's laziness: observed on small inputs under a few result
 * demands, its demands on its inputs are those the Haskell definition gives. Beside each test is
 * the definition from base (GHC.List, GHC.Base, GHC.Classes; StrictCheck's own for the demand
 * helpers) and how the expected demands follow from it. Where this library differs on purpose,
 * `differs` records both GHC's demand and this library's, which the module doc and the README
 * ("Lazy lists") state.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lazy, thunk, type Lazy } from '../src/lazy/lazy.ts';
import * as L from '../src/lazy/list.ts';
import { toDemand } from '../src/demand/convert.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { normalize, observeDetailed, toContext, whnf, type Context } from '../src/demand/observe.ts';

/**
 * A flat list demand in value form, written as it prints: `_` an unevaluated element or tail, a
 * number an evaluated element, `[]` the end (`_ : 0 : []` is two cells, the second's element and
 * the end; `_` alone is nothing).
 */
function demandValue(demand: string): L.List<number> {
  const parts = demand.split(' : ');
  let d: L.List<number> = parts.pop() === '[]' ? L.nil : thunk;
  for (const p of parts.reverse()) d = p === '_' ? L.lazyCons(thunk, d) : L.cons(Number(p), d);
  return d;
}

/** The context that forces a list result exactly as far as `demand` (see {@link demandValue}). */
const upTo = (demand: string): Context => toContext(toDemand(demandValue(demand)));

/** The context that forces a pair of lists: the pair, then each component as far as its demand. */
const pairUpTo = (first: string, second: string): Context => toContext(toDemand([demandValue(first), demandValue(second)]));

/** The demands `fn` puts on its inputs when `context` forces its result, printed; then `throws: message` if it threw. */
function inputDemands(context: Context, fn: (...args: any[]) => unknown, ...inputs: unknown[]): string[] {
  const o = observeDetailed(context, fn, inputs);
  const printed = o.inputs.map((d) => prettyDemand(d));
  return o.error ? [...printed, `throws: ${(o.error.thrown as Error).message}`] : printed;
}

/** A documented difference: GHC's definition gives `ghc`, this library gives `here`. */
function differs(actual: string[], { ghc, here }: { ghc: string[]; here: string[] }) {
  assert.notDeepEqual(here, ghc, 'not a difference: use assert.deepEqual with GHC demand');
  assert.deepEqual(actual, here);
}

const xs123 = () => L.fromArray([1, 2, 3]);
const five = (): Lazy<number> => lazy(() => 5);

describe('observations', () => {
  // length xs = lenAcc xs 0; lenAcc [] n = n; lenAcc (_:ys) n = lenAcc ys (n+1)
  // The whole spine, no element. An unforced `length xs` forces nothing; a call to a function
  // whose result is a value is that value forced (documented).
  test('length forces the whole spine and no element, when it is called', () => {
    assert.deepEqual(inputDemands(whnf, L.length, xs123()), ['_ : _ : _ : []']);
    differs(inputDemands(upTo('_'), L.length, xs123()), { ghc: ['_'], here: ['_ : _ : _ : []'] });
  });

  // null [] = True; null (_:_) = False
  test('isEmpty (and isNil) force the first cell only', () => {
    assert.deepEqual(inputDemands(whnf, L.isEmpty, xs123()), ['_ : _']);
    assert.deepEqual(inputDemands(whnf, L.isNil, L.nil), ['[]']);
  });

  // head (x:_) = x; head [] = badHead
  // The result to WHNF is the first element to WHNF.
  test('head forces the first cell and its element', () => {
    assert.deepEqual(inputDemands(whnf, L.head, xs123()), ['1 : _']);
    assert.deepEqual(inputDemands(whnf, L.head, L.nil), ['[]', 'throws: head: empty list']);
  });

  // tail (_:xs) = xs; tail [] = errorEmptyList "tail"
  // Forcing the result forces the first cell, then the tail it is.
  test('tail forces nothing until its result is forced, then the first cell and the tail', () => {
    assert.deepEqual(inputDemands(upTo('_'), L.tail, xs123()), ['_']);
    assert.deepEqual(inputDemands(whnf, L.tail, xs123()), ['_ : _ : _']);
    assert.deepEqual(inputDemands(whnf, L.tail, L.fromArray([1])), ['_ : []']);
    assert.deepEqual(inputDemands(whnf, L.tail, L.nil), ['[]', 'throws: tail: empty list']);
  });

  // uncons [] = Nothing; uncons (x:xs) = Just (x, xs)
  test('uncons forces the first cell only', () => {
    assert.deepEqual(inputDemands(whnf, L.uncons, xs123()), ['_ : _']);
    assert.deepEqual(inputDemands(normalize, L.uncons, xs123()), ['1 : 2 : 3 : []']);
  });

  // xs !! n | n < 0 = negIndex
  //         | otherwise = foldr (\x r k -> case k of 0 -> x; _ -> r (k-1)) tooLarge xs n
  // Cells up to n, then element n; a negative index looks at nothing; too large walks the spine.
  test('index forces the spine up to cell i and element i only', () => {
    assert.deepEqual(inputDemands(whnf, (xs: L.List<number>) => L.index(xs, 1), xs123()), ['_ : 2 : _']);
    assert.deepEqual(inputDemands(whnf, (xs: L.List<number>) => L.index(xs, -1), xs123()), ['_', 'throws: index: negative index -1']);
    assert.deepEqual(inputDemands(whnf, (xs: L.List<number>) => L.index(xs, 3), xs123()), ['_ : _ : _ : []', 'throws: index: index 3 too large']);
  });
});

describe('transformations', () => {
  // (++) [] ys = ys; (++) (x:xs) ys = x : xs ++ ys
  // One cell of xs per result cell; ys only past the end of xs, then as far as the result.
  test('append forces ys only once xs is exhausted', () => {
    const app = (xs: L.List<number>, ys: L.List<number>) => L.append(xs, ys);
    const [ab, cd] = [() => L.fromArray([1, 2]), () => L.fromArray([3, 4])];
    assert.deepEqual(inputDemands(upTo('_'), app, ab(), cd()), ['_', '_']);
    assert.deepEqual(inputDemands(whnf, app, ab(), cd()), ['_ : _', '_']);
    assert.deepEqual(inputDemands(upTo('_ : _ : _ : _'), app, ab(), cd()), ['_ : _ : []', '_ : _']);
    assert.deepEqual(inputDemands(normalize, app, ab(), cd()), ['1 : 2 : []', '3 : 4 : []']);
  });

  // concat = foldr (++) []
  // A result cell forces outer cells and inner lists up to the next inner cons.
  test('concat forces the outer list only as far as the next non-empty inner list', () => {
    const xss = () => L.fromArray([L.nil, L.fromArray([1]), L.fromArray([2, 3])]);
    assert.deepEqual(inputDemands(whnf, L.concat, xss()), ['[] : (_ : _) : _']);
    assert.deepEqual(inputDemands(upTo('_ : _ : _'), L.concat, xss()), ['[] : (_ : []) : (_ : _) : _']);
    assert.deepEqual(inputDemands(normalize, L.concat, xss()), ['[] : (1 : []) : (2 : 3 : []) : []']);
  });

  // reverse l = rev l [] where rev [] a = a; rev (x:xs) a = rev xs (x:a)
  // The whole spine for the first cell; element i of the result is element n-1-i of xs.
  test('reverse forces the whole spine, and elements as the result demands them', () => {
    assert.deepEqual(inputDemands(upTo('_'), L.reverse, xs123()), ['_']);
    assert.deepEqual(inputDemands(whnf, L.reverse, xs123()), ['_ : _ : _ : []']);
    assert.deepEqual(inputDemands(upTo('0 : _'), L.reverse, xs123()), ['_ : _ : 3 : []']);
  });

  // take n xs | 0 < n = unsafeTake n xs | otherwise = []
  // unsafeTake !_ [] = []; unsafeTake 1 (x:_) = [x]; unsafeTake m (x:xs) = x : unsafeTake (m-1) xs
  // The n-th result cell does not look past cell n; n <= 0 looks at nothing.
  test('take forces one cell per result cell and never the cell after the n-th', () => {
    const take = (n: number) => (xs: L.List<number>) => L.take(n, xs);
    assert.deepEqual(inputDemands(upTo('_'), take(2), xs123()), ['_']);
    assert.deepEqual(inputDemands(whnf, take(2), xs123()), ['_ : _']);
    assert.deepEqual(inputDemands(normalize, take(2), xs123()), ['1 : 2 : _']);
    assert.deepEqual(inputDemands(normalize, take(0), xs123()), ['_']);
    assert.deepEqual(inputDemands(normalize, take(5), xs123()), ['1 : 2 : 3 : []']);
  });

  // drop n ls | n <= 0 = ls | otherwise = unsafeDrop n ls
  // unsafeDrop !_ [] = []; unsafeDrop 1 (_:xs) = xs; unsafeDrop m (_:xs) = unsafeDrop (m-1) xs
  // Forcing the result forces n cells, then the rest (the result) to WHNF.
  test('drop forces n cells and the rest when its result is forced', () => {
    const drop = (n: number) => (xs: L.List<number>) => L.drop(n, xs);
    assert.deepEqual(inputDemands(upTo('_'), drop(1), xs123()), ['_']);
    assert.deepEqual(inputDemands(whnf, drop(1), xs123()), ['_ : _ : _']);
    assert.deepEqual(inputDemands(whnf, drop(0), xs123()), ['_ : _']);
    assert.deepEqual(inputDemands(whnf, drop(5), xs123()), ['_ : _ : _ : []']);
  });

  // splitAt n ls | n <= 0 = ([], ls) | otherwise = splitAt' n ls
  //   where splitAt' _ []     = ([], [])
  //         splitAt' 1 (x:xs) = ([x], xs)
  //         splitAt' m (x:xs) = (x:xs', xs'') where (xs', xs'') = splitAt' (m - 1) xs
  // (not the Report's (take n xs, drop n xs)). The pair, which a JavaScript call returns forced,
  // needs n and, when n > 0, the first cell; the components then force what take and drop do:
  // xs' is one splitAt' deeper (one cell), xs'' the tail after n cells, forced with the result.
  test("splitAt forces the first cell with the pair when n > 0, as GHC's splitAt' does", () => {
    const splitAt = (n: number) => (xs: L.List<number>) => L.splitAt(n, xs);
    assert.deepEqual(inputDemands(pairUpTo('_', '_'), splitAt(2), xs123()), ['_ : _']);
    assert.deepEqual(inputDemands(pairUpTo('_', '_'), splitAt(2), L.nil), ['[]']);
    assert.deepEqual(inputDemands(pairUpTo('_', '_'), splitAt(0), xs123()), ['_']);
    assert.deepEqual(inputDemands(pairUpTo('_', '_ : _'), splitAt(0), xs123()), ['_ : _']);
    assert.deepEqual(inputDemands(pairUpTo('0 : 0 : []', '_'), splitAt(2), xs123()), ['1 : 2 : _']);
    assert.deepEqual(inputDemands(pairUpTo('_', '_ : _'), splitAt(2), xs123()), ['_ : _ : _ : _']);
    assert.deepEqual(inputDemands(normalize, splitAt(2), xs123()), ['1 : 2 : 3 : []']);
  });

  // takeWhile _ [] = []
  // takeWhile p (x:xs) | p x = x : takeWhile p xs | otherwise = []
  // One cell and its element (for a strict p) per result cell, and the first failing one.
  test('takeWhile forces cells and elements up to the first failing element', () => {
    const below3 = (xs: L.List<number>) => L.takeWhile((x: number) => x < 3, xs);
    const xs = () => L.fromArray([1, 2, 3, 1]);
    assert.deepEqual(inputDemands(upTo('_'), below3, xs()), ['_']);
    assert.deepEqual(inputDemands(whnf, below3, xs()), ['1 : _']);
    assert.deepEqual(inputDemands(normalize, below3, xs()), ['1 : 2 : 3 : _']);
  });

  // dropWhile _ [] = []
  // dropWhile p xs@(x:xs') | p x = dropWhile p xs' | otherwise = xs
  test('dropWhile forces cells and elements up to the first failing one when its result is forced', () => {
    const below2 = (xs: L.List<number>) => L.dropWhile((x: number) => x < 2, xs);
    assert.deepEqual(inputDemands(upTo('_'), below2, xs123()), ['_']);
    assert.deepEqual(inputDemands(whnf, below2, xs123()), ['1 : 2 : _']);
  });

  // map _ [] = []; map f (x:xs) = f x : map f xs
  // One cell per result cell; element i (for a strict f) when result element i is forced.
  test('map forces one cell per result cell and an element when its image is forced', () => {
    const inc = (xs: L.List<number>) => L.map((x: number) => x + 1, xs);
    assert.deepEqual(inputDemands(upTo('_ : _'), inc, xs123()), ['_ : _']);
    assert.deepEqual(inputDemands(upTo('_ : 0 : _'), inc, xs123()), ['_ : 2 : _']);
    assert.deepEqual(inputDemands(normalize, inc, xs123()), ['1 : 2 : 3 : []']);
  });

  // mapLazy is map with a function of the unevaluated element (GHC's map with any f).
  test('mapLazy forces an element only as its function does', () => {
    assert.deepEqual(inputDemands(normalize, (xs: L.List<number>) => L.mapLazy(() => 0, xs), xs123()), ['_ : _ : _ : []']);
    assert.deepEqual(inputDemands(upTo('_ : 0 : _'), (xs: L.List<number>) => L.mapLazy((x) => x.force() + 1, xs), xs123()), ['_ : 2 : _']);
  });

  // filter _ [] = []
  // filter pred (x:xs) | pred x = x : filter pred xs | otherwise = filter pred xs
  // A result cell forces cells and elements up to the next match (or the end).
  test('filter forces cells and elements up to the next match', () => {
    const odd = (xs: L.List<number>) => L.filter((x: number) => x % 2 === 1, xs);
    const xs = () => L.fromArray([1, 2, 3, 4]);
    assert.deepEqual(inputDemands(upTo('_'), odd, xs()), ['_']);
    assert.deepEqual(inputDemands(whnf, odd, xs()), ['1 : _']);
    assert.deepEqual(inputDemands(upTo('_ : _ : _'), odd, xs()), ['1 : 2 : 3 : _']);
    assert.deepEqual(inputDemands(normalize, odd, xs()), ['1 : 2 : 3 : 4 : []']);
  });

  // zipWith f = go where go [] _ = []; go _ [] = []; go (x:xs) (y:ys) = f x y : go xs ys
  // A result cell forces a cell of xs, then, only if it is a cons, a cell of ys.
  test('zipWith forces a cell of ys only beside a cons of xs', () => {
    const plus = (xs: L.List<number>, ys: L.List<number>) => L.zipWith((a: number, b: number) => a + b, xs, ys);
    const [xs, ys] = [() => L.fromArray([1, 2]), () => L.fromArray([10, 20, 30])];
    assert.deepEqual(inputDemands(whnf, plus, xs(), ys()), ['_ : _', '_ : _']);
    assert.deepEqual(inputDemands(upTo('0 : _'), plus, xs(), ys()), ['1 : _', '10 : _']);
    assert.deepEqual(inputDemands(normalize, plus, xs(), ys()), ['1 : 2 : []', '10 : 20 : _']);
    assert.deepEqual(inputDemands(normalize, plus, L.nil, ys()), ['[]', '_']);
  });

  // zipWithLazy is zipWith with a function of the unevaluated elements (GHC's zipWith with any f).
  test('zipWithLazy forces elements only as its function does', () => {
    const first = (xs: L.List<number>, ys: L.List<number>) => L.zipWithLazy((a: Lazy<number>) => a, xs, ys);
    assert.deepEqual(inputDemands(normalize, first, L.fromArray([1, 2]), L.fromArray([10, 20, 30])), ['1 : 2 : []', '_ : _ : _']);
  });

  // zip [] _bs = []; zip _as [] = []; zip (a:as) (b:bs) = (a,b) : zip as bs
  // The spine is zipWith's. The pair is a constructor built with a and b unevaluated, so forcing
  // it forces neither; here a pair holds values, so forcing it forces both (documented).
  test("zip has zipWith's spine, and forcing a pair forces both its components (documented)", () => {
    const zip = (xs: L.List<number>, ys: L.List<number>) => L.zip(xs, ys);
    const [xs, ys] = [() => L.fromArray([1, 2]), () => L.fromArray([10, 20, 30])];
    assert.deepEqual(inputDemands(whnf, zip, xs(), ys()), ['_ : _', '_ : _']);
    assert.deepEqual(inputDemands(normalize, zip, xs(), ys()), ['1 : 2 : []', '10 : 20 : _']);
    assert.deepEqual(inputDemands(normalize, zip, L.nil, ys()), ['[]', '_']);
    const firstPair = toContext(toDemand(L.cons([thunk, thunk], thunk)));
    differs(inputDemands(firstPair, zip, xs(), ys()), { ghc: ['_ : _', '_ : _'], here: ['1 : _', '10 : _'] });
    // The documented way to GHC's pairs.
    const lazyPairs = (xs: L.List<number>, ys: L.List<number>) => L.zipWithLazy((a: Lazy<number>, b: Lazy<number>) => [a, b] as const, xs, ys);
    assert.deepEqual(inputDemands(firstPair, lazyPairs, xs(), ys()), ['_ : _', '_ : _']);
  });
});

describe('folds', () => {
  // foldr k z = go where go [] = z; go (y:ys) = y `k` go ys
  // The first cell, then as much as k demands of its element and of the fold of the rest; z only
  // at the end of the list, and only if the result there is demanded.
  test('foldr forces as much as its function demands', () => {
    const anyAbove1 = (xs: L.List<number>) => L.foldr((x, acc: Lazy<boolean>) => x.force() > 1 || acc.force(), false, xs);
    const total = (xs: L.List<number>) => L.foldr((x, acc: Lazy<number>) => x.force() + acc.force(), 0, xs);
    const constant = (xs: L.List<number>) => L.foldr(() => 7, 0, xs);
    assert.deepEqual(inputDemands(upTo('_'), total, xs123()), ['_']);
    assert.deepEqual(inputDemands(whnf, anyAbove1, xs123()), ['1 : 2 : _']);
    assert.deepEqual(inputDemands(whnf, total, xs123()), ['1 : 2 : 3 : []']);
    assert.deepEqual(inputDemands(whnf, constant, xs123()), ['_ : _']);
  });

  // z is a JavaScript value, evaluated before the call (documented); a lazy z (U a Lazy type)
  // is forced only when the fold reaches the end of the list and its result there is demanded.
  test('foldr forces a lazy starting value only at the end of the list', () => {
    const firstOr = (z: Lazy<number>, xs: L.List<number>) => L.foldr((x: Lazy<number>) => x, z, xs);
    assert.deepEqual(inputDemands(normalize, firstOr, five(), xs123()), ['_', '1 : _']);
    assert.deepEqual(inputDemands(normalize, firstOr, five(), L.nil), ['5', '[]']);
  });

  // foldl k z0 xs = foldr (\v fn -> oneShot (\z -> fn (k z v))) id xs z0
  // foldl' k z0 xs = foldr (\v fn -> oneShot (\z -> z `seq` fn (k z v))) id xs z0
  // Both force the whole spine. foldl builds k's applications as thunks and forces only the
  // outermost, so `foldl (\_ x -> x)` forces the last element alone; foldl' forces each
  // accumulator as it goes, so every element. foldl here is foldl' (documented).
  test("foldl forces the whole spine, and elements as foldl' does (documented)", () => {
    const total = (xs: L.List<number>) => L.foldl((a: number, x: number) => a + x, 0, xs);
    const last = (xs: L.List<number>) => L.foldl((_: number, x: number) => x, 0, xs);
    assert.deepEqual(inputDemands(whnf, total, xs123()), ['1 : 2 : 3 : []']);
    differs(inputDemands(whnf, last, xs123()), { ghc: ['_ : _ : 3 : []'], here: ['1 : 2 : 3 : []'] });
  });

  // sum = foldl' (+) 0
  test('sum forces the whole list', () => {
    assert.deepEqual(inputDemands(whnf, L.sum, xs123()), ['1 : 2 : 3 : []']);
  });

  // all _ [] = True; all p (x:xs) = p x && all p xs
  // any _ [] = False; any p (x:xs) = p x || any p xs
  test('all and any force cells and elements up to the element that decides', () => {
    const allAbove = (k: number) => (xs: L.List<number>) => L.all((x: number) => x > k, xs);
    const anyAbove = (k: number) => (xs: L.List<number>) => L.any((x: number) => x > k, xs);
    assert.deepEqual(inputDemands(whnf, allAbove(1), xs123()), ['1 : _']);
    assert.deepEqual(inputDemands(whnf, allAbove(0), xs123()), ['1 : 2 : 3 : []']);
    assert.deepEqual(inputDemands(whnf, anyAbove(1), xs123()), ['1 : 2 : _']);
    assert.deepEqual(inputDemands(whnf, anyAbove(5), xs123()), ['1 : 2 : 3 : []']);
  });

  // elem _ [] = False; elem x (y:ys) = x == y || elem x ys
  test('elem forces cells and elements up to the first match', () => {
    assert.deepEqual(inputDemands(whnf, (xs: L.List<number>) => L.elem(2, xs), xs123()), ['1 : 2 : _']);
    assert.deepEqual(inputDemands(whnf, (xs: L.List<number>) => L.elem(5, xs), xs123()), ['1 : 2 : 3 : []']);
  });

  // instance Eq a => Eq [a]: [] == [] = True; (x:xs) == (y:ys) = x == y && xs == ys; _ == _ = False
  // Matching forces a cell of each list in step (the second even when the first is []), then
  // both elements, up to the first difference.
  test('listEquals forces both lists in step up to the first difference', () => {
    const eq = (xs: L.List<number>, ys: L.List<number>) => L.listEquals(xs, ys);
    assert.deepEqual(inputDemands(whnf, eq, xs123(), L.fromArray([1, 5, 3])), ['1 : 2 : _', '1 : 5 : _']);
    assert.deepEqual(inputDemands(whnf, eq, L.fromArray([1]), L.fromArray([1, 2])), ['1 : []', '1 : _ : _']);
    assert.deepEqual(inputDemands(whnf, eq, L.nil, L.fromArray([1])), ['[]', '_ : _']);
  });
});

describe('functions given their element forced (documented)', () => {
  // GHC passes an element unevaluated: a function that ignores it leaves it alone. Here the
  // functions take values, so the element is forced before the call (mapLazy, zipWithLazy and
  // foldr are the lazy forms).
  test("map, zipWith, filter, takeWhile, dropWhile, all, any, foldl, iterate and listEquals's eq force the elements they pass", () => {
    const spine = ['_ : _ : _ : []'];
    const forced = ['1 : 2 : 3 : []'];
    const always = () => true;
    differs(inputDemands(normalize, (xs: L.List<number>) => L.map(() => 0, xs), xs123()), { ghc: spine, here: forced });
    differs(inputDemands(normalize, (xs: L.List<number>) => L.filter(always, xs), xs123()), { ghc: spine, here: forced });
    differs(inputDemands(normalize, (xs: L.List<number>) => L.takeWhile(always, xs), xs123()), { ghc: spine, here: forced });
    differs(inputDemands(whnf, (xs: L.List<number>) => L.dropWhile(always, xs), xs123()), { ghc: spine, here: forced });
    differs(inputDemands(whnf, (xs: L.List<number>) => L.all(always, xs), xs123()), { ghc: spine, here: forced });
    differs(inputDemands(whnf, (xs: L.List<number>) => L.any(() => false, xs), xs123()), { ghc: spine, here: forced });
    differs(inputDemands(whnf, (xs: L.List<number>) => L.foldl((a: number) => a + 1, 0, xs), xs123()), { ghc: spine, here: forced });
    // An Eq instance whose (==) ignores its arguments leaves the elements alone.
    const equal = (xs: L.List<number>, ys: L.List<number>) => L.listEquals(xs, ys, always);
    differs(inputDemands(whnf, equal, L.fromArray([1]), L.fromArray([2])), { ghc: ['_ : []', '_ : []'], here: ['1 : []', '2 : []'] });
    const zipWith = (xs: L.List<number>, ys: L.List<number>) => L.zipWith(() => 0, xs, ys);
    differs(inputDemands(normalize, zipWith, L.fromArray([1]), L.fromArray([2])), { ghc: ['_ : []', '_ : _'], here: ['1 : []', '2 : _'] });
    // iterate f x = x : iterate f (f x): element 2 is f (f x), which a constant f computes without x.
    differs(inputDemands(upTo('_ : _ : 0 : _'), (x: Lazy<number>) => L.iterate(() => 0, x), five()), { ghc: ['_'], here: ['5'] });
  });
});

describe('generated lists', () => {
  // (:) is a constructor: it evaluates neither field.
  test('cons and lazyCons force neither the element nor the tail', () => {
    assert.deepEqual(inputDemands(whnf, (x: Lazy<number>, t: L.List<number>) => L.lazyCons(x, t), five(), xs123()), ['_', '_']);
    assert.deepEqual(inputDemands(whnf, (x: Lazy<number>, t: L.List<number>) => L.cons(x, t), five(), xs123()), ['_', '_']);
  });

  // repeat x = xs where xs = x : xs
  test('repeat forces its element only when an element of the result is forced', () => {
    const rep = (x: Lazy<number>) => L.repeat(x);
    assert.deepEqual(inputDemands(upTo('_ : _ : _'), rep, five()), ['_']);
    assert.deepEqual(inputDemands(upTo('_ : 0 : _'), rep, five()), ['5']);
  });

  // iterate f x = x : iterate f (f x)
  test('iterate forces x only when an element of the result is forced', () => {
    const inc = (x: Lazy<number>) => L.iterate((v: number) => v + 1, x);
    assert.deepEqual(inputDemands(upTo('_ : _ : _'), inc, five()), ['_']);
    assert.deepEqual(inputDemands(upTo('_ : _ : 0 : _'), inc, five()), ['5']);
  });

  // replicate n x = take n (repeat x)
  test('replicate forces its element only when an element of the result is', () => {
    const rep = (n: number) => (x: Lazy<number>) => L.replicate(n, x);
    assert.deepEqual(inputDemands(whnf, rep(2), five()), ['_']);
    assert.deepEqual(inputDemands(normalize, rep(2), five()), ['5']);
    assert.deepEqual(inputDemands(normalize, rep(0), five()), ['_']);
  });

  // cycle [] = errorEmptyList "cycle"; cycle xs = xs' where xs' = xs ++ xs'
  // Forcing the result forces the first cell (to check for []); then cells as append does.
  test('cycle forces the first cell with its result, then one cell per result cell', () => {
    assert.deepEqual(inputDemands(upTo('_'), L.cycle, L.fromArray([1, 2])), ['_']);
    assert.deepEqual(inputDemands(whnf, L.cycle, L.fromArray([1, 2])), ['_ : _']);
    assert.deepEqual(inputDemands(upTo('_ : _ : _ : _'), L.cycle, L.fromArray([1, 2])), ['_ : _ : []']);
    assert.deepEqual(inputDemands(whnf, L.cycle, L.nil), ['[]', 'throws: cycle: empty list']);
  });

  // enumFromTo and enumFrom on Int (eftInt, enumFrom) make one cell per force: only as much of
  // the range as is demanded is built, however long it is.
  test('range and enumFrom build only the cells that are forced', () => {
    assert.deepEqual(L.toArray(L.take(2, L.range(1, Number.MAX_SAFE_INTEGER))), [1, 2]);
    assert.deepEqual(L.toArray(L.take(2, L.enumFrom(7))), [7, 8]);
  });

  // Conversions, with no Haskell namesake: toArray forces the spine and every element (as
  // forcing each element of a list in turn), toLazyArray the spine alone (as length);
  // fromLazyArray keeps its elements unevaluated (as a list literal does).
  test('conversions force what they say', () => {
    assert.deepEqual(inputDemands(whnf, L.toArray, xs123()), ['1 : 2 : 3 : []']);
    assert.deepEqual(inputDemands(whnf, L.toLazyArray, xs123()), ['_ : _ : _ : []']);
    assert.deepEqual(inputDemands(upTo('_ : _ : []'), (x: Lazy<number>, y: Lazy<number>) => L.fromLazyArray([x, y]), five(), five()), ['_', '_']);
  });
});

describe('demand helpers (StrictCheck, not base)', () => {
  // replaceThunk r xs | isThunk xs = r; replaceThunk _ [] = []; replaceThunk r (x:xs) = x : replaceThunk r xs
  // cap = replaceThunk []. isThunk forces its argument, so one cell per result cell.
  // numCtrForced and isCapped walk the spine to its end (or a thunk).
  test('cap forces one cell per result cell; isCapped and numCtrForced walk the spine', () => {
    assert.deepEqual(inputDemands(whnf, L.cap, xs123()), ['_ : _']);
    assert.deepEqual(inputDemands(upTo('_ : _ : _'), L.cap, xs123()), ['_ : _ : _']);
    assert.deepEqual(inputDemands(whnf, L.isCapped, xs123()), ['_ : _ : _ : []']);
    assert.deepEqual(inputDemands(whnf, L.numCtrForced, xs123()), ['_ : _ : _ : []']);
  });
});
