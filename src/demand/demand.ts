/**
 * Demands in explicit form: what part of a value was evaluated. A demand mirrors the value's
 * structure; at a lazy position it is either {@link unforced} (printed `_`) or the demand on
 * what was forced there. Fields that are not lazy are always evaluated.
 * @module
 */
import { types } from 'node:util';
import { ForceBudgetExceeded, UnevaluatedError } from '../lazy/lazy.ts';
import type { Ctor } from './shape-types.ts';
import { describeSafely } from './describe.ts';

/** The demand "not evaluated" (printed `_`). There is one: {@link unforced}. */
export class Unforced {
  /** Always `false`: tells a demand apart from a {@link Forced} node (held on the prototype). */
  declare readonly forced: false;
}

/** Marks a {@link Forced} node whose fields are held in an array (see {@link Forced.f0}). */
const ARRAY: unique symbol = Symbol('fields in an array');

/** An evaluated layer: its constructor, the demands on its fields, and for primitives and functions the value. */
export class Forced {
  /** Always `true`: tells the node apart from {@link unforced} (held on the prototype). */
  declare readonly forced: true;
  /** @internal Whether the node is a field of more than one node (see `markShared`); `false` on the prototype. */
  declare readonly shared: boolean;
  /**
   * The demands on the fields. Up to two are held inline, in `f0` and `f1` (`undefined` past the
   * arity): a demand on a list has a node per cell, and an array per node doubled its cost. More
   * fields are an array in `f0`, with `f1` set to {@link ARRAY}.
   * @internal
   */
  f0!: Demand | readonly Demand[] | undefined;
  /** @internal See {@link f0}. */
  f1!: Demand | typeof ARRAY | undefined;

  constructor(
    /** The constructor of the evaluated layer. */
    readonly ctor: Ctor,
    fields: readonly Demand[],
    /** The primitive or function, for those constructors. */
    readonly value: unknown,
    /** Whether this layer sat at a lazy position (so converting back to a value wraps it in a `Lazy`). */
    readonly lazy: boolean,
  ) {
    // Read only within the array: a read past its end made V8's optimised code call the generic keyed load.
    const n = fields.length;
    this.f0 = n === 0 ? undefined : n <= 2 ? fields[0] : fields;
    this.f1 = n === 2 ? fields[1] : n < 2 ? undefined : ARRAY;
  }

  /** The demands on the fields, in order (a new array for a node of one or two fields). Prefer {@link field} and {@link arity}, which build none. */
  get fields(): readonly Demand[] {
    if (this.f1 === ARRAY) return this.f0 as readonly Demand[];
    if (this.f0 === undefined) return NO_DEMANDS;
    return this.f1 === undefined ? [this.f0 as Demand] : [this.f0 as Demand, this.f1];
  }

  /** The number of fields. */
  get arity(): number {
    return this.f1 === ARRAY ? (this.f0 as readonly Demand[]).length : this.f0 === undefined ? 0 : this.f1 === undefined ? 1 : 2;
  }

  /** The demand on field `i` (`0 <= i < arity`). */
  field(i: number): Demand {
    return (this.f1 === ARRAY ? (this.f0 as readonly Demand[])[i] : i === 0 ? this.f0 : this.f1) as Demand;
  }
}

const NO_DEMANDS: readonly Demand[] = Object.freeze([]);

// On the prototypes: demands on large values have a node per evaluated layer, so nodes hold only their fields.
Object.defineProperty(Unforced.prototype, 'forced', { value: false });
Object.defineProperty(Forced.prototype, 'forced', { value: true });
// Writable, so that marking a node shared (see `markShared`) gives it a property of its own.
Object.defineProperty(Forced.prototype, 'shared', { value: false, writable: true });

/**
 * @internal Marks `node` as a field of more than one node (the demand on an object reached
 * through two paths, recorded once): walks over demands remember such nodes, and only those, so
 * that a demand costs what it holds, not what it would unfold to, and a demand without sharing
 * costs nothing more.
 */
export function markShared(node: Forced): void {
  if (!node.shared) (node as { shared: boolean }).shared = true;
}

/** A demand: {@link unforced}, or a {@link Forced} layer with demands on its fields. */
export type Demand = Unforced | Forced;

/** The demand "not evaluated". */
export const unforced: Unforced = new Unforced();

/**
 * Whether a demand evaluated anything at all.
 *
 * @example
 * ```ts
 * isForced(toDemand(cons(thunk, nil))); // true
 * isForced(toDemand(thunk));           // false
 * ```
 */
