/**
 * Over-strict mutants of list and tree functions, each beside the spec of the function it
 * mutates: every mutant forces something its spec says it leaves alone, on some input and some
 * demand on its result. The bench's `trialsToFailure` counts the trials a check needs to find that.
 * @module
 */
import { isThunk, lazy, now, thunk, type Lazy } from '../src/lazy/lazy.ts';
import { Cons, NIL, nil, type Cell, type List } from '../src/lazy/cell.ts';
import * as L from '../src/lazy/list.ts';
import { data, type DataShape } from '../src/demand/declared-data.ts';
import { lazyOf, list } from '../src/demand/lazy-positions.ts';
import { boolean, number } from '../src/demand/primitives.ts';
import { spec, type Spec } from '../src/spec/spec.ts';
import { lengthSpec } from '../examples/list-specs.ts';
import { takeSpec } from '../examples/take.ts';

const numbers = list(number);
const booleans = list(boolean);

/** Binary trees with lazy subtrees and a number at each node. */
type Tree = { tag: 'Leaf' } | { tag: 'Node'; left: Lazy<Tree>; value: number; right: Lazy<Tree> };
const Tree: DataShape<Tree> = data<Tree>('Tree', (T) => ({ Leaf: {}, Node: { left: lazyOf(T), value: number, right: lazyOf(T) } }));

/** The demand that evaluates the first `cells` cells of a list of `len` (element `i` as `elem(i)`), its `[]` too when `cells > len`. */
function spineDemand<T>(cells: number, len: number, elem: (i: number) => Lazy<T>): List<T> {
  let out: List<T> = cells > len ? nil : thunk;
  for (let i = Math.min(cells, len) - 1; i >= 0; i--) out = L.lazyCons(elem(i), out);
  return out;
}

/** `and`: stops at the first False. */
const andSpec = spec([booleans], boolean, (predict, _d, xs) => {
  const bs = L.toLazyArray(xs);
  const stop = bs.findIndex((b) => !b.force());
  predict(stop < 0 ? spineDemand(bs.length + 1, bs.length, (i) => bs[i]!) : spineDemand(stop + 1, bs.length, (i) => bs[i]!));
});
/** Mutant: evaluates every element before it looks at any. */
function andAll(xs: List<boolean>): boolean {
  const bs = L.toLazyArray(xs).map((b) => b.force());
  return bs.every((b) => b);
}

/** Mutant of length: counts the cells, forcing each element on the way. */
function lengthForcing(xs: List<number>): number {
  let n = 0;
  for (let c = xs.force(); c instanceof Cons; c = c.tail.force()) n += c.head.force() === c.head.force() ? 1 : 0;
  return n;
}

/** Mutant of take: once the count runs out, it still evaluates one more cell of the list. */
function takeOneMore<T>(n: Lazy<number>, xs: List<T>): List<T> {
  return lazy(() => {
    const cell = xs.force();
    if (n.force() <= 0 || !(cell instanceof Cons)) return NIL;
    return new Cons(cell.head, takeOneMore(lazy(() => n.force() - 1), cell.tail));
  });
}

/** `double`, map (2 *): element `i` of the list is evaluated exactly when element `i` of the result is. */
const doubleSpec = spec([numbers], numbers, (predict, d, xs) => {
  const out = L.toLazyArray(L.cap(d));
  const ins = L.toLazyArray(xs);
  predict(spineDemand(L.numCtrForced(d), ins.length, (i) => (out[i] === undefined || isThunk(out[i]!) ? thunk : ins[i]!)));
});
/** Mutant of double: evaluates each element as it makes the result's cell. */
function doubleForcing(xs: List<number>): List<number> {
  return lazy((): Cell<number> => {
    const c = xs.force();
    return c instanceof Cons ? new Cons(now(2 * c.head.force()), doubleForcing(c.tail)) : NIL;
  });
}

/** `headOr 0`: the first cell and its element. */
const headOrSpec = spec([numbers], number, (predict, _d, xs) => {
  const c = xs.force();
  predict(c instanceof Cons ? L.lazyCons(c.head, thunk) : nil);
});
/** Mutant of headOr: looks at the second cell too. */
function headOrPeeking(xs: List<number>): number {
  const c = xs.force();
  if (!(c instanceof Cons)) return 0;
  c.tail.force();
  return c.head.force();
}

/** `null`: the first cell, not its element. */
const nullSpec = spec([numbers], boolean, (predict, _d, xs) => predict(xs.force() instanceof Cons ? L.lazyCons(thunk, thunk) : nil));
/** Mutant of null: evaluates the first element. */
function nullForcing(xs: List<number>): boolean {
  const c = xs.force();
  return c instanceof Cons ? c.head.force() !== c.head.force() : true;
}

