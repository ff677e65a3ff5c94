/**
 * Lazy list operations with the laziness of their namesakes in GHC's base: forcing a result to
 * some depth forces exactly the input cells and elements that GHC's version would, but for these
 * differences (test/list-laziness.test.ts sets each function beside GHC's definition):
 * - A function of values gets its element forced, where GHC's gets it unevaluated: the function
 *   given to `map` or `zipWith` (when a result element is forced), `filter`, `takeWhile`,
 *   `dropWhile`, `all`, `any`, `foldl`, `iterate` or `listEquals` (`eq`, whose `===` default is
 *   `==` on a flat type). `mapLazy`, `zipWithLazy` and `foldr` pass elements unforced.
 * - `zip`'s pairs hold values: forcing a pair forces both components, where GHC's pair holds them
 *   unevaluated (`zipWithLazy` with a function returning `[a, b]` makes GHC's pairs).
 * - `foldl` is `foldl'`: it applies its function at each cell as it walks, so a function that
 *   returns its element forces every element, where GHC's `foldl` forces the last only.
 * - `foldr`'s starting value is a value, evaluated before the call, where GHC's is forced only if
 *   the fold reaches the end of the list; make it a `Lazy` (the fold's `U` a `Lazy` type) for that.
 * - A function whose result is a value rather than a `Lazy` (`length`, `head`, `uncons`, `index`,
 *   `foldl`, `all`, `elem`, `listEquals`, `splitAt`'s pair...) forces when it is called, as the
 *   Haskell expression does when forced.
 *
 * Stack safety: strict consumers loop over the spine; each cell of a lazy producer forces O(1)
 * input cells, through `Lazy.map` (forced by Lazy's loop, so `map`/`take`/... nest to any depth)
 * or `defer` when a result is another list re-exported (so chains of re-exports are followed by
 * Lazy's loop). Operations that skip input cells (`drop`, `filter`...) loop inside one thunk.
 * Unforced chains of `append`, and of `drop`/`tail`, are rewritten before forcing, so they nest to
 * any depth; other operations nested in each other recurse once per level (fine to ~2,000 levels).
 * @module
 */
import { Lazy, defer, deferredWith, deferWith, isLazy, isThunk, lazy, now, thunk } from './lazy.ts';
import { Cons, NIL, nil, type Cell, type List } from './cell.ts';

// Re-exported for convenience: other modules import the list type and cells from here.
export type { Cell, List } from './cell.ts';
export { Cons, Nil, NIL, nil } from './cell.ts';

const toLazy = <T>(x: T | Lazy<T>): Lazy<T> => (isLazy(x) ? (x as Lazy<T>) : now(x as T));

// ---------------------------------------------------------------------------------------------
// Construction and conversion

/**
 * An evaluated cons cell; a `Lazy` head is kept as is (so `cons(thunk, thunk)` is the demand
 * `_ : _`), a plain value is wrapped. A list is a `Lazy` too, so an element that is a list must be
 * given wrapped, `cons(now(inner), rest)`: given bare, it is read as the thunk of an element that
 * is a cell (the type inferred says so, `List<Cell<…>>`; `cons<List<number>>(inner, rest)` hides
 * it). The same holds for {@link repeat}, {@link replicate} and {@link iterate}.
 */
export function cons<T>(head: T | Lazy<T>, tail: List<T>): List<T> {
  return now(new Cons(toLazy(head), tail));
}

/** An evaluated cons cell with an explicitly lazy head. */
export function lazyCons<T>(head: Lazy<T>, tail: List<T>): List<T> {
  return now(new Cons(head, tail));
}

/** A fully evaluated list of the array's elements. */
export function fromArray<T>(xs: readonly T[]): List<T> {
  let l: List<T> = nil;
  for (let i = xs.length - 1; i >= 0; i--) l = now(new Cons(now(xs[i]!), l));
  return l;
}