export function isForced(d: Demand): d is Forced {
  checkDemand(d, 'isForced', 'd');
  return d.forced;
}

/** @internal The constructor of {@link bottom}. */
export const BOTTOM: Ctor = { name: '⊥', keys: [], style: 'atom', build: () => undefined };

/**
 * @internal The demand on a part that was forced and whose evaluation threw, printed `⊥` (Haskell's
 * "bottom"): forced, whether or not the function caught the error. It equals only itself, and
 * like any forced part is not less defined than `_`. In value form it is a `Lazy` that throws
 * (see `fromDemand`), which `toDemand` reads back as `⊥`, as it reads a part of an input that
 * threw when an observed function forced it.
 */
export const bottom: Forced = new Forced(BOTTOM, [], undefined, true);

/** @internal Whether a part whose forcing threw `err` is {@link bottom}: it is, but where the force budget ran out or `thunk` was reached, which say nothing of the value. */
export function threwBottom(err: unknown): boolean {
  return !(err instanceof ForceBudgetExceeded || err instanceof UnevaluatedError);
}

/**
 * @internal Throws a TypeError unless `d` is a demand: `fn`, a function taking demands, was given
 * something else as its argument `argument`. Checked where a demand enters, not at each node: a
 * plain object is not "not evaluated" because it has no `forced`.
 */
export function checkDemand(d: unknown, fn: string, argument: string): asserts d is Demand {
  // A Proxy is none: instanceof would run its traps (a revoked one's throw).
  if (!types.isProxy(d) && (d instanceof Forced || d instanceof Unforced)) return;
  throw new TypeError(
    `${fn}: its argument ${argument} is not a demand, got ${describeSafely(d, 100)}. A demand comes from toDemand(value, shape) (a value with thunk where nothing was evaluated), or from observe(context, f, ...inputs)`,
  );
}

const UNFORCED_FIELDS: readonly (readonly Demand[])[] = [[], [unforced], [unforced, unforced]];

/**
 * @internal A node whose `arity` fields are {@link unforced} until set by {@link setField}: for
 * building demands top-down, a node before its fields.
 */
export function forcedNode(ctor: Ctor, arity: number, value: unknown, lazy: boolean): Forced {
  return new Forced(ctor, UNFORCED_FIELDS[arity] ?? new Array<Demand>(arity).fill(unforced), value, lazy);
}

/** @internal Sets field `i` of a node being built by {@link forcedNode} (nodes are immutable once handed out). */
export function setField(node: Forced, i: number, d: Demand): void {
  if (node.f1 === ARRAY) (node.f0 as Demand[])[i] = d;
  else if (i === 0) node.f0 = d;
  else node.f1 = d;
}

/**
 * @internal A node of no field yet, to which {@link pushField} adds fields as they come (a
 * source's iterations, as they begin): one node however many, each added at the same cost.
 */
export function growableNode(ctor: Ctor, lazy: boolean): Forced {
  return new Forced(ctor, NO_DEMANDS, undefined, lazy);
}

/** @internal Adds field `d` after the last of `node`, made by {@link growableNode}; returns its index. Two are held inline, as a node of two holds them, then an array. */
export function pushField(node: Forced, d: Demand): number {
  if (node.f1 === ARRAY) return (node.f0 as Demand[]).push(d) - 1;
  if (node.f0 === undefined) {
    node.f0 = d;
    return 0;
  }
  if (node.f1 === undefined) {
    node.f1 = d;
    return 1;
  }
  node.f0 = [node.f0 as Demand, node.f1, d];
  node.f1 = ARRAY;
  return 2;
}

const HOLDER: Ctor = { name: 'root', keys: [0], style: 'atom', build: () => undefined };

/** @internal A one-field node whose field receives the root of a demand built top-down: `holder.field(0)`. */
export function demandHolder(): Forced {
  return forcedNode(HOLDER, 1, undefined, false);
}

/**
 * @internal Whether demands take `a` and `b` for one constructor: the same, or alike by name and
 * style (a constructor of its own, a symbol-keyed object's say, is made anew at each projection),
 * unless both are of declared data types, and of two (which may name their constructors alike).
 * A plain object with a `tag`, read by the dynamic shape, has no declared type: it is taken for
 * the constructor of that name of any type, as a spec written with such objects means it.
 */
export function sameCtor(a: Ctor, b: Ctor): boolean {
  return a === b || (a.name === b.name && a.style === b.style && (a.type === b.type || a.type === undefined || b.type === undefined));
}