/** `lastOr 0`: the whole spine and the last element only. */
const lastOrSpec = spec([numbers], number, (predict, _d, xs) => {
  const ins = L.toLazyArray(xs);
  predict(spineDemand(ins.length + 1, ins.length, (i) => (i === ins.length - 1 ? ins[i]! : thunk)));
});
/** Mutant of lastOr: evaluates every element it passes. */
function lastOrForcing(xs: List<number>): number {
  let last = 0;
  for (let c = xs.force(); c instanceof Cons; c = c.tail.force()) last = c.head.force();
  return last;
}

/** `xs ++ ys`: `ys` only once the result's demand passes the end of `xs`. */
const appendSpec = spec([numbers, numbers], numbers, (predict, d, xs, ys) => {
  const n = L.length(xs);
  if (L.numCtrForced(d) <= n) predict(d, thunk);
  else predict(L.take(n, d), L.drop(n, d));
});
/** Mutant of append: evaluates the first cell of `ys` up front. */
function appendEager(xs: List<number>, ys: List<number>): List<number> {
  return lazy((): Cell<number> => {
    ys.force();
    return L.append(xs, ys).force();
  });
}

/** The nodes down the left edge of a tree, in order. */
function leftEdge(t: Lazy<Tree>): (Tree & { tag: 'Node' })[] {
  const out: (Tree & { tag: 'Node' })[] = [];
  for (let n = t.force(); n.tag === 'Node'; n = n.left.force()) out.push(n);
  return out;
}

/** `leftmost`: the value at the end of the left edge (0 for a leaf); no right subtree. */
const leftmostSpec = spec([lazyOf(Tree)], number, (predict, _d, t) => {
  let demand: Tree = { tag: 'Leaf' };
  for (const n of leftEdge(t).reverse()) demand = { tag: 'Node', left: now(demand), value: n.value, right: thunk };
  predict(now(demand));
});
/** Mutant of leftmost: evaluates each right subtree it passes. */
function leftmostPeeking(t: Lazy<Tree>): number {
  let value = 0;
  for (let n = t.force(); n.tag === 'Node'; n = n.left.force()) {
    n.right.force();
    value = n.value;
  }
  return value;
}

/** The demand of a preorder search for a negative value in `t`, and whether it found one. */
function searchDemand(t: Lazy<Tree>): [Lazy<Tree>, boolean] {
  const n = t.force();
  if (n.tag === 'Leaf') return [t, false];
  if (n.value < 0) return [now({ ...n, left: thunk, right: thunk }), true];
  const [left, found] = searchDemand(n.left);
  if (found) return [now({ ...n, left, right: thunk }), true];
  const [right, foundRight] = searchDemand(n.right);
  return [now({ ...n, left, right }), foundRight];
}
/** `anyNegative`: preorder, stopping at the first negative value. */
const anyNegativeSpec = spec([lazyOf(Tree)], boolean, (predict, _d, t) => predict(searchDemand(t)[0]));
/** Mutant of anyNegative: searches both subtrees before it combines them. */
function anyNegativeBoth(t: Lazy<Tree>): boolean {
  const n = t.force();
  if (n.tag === 'Leaf') return false;
  const left = anyNegativeBoth(n.left);
  const right = anyNegativeBoth(n.right);
  return n.value < 0 || left || right;
}

/** A mutant and the spec of the function it mutates. */
export interface Mutant {
  readonly name: string;
  readonly spec: Spec<readonly any[], any>;
  readonly fn: (...args: any[]) => unknown;
}

/** The mutants `trialsToFailure` runs. */
export const mutants: readonly Mutant[] = [
  { name: 'and forcing past False', spec: andSpec, fn: andAll },
  { name: 'length forcing elements', spec: lengthSpec, fn: lengthForcing },
  { name: 'take forcing one more cell', spec: takeSpec, fn: takeOneMore },
  { name: 'double forcing elements', spec: doubleSpec, fn: doubleForcing },
  { name: 'headOr forcing the second cell', spec: headOrSpec, fn: headOrPeeking },
  { name: 'null forcing the head', spec: nullSpec, fn: nullForcing },
  { name: 'lastOr forcing every element', spec: lastOrSpec, fn: lastOrForcing },
  { name: 'append forcing ys first', spec: appendSpec, fn: appendEager },
  { name: 'leftmost forcing right subtrees', spec: leftmostSpec, fn: leftmostPeeking },
  { name: 'anyNegative searching both subtrees', spec: anyNegativeSpec, fn: anyNegativeBoth },
];