/** A fully evaluated list of the string's characters (code points, like Haskell's `String`). */
export function fromString(s: string): List<string> {
  return fromArray(Array.from(s));
}

/** An evaluated spine holding the given lazy elements (not forced), then `tail` (by default the empty list). */
export function fromLazyArray<T>(xs: readonly Lazy<T>[], tail: List<T> = nil): List<T> {
  let l = tail;
  for (let i = xs.length - 1; i >= 0; i--) l = now(new Cons(xs[i]!, l));
  return l;
}

/** The elements as an array: forces the whole spine and every element (in order). */
export function toArray<T>(xs: List<T>): T[] {
  const out: T[] = [];
  for (let c = xs.force(); c.tag === 'Cons'; c = c.tail.force()) out.push(c.head.force());
  return out;
}

/** The lazy elements as an array: forces the whole spine, no element. */
export function toLazyArray<T>(xs: List<T>): Lazy<T>[] {
  const out: Lazy<T>[] = [];
  for (let c = xs.force(); c.tag === 'Cons'; c = c.tail.force()) out.push(c.head);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Basic observations (these force, like evaluating the Haskell expression)

/** `length`: forces the whole spine, no element. */
export function length<T>(xs: List<T>): number {
  let n = 0;
  for (let c = xs.force(); c.tag === 'Cons'; c = c.tail.force()) n++;
  return n;
}

/** `null`: forces the first cell only. */
export function isEmpty<T>(xs: List<T>): boolean {
  return xs.force().tag === 'Nil';
}

/** Alias of {@link isEmpty}. */
export const isNil = isEmpty;

/** `head`: forces the first cell and the first element; throws on the empty list. */
export function head<T>(xs: List<T>): T {
  const c = xs.force();
  if (c.tag === 'Nil') throw new Error('head: empty list');
  return c.head.force();
}

/** `tail`, lazily: forcing the result forces the first cell (throws if empty), then re-exports the tail. */
export function tail<T>(xs: List<T>): List<T> {
  return skip(xs, 1, 1);
}

/** `uncons`: forces the first cell only; `undefined` for the empty list. */
export function uncons<T>(xs: List<T>): [Lazy<T>, List<T>] | undefined {
  const c = xs.force();
  return c.tag === 'Nil' ? undefined : [c.head, c.tail];
}

/** `xs !! i`: forces the spine up to cell `i` and element `i` only; throws when out of range. */
export function index<T>(xs: List<T>, i: number): T {
  if (i < 0) throw new Error(`index: negative index ${i}`);
  let c = xs.force();
  for (let k = 0; c.tag === 'Cons'; k++, c = c.tail.force()) if (k === i) return c.head.force();
  throw new Error(`index: index ${i} too large`);
}

// ---------------------------------------------------------------------------------------------
// Lazy transformations

// Unforced results of `append` and `skip` are `deferWith` thunks whose argument holds the
// operation's arguments, so that nested chains of them can be rewritten (found by `deferredWith`)
// instead of forced recursively.

type AppendArgs = { readonly xs: List<any>; readonly ys: List<any> };

/** `xs ++ ys`: a result cell forces one cell of `xs`; `ys` is forced only once `xs` is exhausted, then re-exported; stack-safe however deeply nested. */
export function append<T>(xs: List<T>, ys: List<T>): List<T> {
  return deferWith(appendStep, { xs, ys });
}

function appendStep({ xs, ys }: AppendArgs): List<any> {
  // (a ++ b) ++ c forces the same cells in the same order as a ++ (b ++ c); reassociating
  // unforced inner appends turns deep left nesting into a loop (and keeps it linear).
  let left = xs;
  let right = ys;
  for (let inner = deferredWith(left, appendStep); inner !== undefined; inner = deferredWith(left, appendStep)) {
    right = append(inner.ys, right);
    left = inner.xs;
  }
  // A demand in value form ending in `thunk` (a spec's `d ++ thunk`): the append is `thunk` too, reached without a throw where that is asked (see forceOrThunk).
  if (left === thunk) return thunk;
  const c = left.force();
  return c.tag === 'Nil' ? right : now(new Cons(c.head, append(c.tail, right)));
}

/** `concat` (`foldr (++) []`): forces the outer list only as far as needed, skipping empty inner lists by Lazy's loop. */
export function concat<T>(xss: List<List<T>>): List<T> {
  return defer(() => {
    const c = xss.force();
    return c.tag === 'Nil' ? nil : append(c.head.force(), concat(c.tail));
  });
}

/** `reverse`: forcing the first result cell forces the whole input spine (no element); all result cells are then evaluated. */
export function reverse<T>(xs: List<T>): List<T> {
  return lazy(() => {
    let acc: Cell<T> = NIL;
    for (let c = xs.force(); c.tag === 'Cons'; c = c.tail.force()) acc = new Cons(c.head, now(acc));
    return acc;
  });
}

/** `take n xs`: `n <= 0` gives `[]` without forcing `xs`; the n-th result cell does not force the input cell after it. */
export function take<T>(n: number, xs: List<T>): List<T> {
  if (n <= 0) return nil;
  return xs.map((c): Cell<T> => (c.tag === 'Nil' ? NIL : new Cons(c.head, take(n - 1, c.tail))));
}

/** `drop n xs`: `n <= 0` gives `xs` itself; otherwise forcing the result forces `n` cells then re-exports the rest (no element). */
export function drop<T>(n: number, xs: List<T>): List<T> {
  return n <= 0 ? xs : skip(xs, n, 0);
}

type SkipArgs = { readonly xs: List<any>; readonly n: number; readonly strict: number };

// Skips `n` cells of `xs` (n > 0); a list shorter than `strict` cells is an error (`tail []`).
function skip<T>(xs: List<T>, n: number, strict: number): List<T> {
  return deferWith(skipStep, { xs, n, strict });
}

function skipStep({ xs, n, strict }: SkipArgs): List<any> {
  // Skipping n2 (strict s2) after n1 (strict s1) forces the same cells in the same order as
  // skipping n1 + n2, and fails exactly when the list is shorter than the combined `strict`.
  let [base, count, needed] = [xs, n, strict];
  // (Fusing chains like `tail(tail(...))` built in a loop.)
  for (let inner = deferredWith(base, skipStep); inner !== undefined; inner = deferredWith(base, skipStep)) {
    needed = needed > 0 ? inner.n + needed : inner.strict;
    count += inner.n;
    base = inner.xs;
  }
  let rest = base;
  for (let k = 0; k < count; k++) {
    const c = rest.force();
    if (c.tag === 'Nil') {
      if (k < needed) throw new Error('tail: empty list');
      return nil;
    }
    rest = c.tail;
  }
  return rest;
}

/**
 * `splitAt n xs`, GHC's (not the Report's `(take n xs, drop n xs)`): building the pair forces the
 * first cell of `xs` when `n > 0`, as GHC's `splitAt'` matches on it; the components then force
 * what `take n xs` and `drop n xs` do.
 */
export function splitAt<T>(n: number, xs: List<T>): [List<T>, List<T>] {
  // A JavaScript call returns the pair evaluated: what GHC forces to evaluate it is forced here.
  if (n > 0) xs.force();
  return [take(n, xs), drop(n, xs)];
}

/** `takeWhile p xs`: each result cell forces one input cell and its element (`p` gets it forced; GHC's, unevaluated); stops at the first failing element. */
export function takeWhile<T>(p: (x: T) => boolean, xs: List<T>): List<T> {
  const step = (c: Cell<T>): Cell<T> => (c.tag === 'Cons' && p(c.head.force()) ? new Cons(c.head, c.tail.map(step)) : NIL);
  return xs.map(step);
}

/** `dropWhile p xs`: forcing the result forces cells and elements up to the first failing one (`p` gets them forced; GHC's, unevaluated), then re-exports the rest. */
export function dropWhile<T>(p: (x: T) => boolean, xs: List<T>): List<T> {
  return defer(() => {
    let rest = xs;
    for (let c = rest.force(); c.tag === 'Cons' && p(c.head.force()); c = rest.force()) rest = c.tail;
    return rest;
  });
}

/** `map f xs`: each result cell forces one input cell; the element is `x.map(f)`, so `f` runs only when it is forced, and gets the input element forced (GHC's, unevaluated: see {@link mapLazy}). */
export function map<T, U>(f: (x: T) => U, xs: List<T>): List<U> {
  // One `step` shared by all cells: a million-cell map allocates no closure per cell.
  const step = (c: Cell<T>): Cell<U> => (c.tag === 'Nil' ? NIL : new Cons(c.head.map(f), c.tail.map(step)));
  return xs.map(step);
}

/** `map` for non-strict `f`: `f` gets the element unforced, when the result element is forced; a returned `Lazy` is followed. */
export function mapLazy<T, U>(f: (x: Lazy<T>) => U | Lazy<U>, xs: List<T>): List<U> {
  const step = (c: Cell<T>): Cell<U> =>
    c.tag === 'Nil' ? NIL : new Cons(defer(() => toLazy(f(c.head))), c.tail.map(step));
  return xs.map(step);
}

/** `filter p xs`: forcing a result cell forces input cells and their elements up to the next match (`p` gets them forced; GHC's, unevaluated). */
export function filter<T>(p: (x: T) => boolean, xs: List<T>): List<T> {
  return defer((): List<T> => {
    for (let c = xs.force(); c.tag === 'Cons'; c = c.tail.force()) {
      if (p(c.head.force())) return now(new Cons(c.head, filter(p, c.tail)));
    }
    return nil;
  });
}

/** `zipWith` for non-strict `f`: a result cell forces a cell of `xs`, then (only if it is a cons) a cell of `ys`; `f` gets the elements unforced. */
export function zipWithLazy<A, B, C>(f: (a: Lazy<A>, b: Lazy<B>) => C | Lazy<C>, xs: List<A>, ys: List<B>): List<C> {
  return xs.map((cx): Cell<C> => {
    if (cx.tag === 'Nil') return NIL;
    const cy = ys.force();
    if (cy.tag === 'Nil') return NIL;
    return new Cons(defer(() => toLazy(f(cx.head, cy.head))), zipWithLazy(f, cx.tail, cy.tail));
  });
}

/** `zipWith f xs ys`: spine as {@link zipWithLazy}; a result element, when forced, forces both input elements and applies `f` (GHC's `f` gets them unevaluated). */
export function zipWith<A, B, C>(f: (a: A, b: B) => C, xs: List<A>, ys: List<B>): List<C> {
  return xs.map((cx): Cell<C> => {
    if (cx.tag === 'Nil') return NIL;
    const cy = ys.force();
    if (cy.tag === 'Nil') return NIL;
    // chain and map, forced by Lazy's loop: an element that depends on earlier ones (`fibs`) is forced without recursion.
    return new Cons(cx.head.chain((a) => cy.head.map((b) => f(a, b))), zipWith(f, cx.tail, cy.tail));
  });
}

/** `zip`, spine as GHC's; GHC's pair holds its components unevaluated, this one holds values, so forcing an element forces both components (a {@link zipWithLazy} returning `[a, b]` makes GHC's pairs). */
export function zip<A, B>(xs: List<A>, ys: List<B>): List<readonly [A, B]> {
  return zipWith((a: A, b: B) => [a, b] as const, xs, ys);
}

// ---------------------------------------------------------------------------------------------
// Folds

/**
 * `foldr f z xs`, lazy: `f` gets the element and the fold of the rest unforced; stack-safe only if
 * `f` is lazy in `acc` (else one recursion per cell, like GHC: use {@link foldl}). `z` is a value,
 * evaluated before the call, where GHC's is forced only if the fold reaches the end of the list:
 * for that, make `U` a `Lazy` type and `z` a `Lazy`.
 */
export function foldr<T, U>(f: (x: Lazy<T>, acc: Lazy<U>) => U, z: U, xs: List<T>): Lazy<U> {
  const step = (c: Cell<T>): U => (c.tag === 'Nil' ? z : f(c.head, c.tail.map(step)));
  return xs.map(step);
}

/**
 * Strict left fold (`foldl'`), a loop: forces the whole spine and every element, applying `f` at
 * each cell. GHC's `foldl` applies `f` lazily and forces what the outermost application needs:
 * `foldl (\_ x -> x)` forces the last element only, this one every element.
 */
export function foldl<T, U>(f: (acc: U, x: T) => U, z: U, xs: List<T>): U {
  let acc = z;
  for (let c = xs.force(); c.tag === 'Cons'; c = c.tail.force()) acc = f(acc, c.head.force());
  return acc;
}

/** `sum`: forces the whole list. */
export function sum(xs: List<number>): number {
  return foldl((a, x) => a + x, 0, xs);
}

/** `all p xs`: forces cells and elements up to the first element failing `p` (`p` gets them forced; GHC's, unevaluated). */
export function all<T>(p: (x: T) => boolean, xs: List<T>): boolean {
  for (let c = xs.force(); c.tag === 'Cons'; c = c.tail.force()) if (!p(c.head.force())) return false;
  return true;
}

/** `any p xs`: forces cells and elements up to the first element satisfying `p` (`p` gets them forced; GHC's, unevaluated). */
export function any<T>(p: (x: T) => boolean, xs: List<T>): boolean {
  for (let c = xs.force(); c.tag === 'Cons'; c = c.tail.force()) if (p(c.head.force())) return true;
  return false;
}

/** `elem x xs` (with `===`): forces cells and elements up to the first match. */
export function elem<T>(x: T, xs: List<T>): boolean {
  return any((y) => y === x, xs);
}

/** `xs == ys` (elements compared with `eq`, `===` by default): forces both lists in step, up to the first difference; `eq` gets the elements forced (GHC's `==` as its instance does). */
export function listEquals<T>(xs: List<T>, ys: List<T>, eq: (a: T, b: T) => boolean = (a, b) => a === b): boolean {
  for (let a = xs.force(), b = ys.force(); ; a = a.tail.force(), b = b.tail.force()) {
    if (a.tag === 'Nil' || b.tag === 'Nil') return a.tag === b.tag;
    if (!eq(a.head.force(), b.head.force())) return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Infinite and generated lists

/** `repeat x` (`x` plain or `Lazy`, as for {@link cons}): one cyclic cell, like GHC's. */
export function repeat<T>(x: T | Lazy<T>): List<T> {
  const h = toLazy(x);
  const self: List<T> = lazy(() => new Cons(h, self));
  return self;
}

/** `iterate f x`: element k+1 is `prev.map(f)` (`f` gets element k forced; GHC's, unevaluated), so forcing a far element directly is a loop, not a recursion. */
export function iterate<T>(f: (x: T) => T, x: T | Lazy<T>): List<T> {
  const go = (h: Lazy<T>): List<T> => lazy(() => new Cons(h, go(h.map((v) => f(v)))));
  return go(toLazy(x));
}

/** `cycle xs`: forcing it forces `xs`'s first cell (throws if empty); after one pass the cells are shared, so it is cyclic. */
export function cycle<T>(xs: List<T>): List<T> {
  const self: List<T> = defer(() => {
    if (xs.force().tag === 'Nil') throw new Error('cycle: empty list');
    return append(xs, self);
  });
  return self;
}

/** `replicate n x` = `take n (repeat x)`; `x` plain or `Lazy`, as for {@link cons}. */
export function replicate<T>(n: number, x: T | Lazy<T>): List<T> {
  return take(n, repeat(x));
}

/** `[from .. to]` (step 1), one cell per force. */
export function range(from: number, to: number): List<number> {
  const go = (i: number): List<number> => lazy(() => (i > to ? NIL : new Cons(now(i), go(i + 1))));
  return go(from);
}

/** `[n ..]`: infinite, one cell per force. */
export function enumFrom(n: number): List<number> {
  const go = (i: number): List<number> => lazy(() => new Cons(now(i), go(i + 1)));
  return go(n);
}

// ---------------------------------------------------------------------------------------------
// Demands in value form (paper, section 5): lists that may contain `thunk`

/** `cap`: the demand with an unevaluated (thunk) tail replaced by `[]`, lazily; elements are kept untouched (a thunk element stays one). */
export function cap<T>(xs: List<T>): List<T> {
  return lazy((): Cell<T> => {
    if (isThunk(xs)) return NIL;
    const c = xs.force();
    return c.tag === 'Nil' ? NIL : new Cons(c.head, cap(c.tail));
  });
}

/** The evaluated cons cells of a demand's spine, and whether it ends in `[]` (rather than in a thunk). */
function walkSpine<T>(xs: List<T>): { readonly cells: number; readonly ended: boolean } {
  let cells = 0;
  for (let l = xs; !isThunk(l); cells++) {
    const c = l.force();
    if (c.tag === 'Nil') return { cells, ended: true };
    l = c.tail;
  }
  return { cells, ended: false };
}

/** Whether the demand's spine ends in `[]` rather than in a thunk: whether the list was forced to its end. */
export function isCapped<T>(xs: List<T>): boolean {
  return walkSpine(xs).ended;
}

/** The number of evaluated spine constructors, (:) and [] alike: `1 : _ : []` has 3, `_ : _` has 1, `thunk` 0; elements are not counted. */
export function numCtrForced<T>(xs: List<T>): number {
  const { cells, ended } = walkSpine(xs);
  return ended ? cells + 1 : cells;
}

/**
 * How far a demand's spine was forced: its evaluated cons cells (`length (cap d)`), `[]` not
 * counted: `1 : _ : []` has 2, `_ : _` 1, `thunk` 0. Whether it ended is {@link isCapped}.
 *
 * @example
 * ```ts
 * List.spineForced(cons(thunk, cons(2, thunk))); // 2
 * List.isCapped(cons(thunk, cons(2, thunk)));    // false: it ends in _
 * ```
 */
export function spineForced<T>(xs: List<T>): number {
  return walkSpine(xs).cells;
}

/**
 * The demand on element `i` of a list demand: the head of cell `i`, or `thunk` when the spine
 * was not forced that far (or ended before).
 *
 * @example
 * ```ts
 * prettyValue(List.elementAt(cons(thunk, cons(2, thunk)), 1)); // '2'
 * List.elementAt(cons(1, thunk), 3) === thunk;                  // true
 * ```
 */
export function elementAt<T>(xs: List<T>, i: number): Lazy<T> {
  let l = xs;
  for (let k = 0; !isThunk(l); k++) {
    const c = l.force();
    if (c.tag === 'Nil') break;
    if (k === i) return c.head;
    l = c.tail;
  }
  return thunk;
}

/**
 * Whether some element of a list demand was evaluated (`not (all isThunk (cap d))`; `all`
 * would force the elements): whether a `map` applied its function at all.
 *
 * @example
 * ```ts
 * List.anyElementDemanded(cons(thunk, cons(thunk, nil))); // false
 * List.anyElementDemanded(cons(thunk, cons(2, thunk)));   // true
 * ```
 */
export function anyElementDemanded<T>(xs: List<T>): boolean {
  return toLazyArray(cap(xs)).some((x) => !isThunk(x));
}