/** @internal Whether two evaluated layers are alike: the same constructor, with the same primitive or the same number of fields. */
export function sameLayer(a: Forced, b: Forced): boolean {
  if (!sameCtor(a.ctor, b.ctor)) return false;
  if (a.ctor.style === 'prim') return a.ctor.equals ? a.ctor.equals(a.value, b.value) : Object.is(a.value, b.value);
  return a.arity === b.arity;
}

/**
 * Compares two demands position by position without recursion (demands on lists of 100,000
 * cells, as the tests walk, are fine): `whenUnforced` decides each pair where at least one side
 * is unforced, and holds of two unforced ones.
 */
function compareDemands(a: Demand, b: Demand, whenUnforced: (a: Demand, b: Demand) => boolean, closingBelow = false): boolean {
  const stack: Demand[] = [a, b];
  // The pairs compared already where one side is shared: each is compared once.
  let seen: PairMap<true> | undefined;
  while (stack.length > 0) {
    const y = stack.pop()!;
    const x = stack.pop()!;
    if (!x.forced || !y.forced) {
      if (!whenUnforced(x, y)) return false;
      continue;
    }
    if ((x.shared || y.shared) && !(seen ??= new PairMap()).add(x, y, true)) continue;
    if (closingBelow) {
      // A close is below what its place holds, but another close: it closes no later.
      if (isClose(x)) {
        if (isClose(y) && !sameCtor(x.ctor, y.ctor)) return false;
        continue;
      }
      // An iterator taken and left is an iteration left open after 0 pulls: below only what does not end in a close.
      if (isTaken(x)) {
        if (endsClosed(y)) return false;
        continue;
      }
      if (x.ctor.iterations !== undefined && y.ctor.iterations !== undefined) {
        if (!iterationsBelow(x, y, stack)) return false;
        continue;
      }
    }
    if (!sameLayer(x, y)) return false;
    // Asked of every pair compared: no array made, and y asked only where x is a run.
    const xRun = cellRun(x);
    const yRun = xRun === undefined ? undefined : cellRun(y);
    if (xRun !== undefined && yRun !== undefined) {
      if (!alikeRuns(xRun, yRun, stack)) return false;
      continue;
    }
    for (let i = x.arity - 1; i >= 0; i--) stack.push(x.field(i), y.field(i));
  }
  return true;
}

/**
 * The iterations of a re-iterable source `x` against those of `y`, in the order: one not begun in
 * `x` (`_`, or past its fields) is below any, one begun is below only one begun in `y` (the pair
 * left on `stack`).
 */
function iterationsBelow(x: Forced, y: Forced, stack: Demand[]): boolean {
  for (let i = x.arity - 1; i >= 0; i--) {
    const a = x.field(i);
    if (!a.forced) continue;
    const b = iterationAt(y, i);
    if (!b.forced) return false;
    stack.push(a, b);
  }
  return true;
}

/** @internal Iteration `i` of the `Iterations` node `x`: `_` past its fields, not begun. */
export function iterationAt(x: Forced, i: number): Demand {
  return i < x.arity ? x.field(i) : unforced;
}

/**
 * @internal A run of list cells kept compactly, which a walk reads head by head: compact-demand.ts's
 * `SpineCell`, a {@link Forced} list cell by its prototype, whose fields make a node per cell.
 */
export interface CellRun {
  /** Its heads, a primitive as itself, and what follows its last cell. */
  readonly spine: { readonly length: number; head(k: number): unknown; readonly rest: Demand };
  /** Its first cell's index in the spine. */
  readonly k: number;
  /** The run from cell `k` on, or the rest after the last cell. */
  cellAt(k: number): Demand;
}

/** @internal `d` as the run of list cells it is (see {@link CellRun}), or undefined if it is one cell, or no cell. */
export function cellRun(d: Demand): (Forced & CellRun) | undefined {
  return (d as Partial<CellRun>).cellAt !== undefined ? (d as Forced & CellRun) : undefined;
}

/**
 * Compares two runs of list cells as far as their heads are primitives, without a node per cell:
 * false at two that differ; the first cells where one is not (or one run ends) are left on
 * `stack` to compare as {@link compareDemands} does.
 */
