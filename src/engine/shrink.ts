/**
 * Shrinking: smaller candidates for inputs (derived from shapes, or from a fast-check arbitrary)
 * and for the demand on the result, the part the original StrictCheck never shrinks.
 * @module
 */
import { Lazy, now } from '../lazy/lazy.ts';
import { NIL, Cons, type List } from '../lazy/cell.ts';
import { checkDemand, Forced, forcedNode, unforced, type Demand } from '../demand/demand.ts';
import { inOwnOrder } from '../demand/collections.ts';
import { dynamic } from '../demand/dynamic.ts';
import { isListCell } from '../demand/lazy-positions.ts';
import type { Shape } from '../demand/shape-types.ts';
import { contextOf, remember } from './fast-check-bridge.ts';

/** @internal QuickCheck's `shrinkIntegral`: towards zero, first by the largest steps. */
export function* shrinkInteger(n: number): Generator<number> {
  if (n === 0) return;
  yield 0;
  if (n < 0) yield -n;
  for (let d = Math.trunc(n / 2); d !== 0; d = Math.trunc(d / 2)) {
    // Beyond 2^53 a small step rounds back to n: a value is never its own shrink.
    if (n - d !== n) yield n - d;
  }
}

/** {@link shrinkInteger} for bigints, in exact arithmetic: through a `Number` one beyond 2^53 rounds, even above itself. */
function* shrinkBigint(n: bigint): Generator<bigint> {
  if (n === 0n) return;
  yield 0n;
  if (n < 0n) yield -n;
  for (let d = n / 2n; d !== 0n; d /= 2n) yield n - d;
}

/** @internal QuickCheck's `shrinkList`: remove chunks of halving sizes, then shrink one element at a time. */
export function* shrinkItems<T>(items: readonly T[], shrinkItem: (x: T) => Iterable<T>): Generator<T[]> {
  const n = items.length;
  for (let k = n; k > 0; k = Math.floor(k / 2)) {
    for (let i = 0; i + k <= n; i += k) yield [...items.slice(0, i), ...items.slice(i + k)];
  }
  for (let i = 0; i < n; i++) {
    for (const x of shrinkItem(items[i]!)) yield [...items.slice(0, i), x, ...items.slice(i + 1)];
  }
}

function fromItems(items: readonly Lazy<unknown>[]): unknown {
  let cell: unknown = NIL;
  for (let i = items.length - 1; i >= 0; i--) cell = new Cons(items[i]!, now(cell) as List<unknown>);
  return cell;
}

/**
 * Smaller values of a shape, most promising first. Only the evaluated parts of lazy values are shrunk.
 *
 * @example
 * ```ts
 * [...shrinkValue(fromArray([3, 1]), list(number))].map((v) => prettyValue(v));
 * // ['[]', '1 : []', '3 : []', '0 : 1 : []', …]: shorter lists first, then smaller elements
 * ```
 */
export function shrinkValue<T>(value: T, shape: Shape<T> = dynamic as Shape<T>): Generator<T> {
  return shrinkAny(value, shape as Shape<unknown>) as Generator<T>;
}