function alikeRuns(x: CellRun, y: CellRun, stack: Demand[]): boolean {
  let [i, j] = [x.k, y.k];
  for (; i < x.spine.length && j < y.spine.length; i++, j++) {
    const [h, g] = [x.spine.head(i), y.spine.head(j)];
    // Two heads left unforced are alike to every comparison (its `whenUnforced` holds of them): no node per cell for them.
    if (h === unforced && g === unforced) continue;
    if ((typeof h === 'object' && h !== null) || (typeof g === 'object' && g !== null)) {
      const [cx, cy] = [x.cellAt(i) as Forced, y.cellAt(j) as Forced];
      stack.push(cx.field(1), cy.field(1), cx.field(0), cy.field(0));
      return true;
    }
    // A primitive's node has the constructor of its type and no `equals`: alike if it is the same.
    if (!Object.is(h, g)) return false;
  }
  stack.push(x.cellAt(i), y.cellAt(j));
  return true;
}

/** @internal A map from pairs of nodes, for walks over two demands that meet shared nodes. */
export class PairMap<V> {
  /** The first node of each pair: its partners, one held inline (most nodes have one), more in a map. */
  private readonly pairs = new Map<Forced, { y: Forced; v: V } | Map<Forced, V>>();

  /** The value of the pair (`x`, `y`), if it has one. */
  get(x: Forced, y: Forced): V | undefined {
    const there = this.pairs.get(x);
    if (there === undefined) return undefined;
    if (there instanceof Map) return there.get(y);
    return there.y === y ? there.v : undefined;
  }

  /** Gives the pair (`x`, `y`) the value `v` unless it has one: whether it had none (one lookup of `x`, where {@link get} then {@link set} took two). */
  add(x: Forced, y: Forced, v: V): boolean {
    const there = this.pairs.get(x);
    if (there === undefined) this.pairs.set(x, { y, v });
    else if (there instanceof Map) {
      if (there.has(y)) return false;
      there.set(y, v);
    } else if (there.y === y) return false;
    else this.pairs.set(x, new Map([[there.y, there.v], [y, v]]));
    return true;
  }

  /** Sets the value of the pair (`x`, `y`). */
  set(x: Forced, y: Forced, v: V): void {
    const there = this.pairs.get(x);
    if (there === undefined || (!(there instanceof Map) && there.y === y)) this.pairs.set(x, { y, v });
    else if (there instanceof Map) there.set(y, v);
    else this.pairs.set(x, new Map([[there.y, there.v], [y, v]]));
  }
}

/**
 * Whether two demands are equal: the same positions evaluated, the same constructors and primitives.
 * A `⊥` (a part forced whose evaluation threw) equals only a `⊥`.
 * Constructors of two declared data types differ even where their names are alike (the types'
 * names differ); a demand that is not one is refused with a TypeError.
 *
 * @example
 * ```ts
 * demandEquals(toDemand(cons(thunk, nil)), toDemand(cons(thunk, nil))); // true
 * demandEquals(toDemand(cons(thunk, nil)), toDemand(cons(1, nil)));     // false
 * ```
 */
export function demandEquals(a: Demand, b: Demand): boolean {
  checkDemand(a, 'demandEquals', 'a');
  checkDemand(b, 'demandEquals', 'b');
  return equalDemands(a, b);
}

/** @internal {@link demandEquals} of two demands known to be demands (the checker's own, compared on every trial: checking them costs a call into the runtime each). */
export function equalDemands(a: Demand, b: Demand): boolean {
  // Two primitives (a prediction of a number, compared on every trial) without the walk and its stack.
  if (a.forced && b.forced && a.ctor.style === 'prim' && b.ctor.style === 'prim') return sameLayer(a, b);
  return compareDemands(a, b, bothForcedOrNot);
}

function bothForcedOrNot(x: Demand, y: Demand): boolean {
  return x.forced === y.forced;
}

/**
 * Whether `a` is less defined than (or equal to) `b`: a prefix of it, evaluating nothing that `b`
 * does not. "No stricter than" in the checker. A `⊥` (a part forced whose evaluation threw) is
 * forced: `_` is less defined than it, and it is less defined only than `⊥`. On an iterable,
 * `a` pulls no more and closes no later: closing it (`return()`, `throw()`) is less defined than
 * whatever `b` does at that place but the other close, and leaving it open (`_`) is less defined
 * only than what does not end in a close (`1 : _` is below `1 : 2 : []`, not below `1 : 2 : return()`).
 * On a re-iterable source (its demand is its `Iterations`), an iteration never begun has nothing
 * to close: `_` there, or an iteration `a` lacks, is below any; one whose iterator was taken and
 * left (`taken`) is left open after 0 pulls, not below `return()`.
 *
 * @example
 * ```ts
 * lessDefined(toDemand(cons(thunk, cons(2, thunk))), toDemand(cons(1, cons(2, thunk)))); // true: _ : 2 : _ is a prefix of 1 : 2 : _
 * lessDefined(toDemand(cons(1, cons(2, thunk))), toDemand(cons(thunk, cons(2, thunk)))); // false
 * ```
 */
export function lessDefined(a: Demand, b: Demand): boolean {
  checkDemand(a, 'lessDefined', 'a');
  checkDemand(b, 'lessDefined', 'b');
  return definedBelow(a, b);
}

/** @internal {@link lessDefined} of two demands known to be demands (see {@link equalDemands}). */
export function definedBelow(a: Demand, b: Demand): boolean {
  return compareDemands(a, b, closesOrOpenBelow, true);
}

/**
 * Against a place left open, a closing is below it (it closes earlier); the open one (it never
 * closes) is below only what does not end in a close (see {@link endsClosed}): a re-iterable
 * source's iterations never do, as one not begun has nothing to close.
 */
function closesOrOpenBelow(x: Demand, y: Demand): boolean {
  return x.forced ? isClose(x) : !endsClosed(y);
}

/** @internal Whether demand `d` is a consumer's close of an iteration (`return()`, `throw()`). */
export function isClose(d: Forced): boolean {
  return d.ctor.closes === true;
}

/** @internal Whether demand `d` is an iteration of a re-iterable source whose iterator was taken and left (`taken`). */
export function isTaken(d: Forced): boolean {
  return d.ctor.taken === true;
}

/** @internal The field of node `x` that an iteration goes on in: a list cell's tail, else the one its constructor names (`Ahead`'s); `undefined` for none. */
export function iterationField(x: Forced): number | undefined {
  return x.ctor.style === 'cons' ? 1 : x.ctor.iterationField;
}

// Demands are immutable once handed out, so whether one ends closed is kept: glb asks it of each
// cell of an iteration, which would walk its rest each time.
const closedEnds = new WeakMap<Forced, boolean>();

/**
 * @internal Whether demand `d` ends an iteration in a consumer's close (`return()`, `throw()`),
 * following its pulls (a list cell's tail, see {@link iterationField}): an iteration left open
 * (`_`) is below `d` only where it does not, since it never closes. An element's own closes do
 * not count: an element not pulled was no iteration left open. The `Iterations` of a re-iterable
 * source end in none: not iterating it at all closes nothing.
 */
export function endsClosed(d: Demand): boolean {
  if (!d.forced) return false; // asked of every pair compared whose first is _: most often another _
  if (isClose(d)) return true;
  // A node no iteration runs through (a number, a tree's node) ends in no close: nothing to remember.
  if (cellRun(d) === undefined && iterationField(d) === undefined) return false;
  const chain: Forced[] = [];
  let closed = false;
  for (let x: Demand = d; x.forced; ) {
    const known = closedEnds.get(x);
    if (known !== undefined) {
      closed = known;
      break;
    }
    if (isClose(x)) {
      closed = true;
      break;
    }
    chain.push(x);
    // A run of cells kept compactly ends where its rest begins.
    const run = cellRun(x);
    const along = iterationField(x);
    if (run !== undefined) x = run.spine.rest;
    else if (along !== undefined) x = x.field(along);
    else break;
  }
  for (const x of chain) closedEnds.set(x, closed);
  return closed;
}

/** Where {@link demandSize} has counted the layers of a shared node: `start` before it. */
class SizeOf {
  constructor(
    readonly node: Forced,
    readonly start: number,
  ) {}
}

/**
 * Counts the evaluated layers of a demand (its size), as it unfolds: a layer shared by several
 * parts of the demand (the demand on an object the value reaches through several paths) counts
 * at each, though it is walked once.
 *
 * @example
 * ```ts
 * demandSize(toDemand(cons(thunk, cons(2, thunk)))); // 3: two cells and an element
 * demandSize(toDemand(thunk));                      // 0
 * ```
 */
export function demandSize(d: Demand): number {
  checkDemand(d, 'demandSize', 'd');
  let n = 0;
  const stack: (Demand | SizeOf)[] = [d];
  // The sizes of shared nodes, each counted once and added where it is met again.
  let sizes: Map<Forced, number> | undefined;
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x instanceof SizeOf) {
      sizes!.set(x.node, n - x.start);
      continue;
    }
    if (!x.forced) continue;
    if (x.shared) {
      const known = (sizes ??= new Map()).get(x);
      if (known !== undefined) {
        n += known;
        continue;
      }
      stack.push(new SizeOf(x, n));
    }
    n++;
    for (let i = 0; i < x.arity; i++) stack.push(x.field(i));
  }
  return n;
}