function* shrinkAny(value: unknown, shape: Shape<unknown>): Generator<unknown> {
  if (shape.arbitrary) {
    const arb = shape.arbitrary;
    const made = contextOf(arb, value);
    if (made || arb.canShrinkWithoutContext(value)) for (const v of arb.shrink(value, made?.context)) yield remember(arb, v);
    return;
  }
  if (shape.protocol) return yield* shape.protocol.shrink(value, shrinkAny);
  if (value instanceof Lazy) {
    if (!value.isEvaluated) return;
    const inner = shape.kind === 'lazy' ? shape.inner() : dynamic;
    for (const v of shrinkAny(value.force(), inner)) yield now(v);
    return;
  }
  const layer = shape.project(value, null);
  // A set's or a map's candidates iterate as it does, not in the order its layer lists its elements.
  const fields = inOwnOrder(layer, layer.fields);
  switch (layer.ctor.style) {
    case 'prim':
      yield* shrinkPrimitive(layer.value);
      return;
    case 'fn':
    case 'atom':
    case 'nil':
      return;
  }
  if (layer.ctor.style === 'set' || layer.ctor.style === 'map') {
    // Entries (an element, or a key and its value) removed, then (below) each field shrunk in
    // place. A set's or map's constructor builds one of any size.
    const width = layer.ctor.style === 'set' ? 1 : 2;
    const entries: number[] = Array.from({ length: fields.length / width }, (_, i) => i * width);
    for (const kept of shrinkItems(entries, () => [])) yield layer.ctor.build(kept.flatMap((i) => fields.slice(i, i + width)), layer.value);
  }
  if (layer.ctor.style === 'cons' || (shape.kind === 'data' && isListCell(shape))) {
    const items = spine(value);
    if (items === undefined) return;
    const elemShape = shape.kind === 'data' ? shape.alternatives()[1]!.shapes[0]! : dynamic;
    for (const xs of shrinkItems(items, (x) => shrinkAny(x, elemShape) as Iterable<Lazy<unknown>>)) yield fromItems(xs);
    return;
  }
  // Data: a constructor without fields, then a field of the same shape, then each field shrunk.
  // Every candidate is smaller, so that shrinking ends: a constructor without fields shrinks only
  // to one declared before it (Red offered Green, and Green Red, for ever), and never to one with
  // fields; one with fields shrinks to any without.
  if (shape.kind === 'data') {
    const alts = shape.alternatives();
    const smaller = fields.length === 0 ? alts.slice(0, Math.max(0, alts.findIndex((a) => a.ctor === layer.ctor))) : alts;
    for (const alt of smaller) if (alt.shapes.length === 0) yield alt.ctor.build([]);
    // Not a field offered already: one without fields was (a layer with fields offers every
    // constructor without), or the same object in another field (`Node Leaf 0 Leaf` offered Leaf thrice).
    const offered: unknown[] = [];
    for (let i = 0; i < fields.length; i++) {
      const s = layer.shapes[i]!;
      let f = fields[i];
      if (s.kind === 'lazy' && s.inner() === shape && f instanceof Lazy && f.isEvaluated) f = f.force();
      else if (s !== shape) continue;
      if (offered.includes(f) || shape.project(f, null).fields.length === 0) continue;
      offered.push(f);
      yield f;
    }
  }
  // The shapes fit the fields in either order: a set's are its element's, a map's its key's and its value's in turn.
  for (let i = 0; i < fields.length; i++) {
    for (const v of shrinkAny(fields[i], layer.shapes[i]!)) {
      const shrunk = fields.slice();
      shrunk[i] = v;
      yield layer.ctor.build(shrunk, layer.value);
    }
  }
}

/** The evaluated elements of a list cell's spine, or undefined if part of the spine is unevaluated. */
function spine(cell: unknown): Lazy<unknown>[] | undefined {
  const items: Lazy<unknown>[] = [];
  let c = cell;
  while (c instanceof Cons) {
    items.push(c.head);
    if (!c.tail.isEvaluated) return undefined;
    c = c.tail.force();
  }
  return items;
}

function* shrinkPrimitive(v: unknown): Generator<unknown> {
  switch (typeof v) {
    case 'number':
      if (Number.isInteger(v)) yield* shrinkInteger(v);
      // Infinity and NaN truncate to themselves: a value is never its own shrink.
      else yield Number.isFinite(v) ? Math.trunc(v) : 0;
      return;
    case 'boolean':
      if (v) yield false;
      return;
    case 'bigint':
      yield* shrinkBigint(v);
      return;
    case 'string':
      for (const xs of shrinkItems([...v], (c) => (c === 'a' ? [] : ['a']))) yield xs.join('');
      return;
  }
}

/**
 * Smaller demands on a result: each evaluated lazy position (except the outermost layer and the
 * iterations of a re-iterable source's `Iterations`) cut back to unevaluated, nearest the root first, so the first candidates cut the most,
 * then each list without one of its cells. Walks without
 * recursion; the outermost layer stays, so a candidate still demands something.
 *
 * @example
 * ```ts
 * [...shrinkDemand(toDemand(cons(1, cons(2, thunk))))].map((d) => prettyDemand(d));
 * // ['_ : 2 : _', '1 : _', '1 : _ : _', '2 : _']: less defined demands, then shorter ones
 * ```
 */
export function* shrinkDemand(demand: Demand): Generator<Demand> {
  checkDemand(demand, 'shrinkDemand', 'demand');
  if (!demand.forced) return;
  // Pre-order over the positions; each remembers its parent, so a path costs nothing until used.
  const stack: Position[] = [{ node: demand, up: null, index: 0 }];
  const lists: DemandList[] = [];
  while (stack.length > 0) {
    const pos = stack.pop()!;
    for (let i = pos.node.arity - 1; i >= 0; i--) {
      const f = pos.node.field(i);
      if (f.forced) stack.push({ node: f, up: pos, index: i });
    }
    if (pos.node.ctor.style === 'cons' && pos.up?.node.ctor.style !== 'cons') {
      const list = cellsOf(pos);
      lists.push(list);
      yield* closingEarlier(list);
    }
    // A close with a plainer one at its place (`throw()`: `return()`) is that one, at any place.
    const plainer = pos.node.ctor.plainer;
    if (plainer) yield replaceAt(pos, forcedNode(plainer, 0, undefined, pos.node.lazy));
    // An iteration of a re-iterable source's Iterations stays begun, as the outermost layer stays: `Iterations _` is no demand.
    if (pos.up !== null && pos.node.lazy && pos.up.node.ctor.iterations === undefined) yield replaceAt(pos, unforced);
  }
  for (const list of lists) yield* cellsDropped(list);
}

/** The cells of the list whose first cell is at `first`, in order. */
function cellsOf(first: Position): DemandList {
  const cells: Position[] = [];
  let end: Demand = first.node;
  for (let pos: Position | undefined = first; pos !== undefined; ) {
    cells.push(pos);
    end = pos.node.field(1);
    pos = end.forced && end.ctor.style === 'cons' ? { node: end, up: pos, index: 1 } : undefined;
  }
  return { cells, end };
}

/**
 * For a list whose first cell is at `first`: the list without each of its cells but the last, the
 * first first (without the last, it closes earlier: see {@link closingEarlier}). No cut reaches
 * these, yet they matter once the inputs shrink: a list input that lost an element makes a result
 * a cell shorter, and the demand that failed on the third cell of the longer one (`_ : _ : -3 : _`)
 * must fail on the second (`_ : -3 : _`).
 */
function* cellsDropped({ cells }: DemandList): Generator<Demand> {
  for (const pos of cells.slice(0, -1)) yield replaceAt(pos, pos.node.field(1));
}

/**
 * For a list of the demand whose end closes it (an iteration ended by
 * `return()` or `throw()`): the same list closed at each earlier cell, the earliest first.
 */
function* closingEarlier({ cells, end }: DemandList): Generator<Demand> {
  if (!end.forced || end.ctor.closes !== true) return;
  for (const pos of cells) yield replaceAt(pos, end);
}

/** A list of a demand: the positions of its cells, in order, and its end. */
interface DemandList {
  readonly cells: Position[];
  readonly end: Demand;
}

interface Position {
  readonly node: Forced;
  readonly up: Position | null;
  readonly index: number;
}

/** Rebuilds the demand from `pos` up to the root with `replacement` at `pos`, sharing everything else. */
function replaceAt(pos: Position, replacement: Demand): Demand {
  let d = replacement;
  for (let p: Position = pos; p.up !== null; p = p.up) {
    const parent = p.up.node;
    const fields = parent.fields.slice();
    fields[p.index] = d;
    d = new Forced(parent.ctor, fields, parent.value, parent.lazy);
  }
  return d;
}
