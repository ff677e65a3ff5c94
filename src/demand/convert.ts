/**
 * Conversions between values and explicit demands: `toDemand`/`fromDemand` for demands written
 * as values with `thunk` in them (paper, section 4), and snapshots of values for printing.
 * All conversions walk with an explicit stack, so a list of 100,000 cells (as the tests walk) is fine.
 * @module
 */
import { BottomForced, defer, deferredWith, deferWith, Lazy, lazy, lazyAt, MAX_LAZY_INDEX, now, peek, thunk } from '../lazy/lazy.ts';
import { bottom, BOTTOM, checkDemand, demandHolder, Forced, forcedNode, setField, unforced, type Demand } from './demand.ts';
import { demandOf } from './record.ts';
import { Cons } from '../lazy/cell.ts';
import { primitiveNode, SpineCell, type Spine } from './compact-demand.ts';
import { EVALUATED, markBottom, read, THREW, UNREAD, VALUE_FORM } from './guide.ts';
import { isBottom } from './value-form.ts';
import { insideLazy } from './shape-fit.ts';
import { isRevokedProxy, readingRevoked } from './revoked-proxy.ts';
import { collectionShapes, fieldKey } from './collections.ts';
import { dynamic } from './dynamic.ts';
import { CONS_CTOR } from './lazy-positions.ts';
import { child, type Path } from './path.ts';
import type { Ctor, Shape } from './shape-types.ts';
import { perShape, someShapeWithin } from './shape-walk.ts';
import { lastAsked } from './last-asked.ts';

/** An atom printed as `…`: the part of a value not shown. */
const ELIDED: Ctor = { name: '…', keys: [], style: 'atom', build: () => thunk };
/** Prints a revoked Proxy in a report, where every other look at it throws. */
const REVOKED: Ctor = { name: '<revoked Proxy>', keys: [], style: 'atom', build: () => thunk };

/**
 * The first `budget` layers of a value, forcing as it goes (for printing values that may be huge
 * or infinite), or with `force` false only as far as it is evaluated already (for printing it as
 * it is, which may be cyclic: `repeat(1)`, forced, is a cell whose tail is itself): `thunk` and
 * what is not evaluated stay unforced, the layers past the budget are one `…` atom, a part known
 * to throw (see {@link toDemand}) is a `⊥` atom, and an error thrown by forcing another part
 * propagates, or with `bottoms` is a `⊥` atom too (and a revoked Proxy, which throws at any look,
 * a `<revoked Proxy>` atom) (for reports, which must show a partial input, one with an element
 * that throws, rather than throw its error).
 * Top-down, depth first, fields in order; the work list is one array of (value, shape, path,
 * parent node, field index) entries laid flat.
 *
 * @example
 * ```ts
 * prettyDemand(valuePrefix(List.repeat(1), dynamic, 4)); // '1 : 1 : …'
 * prettyDemand(valuePrefix(cons(lazy(() => { throw new Error('bottom'); }), nil), dynamic, 200, true, true)); // '⊥ : []'
 * ```
 */
export function valuePrefix(value: unknown, shape: Shape<unknown> = dynamic, budget = 200, force = true, bottoms = false): Demand {
  const path: Path = 'value';
  const root = demandHolder();
  const stack: unknown[] = [value, shape, path, root, 0];
  let left = budget;
  const guide = force ? VALUE_FORM : EVALUATED;
  while (stack.length > 0) {
    const index = stack.pop() as number;
    const parent = stack.pop() as Forced;
    const p = stack.pop() as Path;
    let s = stack.pop() as Shape<unknown>;
    let v = stack.pop();
    if (v === thunk) continue; // the field stays unforced
    let atLazyPosition = false;
    let threw = false;
    // A revoked Proxy throws at `instanceof` too: a report looks for one first.
    while (!(bottoms && isRevokedProxy(v)) && v instanceof Lazy) {
      s = insideLazy(s, v, p);
      try {
        v = read(v, guide);
      } catch (err) {
        if (!bottoms) throw err;
        v = THREW;
      }
      if (v === THREW) {
        threw = true;
        break;
      }
      atLazyPosition = true;
    }
    if (threw) {
      setField(parent, index, bottom);
      continue;
    }
    if (bottoms && isRevokedProxy(v)) {
      setField(parent, index, forcedNode(REVOKED, 0, undefined, atLazyPosition));
      continue;
    }
    if (v === UNREAD) continue; // reached `thunk`: the field stays unforced
    if (s.kind === 'lazy') s.project(v, p); // throws the mismatch
    if (left-- <= 0) {
      setField(parent, index, forcedNode(ELIDED, 0, undefined, atLazyPosition));
      continue;
    }
    const layer = s.project(v, p);
    const n = layer.fields.length;
    const node = forcedNode(layer.ctor, n, layer.value, atLazyPosition);
    setField(parent, index, node);
    for (let i = n - 1; i >= 0; i--) stack.push(layer.fields[i], layer.shapes[i], child(p, fieldKey(layer, i)), node, i);
  }
  return root.field(0);
}

/**
 * Converts a demand in value form (a value with {@link thunk} where nothing was evaluated) to
 * an explicit demand. Every `Lazy` that is not `thunk` is forced, as Haskell's `toDemand` does.
 * One that throws is `⊥` there (forced, and its evaluation threw) if it is known to throw: a part
 * of an input that threw when an observed function forced it (passed through by a spec), or a `⊥`
 * made by {@link fromDemand}; any other error is raised.
 *
 * @example
 * ```ts
 * toDemand(cons(thunk, cons(2, thunk)), list(number)); // the demand _ : 2 : _
 * ```
 */
export function toDemand<T>(value: T, shape: Shape<T> = dynamic as Shape<T>, path: Path = 'demand'): Demand {
  // A revoked Proxy (whose every look throws, instanceof too) is refused naming where it is.
  return readingRevoked(value, path, () => readAtOnce(value, shape as Shape<unknown>) ?? demandOf(value, shape as Shape<unknown>, path, VALUE_FORM));
}

/** @internal The demand {@link toDemand} reads off `value` at once, without a walk (forcing and counting nothing), if it does. */
export function readAtOnce(value: unknown, shape: Shape<unknown>): Demand | undefined {
  // A demand passed through as a spec received it (see inValueForm), not read yet, is the demand it came from.
  const passed = value instanceof Lazy ? deferredWith(value, convertLater) : undefined;
  if (passed !== undefined && readsAlike(passed.shape, shape)) return passed.demand;
  // ⊥ where the shape has no Lazy (a result that threw, at `number`): in value form a Lazy all the same (see isBottom).
  if (shape.kind !== 'lazy' && isBottom(value)) return bottom;
  // The commonest demands a spec predicts, a lazy position left alone or holding a primitive that
  // fits, are what the walk would make of them, without its setup (most of a small walk's cost).
  if (shape.kind === 'lazy' && value instanceof Lazy) {
    if (value === thunk) return unforced;
    const inner = shape.inner();
    if (inner.kind === 'prim' && value.isEvaluated && typeof peek(value) === inner.prim) return primitiveNode(peek(value), true);
  }
  return undefined;
}

/**
 * A snapshot of how far `value` is evaluated now, forcing nothing: unevaluated lazies are `_`.
 *
 * @example
 * ```ts
 * const xs = List.map((x: number) => x * 10, fromArray([1, 2, 3]));
 * List.take(2, xs).force(); // forces the first cell of xs, no element
 * prettyDemand(evaluatedPart(xs)); // '_ : _'
 * ```
 */
export function evaluatedPart<T>(value: T, shape: Shape<T> = dynamic as Shape<T>): Demand {
  return readingRevoked(value, 'value', () => demandOf(value, shape as Shape<unknown>, 'value', EVALUATED));
}

/**
 * Converts an explicit demand to a value with {@link thunk} at every unevaluated position (and a
 * `Lazy` that throws at every `⊥`, a part that threw when forced): the form in which specs receive
 * and return demands. A demand records a run of nested `Lazy`s as
 * one lazy position; `shape` says how many there are at each position (a list of lists holds
 * `Lazy<List<T>>`, two), where a dynamic shape wraps each in one.
 *
 * @example
 * ```ts
 * const xs = fromDemand<List.List<number>>(toDemand(cons(thunk, cons(2, thunk)), list(number)));
 * prettyValue(xs); // '_ : 2 : _'
 * ```
 */
export function fromDemand<T = unknown>(demand: Demand, shape: Shape<T> = dynamic as Shape<T>): T {
  checkDemand(demand, 'fromDemand', 'demand');
  return fromDemandAt(demand, shape as Shape<unknown>, false) as T;
}

/** {@link fromDemand} unchecked, built as a spec receives it (see {@link Ctor.received}) or not. */
function fromDemandAt(demand: Demand, shape: Shape<unknown>, received: boolean): unknown {
  // Where a shape nests no Lazy in a Lazy (and under the dynamic shape), every lazy position is one Lazy: no guide to ask.
  return fromDemandGuided(demand, shape, nestsLazies(shape) ? shapeGuide : undefined, dynamic, received);
}

/**
 * @internal {@link fromDemand}, converted only if it is read: a spec that passes the demand on
 * the result through to its prediction (`predict(n, d)`, a reference's prediction) leaves it
 * unread, and {@link toDemand} takes it back as the demand it is, where the shapes read it alike
 * (see {@link readsAlike}), without converting it twice. Where the demand's value is not one
 * `Lazy` (nothing forced, a `⊥`, a strict position), it is converted at once. Where it can be
 * (see {@link byLayer}, asked when the spec first reads it), it is converted a layer at a time as
 * the spec reads it, each lazy field unread in its turn: a spec that reads the first cells of a
 * long demand converts only those. `received` false builds it as embedded, as {@link fromDemand}
 * does, where it is a prediction rather than what a spec receives (a reference's observed demand on
 * an input, whose reading ahead a spec's received form would drop: see {@link Ctor.received}).
 */
export function inValueForm(demand: Demand, shape: Shape<unknown>, received = true): unknown {
  const onceLazy = shape.kind === 'lazy' ? shape.inner().kind !== 'lazy' : shape.kind === 'dynamic';
  if (!onceLazy || !demand.forced || !demand.lazy || demand.ctor === BOTTOM) return fromDemandAt(demand, shape, received);
  return deferWith(convertLater, new Unread(demand, shape, undefined, received));
}

/**
 * Whether `d` can be converted a layer at a time, each with the value {@link fromDemand} would
 * build: it holds no shared node (whose value is built once wherever it is met), no set or map
 * (whose unforced elements are told apart), and its shape one Lazy at each lazy position.
 */
function byLayer(d: Demand, shape: Shape<unknown>): boolean {
  if (nestsLazies(shape)) return false;
  const stack: Demand[] = [d];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (!x.forced) continue;
    if (x.shared || isCollection(x.ctor)) return false;
    if (x instanceof SpineCell) {
      // A run's heads as they are kept: its fields would make a node per cell.
      x.pushParts(stack);
      continue;
    }
    for (let i = 0; i < x.arity; i++) stack.push(x.field(i));
  }
  return true;
}

/**
 * A demand handed to a spec in value form and not read yet (see {@link inValueForm}); `layers`,
 * whether it is converted a layer at a time, worked out when it is first read (a spec that passes
 * it through unread never asks).
 */
export class Unread {
  constructor(
    readonly demand: Demand,
    readonly shape: Shape<unknown>,
    public layers: boolean | undefined,
    /** Whether it is built as a spec receives it, else as embedded (see {@link inValueForm}). */
    readonly received: boolean,
  ) {}
}

function convertLater(unread: Unread): Lazy<unknown> {
  const { demand, shape, received } = unread;
  if (!(unread.layers ??= byLayer(demand, shape))) return fromDemandAt(demand, shape, received) as Lazy<unknown>;
  // One layer, in the one Lazy of its lazy position, as buildValue makes it; its fields unread in their turn.
  if (demand instanceof SpineCell) return now(cellLater(new SpineLater(demand, shape, received), demand.k));
  const d = demand as Forced;
  const fields: unknown[] = new Array(d.arity);
  for (let i = 0; i < d.arity; i++) fields[i] = layerLater(d.field(i), fieldShape(shape, d.ctor, i), received);
  return now(builtAs(d, fields, received));
}

/**
 * @internal A run of list cells (a spine, of which `first` is a cell) converted a cell at a time
 * (see {@link convertLater}), the cells at `shape`: the shapes of their heads and tails found once
 * for all the cells where a tail has the cell's own shape (a declared list's cells past the first).
 */
export class SpineLater {
  readonly spine: Spine;
  readonly head: Shape<unknown>;
  readonly tail: Shape<unknown>;
  constructor(
    readonly first: SpineCell,
    readonly shape: Shape<unknown>,
    /** Whether the cells are built as a spec receives them, else as embedded (see {@link inValueForm}). */
    readonly received: boolean,
  ) {
    this.spine = first.spine;
    this.head = fieldShape(shape, CONS_CTOR, 0);
    this.tail = fieldShape(shape, CONS_CTOR, 1);
  }
}

/**
 * Cell `k` of a spine in value form, its head unread where it is a layer (see {@link layerLater}),
 * the next cell converted when its tail is forced: one thunk a cell, which computes the cell, where
 * a cell unread was an Unread, a cell of the demand, and a thunk of a thunk of the cell (forced
 * through the slow path of chains).
 */
function cellLater(later: SpineLater, k: number): Cons<unknown> {
  const { spine, tail } = later;
  const h = spine.head(k);
  const head = h === unforced ? thunk : typeof h === 'object' ? layerLater(h as Demand, later.head, later.received) : now(h);
  // The next cell at the tail's shape: by this conversion where that is this cell's (see SpineLater). Past the last cell, the rest.
  const next = k + 1 < spine.length && k < MAX_LAZY_INDEX ? lazyAt(cellLater, tail === later.shape ? later : new SpineLater(later.first, tail, later.received), k + 1) : layerLater(later.first.cellAt(k + 1), tail, later.received);
  return new Cons(head as Lazy<unknown>, next as Lazy<never>);
}

/** The value of layer `d` from the values of its fields, as a spec receives it (see {@link Ctor.received}) or as embedded. */
function builtAs(d: Forced, fields: readonly unknown[], received: boolean): unknown {
  return received && d.ctor.received ? d.ctor.received(fields) : d.ctor.build(fields, d.value);
}

/**
 * The shape of field `i` of constructor `ctor` in the lazy position of `shape`; the dynamic shape
 * where `shape` does not say, at which {@link toDemand} never takes a part for the demand it came
 * from: a spec passing it for an argument of another shape is refused, as a whole demand is.
 */
function fieldShape(shape: Shape<unknown>, ctor: Ctor, i: number): Shape<unknown> {
  const inner = shape.kind === 'lazy' ? shape.inner() : undefined;
  // A loop, not `find`: asked twice for every cell of a result demand a spec reads.
  if (inner?.kind === 'data') for (const alt of inner.alternatives()) if (alt.ctor === ctor) return alt.shapes[i] ?? (dynamic as Shape<unknown>);
  return dynamic as Shape<unknown>;
}

/** The value form of `d`, a part of a demand converted a layer at a time: unread where it is one Lazy, else built. */
function layerLater(d: Demand, shape: Shape<unknown>, received: boolean): unknown {
  if (!d.forced) return thunk;
  return d.lazy && d.ctor !== BOTTOM ? deferWith(convertLater, new Unread(d, shape, true, received)) : fromDemandGuided(d, shape, undefined, dynamic, received);
}

/** Most levels {@link readsAlike} follows: a shape whose inner shapes are made anew at each call has no end. */
const MOST_LEVELS = 64;
const alike = new WeakMap<Shape<unknown>, WeakMap<Shape<unknown>, boolean>>();

/**
 * @internal Whether a demand read at shape `a` is, unchanged, the one `toDemand` reads at shape
 * `b` from its value form: the same primitives, lazy positions and constructors all through, and
 * nothing whose value form reads back otherwise (a function, read as called or not; a set or a
 * map; an opaque value; a shape read by an arbitrary or a protocol; the dynamic shape). Worked out
 * once for each pair.
 */
// The pair asked last, kept: a check asks the same pair on every trial.
const readsAlike = lastAsked((a: Shape<unknown>, b: Shape<unknown>): boolean => {
  let known = alike.get(a);
  if (!known) alike.set(a, (known = new WeakMap()));
  let v = known.get(b);
  if (v === undefined) known.set(b, (v = alikeWithin(a, b, [], 0)));
  return v;
});

/** {@link readsAlike}, assuming the pairs `assumed` (being compared further up: recursive types) alike. */
function alikeWithin(a: Shape<unknown>, b: Shape<unknown>, assumed: Shape<unknown>[], depth: number): boolean {
  if (depth > MOST_LEVELS || a.arbitrary || b.arbitrary || a.protocol || b.protocol || a.kind !== b.kind) return false;
  for (let i = 0; i < assumed.length; i += 2) if (assumed[i] === a && assumed[i + 1] === b) return true;
  if (a.kind === 'prim') return a.prim === (b as typeof a).prim && a.prim !== 'opaque';
  if (a.kind === 'lazy') {
    assumed.push(a, b);
    return alikeWithin(a.inner(), (b as typeof a).inner(), assumed, depth + 1);
  }
  if (a.kind !== 'data' || a.collection || (b as typeof a).collection) return false;
  const [xs, ys] = [a.alternatives(), (b as typeof a).alternatives()];
  if (xs.length !== ys.length) return false;
  assumed.push(a, b);
  return xs.every((x, i) => {
    const y = ys[i]!;
    return x.ctor === y.ctor && x.shapes.length === y.shapes.length && x.shapes.every((f, j) => alikeWithin(f, y.shapes[j]!, assumed, depth + 1));
  });
}

/** Whether some lazy position of a shape holds a Lazy in a Lazy (a list of lists does). */
const nestsLazies = perShape((shape) => someShapeWithin(shape, (s) => s.kind === 'lazy' && s.inner().kind === 'lazy'));

/** @internal What a guide tells of a forced layer at a position: how many Lazies it sits in, and what it knows of its fields' positions. */
export interface GuideStep<G> {
  readonly layers: number;
  readonly fields: readonly G[];
}

/** @internal How {@link fromDemandGuided} learns, at a position it knows as `G`, what a forced layer there is in. */
export type DemandGuide<G> = (at: G, d: Forced) => GuideStep<G>;

const shapeSteps = new WeakMap<Shape<unknown>, Map<Ctor, GuideStep<Shape<unknown>>>>();

/** A shape's guide (worked out once per shape and constructor): the `lazyOf`s at a position are its Lazies; the fields' shapes are those of the demand's constructor. */
const shapeGuide: DemandGuide<Shape<unknown>> = (at, d) => {
  let known = shapeSteps.get(at);
  if (!known) shapeSteps.set(at, (known = new Map()));
  let step = known.get(d.ctor);
  if (step === undefined) known.set(d.ctor, (step = shapeStep(at, d)));
  return step;
};

function shapeStep(at: Shape<unknown>, d: Forced): GuideStep<Shape<unknown>> {
  let s = at;
  let layers = 0;
  for (; s.kind === 'lazy'; layers++) s = s.inner();
  if (s.kind !== 'data') return { layers: s.kind === 'dynamic' ? 1 : layers, fields: [] };
  const c = s.collection;
  if (c) return { layers, fields: collectionShapes(c, d.arity) };
  const alt = s.alternatives().find((a) => a.ctor === d.ctor || (a.ctor.name === d.ctor.name && a.shapes.length === d.arity));
  return { layers, fields: alt?.shapes ?? [] };
}

/**
 * @internal A value's guide: a demand on (a copy of) `value` is rebuilt with the value's own
 * nesting of Lazies, for demands observed without shapes (`specify`). Where the value is not
 * evaluated, or has another constructor, one Lazy per lazy position.
 */
export const valueGuide: DemandGuide<unknown> = (at, d) => {
  let v = at;
  let layers = 0;
  for (; v instanceof Lazy && v.isEvaluated; layers++) v = peek(v);
  const layer = v instanceof Lazy || v === undefined ? undefined : dynamic.project(v, null);
  return { layers: v instanceof Lazy ? 1 : layers, fields: layer && layer.fields.length === d.arity ? layer.fields : [] };
};

/**
 * @internal {@link fromDemand}, the number of `Lazy`s at each position told by `guide` (one each
 * without a guide), from `root` at the top; a position the guide knows nothing of is `unknown`.
 *
 * Pre-order, then built in reverse, so that every node's fields exist before the node. A run of
 * list cells recorded as a spine is one item, built from its end, its primitive and unforced
 * heads read off the spine as they are: a node per cell (a {@link SpineCell} and a primitive's
 * node, which reading the demand would also keep in it) made a demand on 10^7 cells take three
 * times the memory of the list built. Only what a run's cells need apart is kept for them: the
 * heads that are nodes, and with a guide, each cell's Lazies.
 *
 * A shared node (see `markShared`) is built once per position the guide knows it at, its value
 * shared alike: first those below it, then it, then what holds it (see {@link SharedValues}).
 */
export function fromDemandGuided<G>(demand: Demand, root: G, guide: DemandGuide<G> | undefined, unknown: G, received = false): unknown {
  const shared = new SharedValues<G>();
  // What is still to build, the last first: a build that meets shared nodes not built yet is done again after them.
  const pending: [Demand, G][] = [[demand, root]];
  for (;;) {
    const [d, g] = pending[pending.length - 1]!;
    if (pending.length > 1 && shared.has(d, guide ? g : undefined)) {
      pending.pop();
      continue;
    }
    const v = buildValue(d, g, guide, unknown, shared, received);
    if (shared.missing.length > 0) {
      pending.push(...shared.missing);
      shared.missing.length = 0;
      continue;
    }
    pending.pop();
    if (pending.length === 0) return v;
    shared.set(d, guide ? g : undefined, v);
  }
}

/** A value built already for a shared node, as an item of {@link buildValue}'s work list. */
export class Built {
  constructor(readonly value: unknown) {}
}

/** The values built for shared nodes, by node and position (`undefined` without a guide); and those a build met and found missing. */
export class SharedValues<G> {
  // Made at the first shared node: most demands have none.
  private values: Map<Forced, SharedValue<G>> | undefined;
  readonly missing: [Demand, G][] = [];

  has(d: Demand, at: G | undefined): boolean {
    return this.find(d as Forced, at) !== undefined;
  }

  set(d: Demand, at: G | undefined, value: unknown): void {
    const values = (this.values ??= new Map());
    values.set(d as Forced, { at, value: new Built(value), next: values.get(d as Forced) });
  }

  /** What stands for shared node `d` at `at` in a build: its value, or if it is not built yet, a placeholder, `d` noted missing. */
  item(d: Forced, at: G): Built {
    const found = this.find(d, at);
    if (found === undefined) this.missing.push([d, at]);
    return found?.value ?? MISSING;
  }

  private find(d: Forced, at: G | undefined): SharedValue<G> | undefined {
    for (let e = this.values?.get(d); e !== undefined; e = e.next) if (e.at === at) return e;
    return undefined;
  }
}

/** A value built for a shared node at one position, and those built for it at others. */
interface SharedValue<G> {
  readonly at: G | undefined;
  readonly value: Built;
  readonly next: SharedValue<G> | undefined;
}
const MISSING = new Built(undefined);

/**
 * The items of one build of {@link buildValue}, in pre-order: each node (or the value built for a
 * shared one), its position as the guide knows it, its parent item and its slot there. A class,
 * not a closure made per build: under tsx every named closure is renamed as it is made.
 */
export class BuildItems<G> {
  readonly nodes: (Demand | Built)[];
  readonly at: G[];
  readonly parent: number[] = [-1];
  readonly slot: number[] = [0];

  constructor(
    demand: Demand,
    root: G,
    private readonly guide: DemandGuide<G> | undefined,
    private readonly shared: SharedValues<G>,
  ) {
    this.nodes = [demand];
    this.at = [root];
  }

  push(d: Demand, g: G | undefined, i: number, j: number): void {
    const { nodes, guide } = this;
    nodes.push(d.forced && d.shared ? this.shared.item(d, (guide ? g : undefined) as G) : d);
    if (guide) this.at[nodes.length - 1] = g as G;
    this.parent.push(i);
    this.slot.push(j);
  }
}

/** One build of {@link fromDemandGuided}: the value of `demand`, where the shared nodes below it are built already (or noted missing in `shared`). */
function buildValue<G>(demand: Demand, root: G, guide: DemandGuide<G> | undefined, unknown: G, shared: SharedValues<G>, received: boolean): unknown {
  const items = new BuildItems<G>(demand, root, guide, shared);
  const { nodes, at, parent, slot } = items;
  const layers: number[] = [];
  // The values of each item's fields; for a run, its rest's at 0 and its heads that are nodes, cell j's at j + 1.
  const values: unknown[][] = [];
  // A run's heads' and cells' Lazies, with a guide: cell j's head's at 2j, the cell's at 2j + 1.
  const runLayers: number[][] = [];
  for (let i = 0; i < nodes.length; i++) {
    const d = nodes[i]!;
    if (d instanceof Built) {
      values.push([]);
      continue;
    }
    if (d instanceof SpineCell) {
      values.push([]);
      let g: G = at[i]!;
      const runs: number[] | undefined = guide ? (runLayers[i] = []) : undefined;
      for (let k = d.k, j = 0; k < d.spine.length; k++, j++) {
        // Every cell of a run has the first's constructor, all a guide reads of it.
        const here = guide?.(g, d as unknown as Forced);
        const h = d.spine.head(k);
        const headAt = here ? (here.fields[0] ?? unknown) : undefined;
        if (typeof h === 'object' && h !== unforced) items.push(h as Demand, headAt, i, j + 1);
        else if (here && h !== unforced) runs![2 * j] = guide!(headAt as G, primitiveNode(h, true)).layers;
        if (here) {
          runs![2 * j + 1] = here.layers;
          g = here.fields[1] ?? unknown;
        }
      }
      items.push(d.spine.rest, guide ? g : undefined, i, 0);
      continue;
    }
    values.push(d.forced ? new Array(d.arity) : []);
    if (!d.forced) continue;
    const here = guide?.(at[i]!, d);
    if (here) layers[i] = here.layers;
    for (let j = 0; j < d.arity; j++) items.push(d.field(j), here ? (here.fields[j] ?? unknown) : undefined, i, j);
  }
  if (shared.missing.length > 0) return undefined;
  let result: unknown;
  for (let i = nodes.length - 1; i >= 0; i--) {
    const d = nodes[i]!;
    let v: unknown;
    if (d instanceof Built) v = d.value;
    else if (d instanceof SpineCell) v = buildRun(d, values[i]!, runLayers[i]);
    else if (!d.forced) v = parent[i]! >= 0 && isCollection((nodes[parent[i]!] as Forced).ctor) ? defer(() => thunk) : thunk;
    else if (d.ctor === BOTTOM) markBottom((v = lazy(throwBottom)) as Lazy<unknown>);
    else v = wrapped(builtAs(d, values[i]!, received), d.lazy ? (layers[i] ?? 1) : 0);
    if (parent[i]! < 0) result = v;
    else values[parent[i]!]![slot[i]!] = v;
  }
  return result;
}

/** What a {@link bottom} demand in value form throws when forced. */
function throwBottom(): never {
  throw new BottomForced('⊥: this part of the value threw when it was forced (a ⊥ of a demand, in value form; test it with isBottom)');
}

/** `v` in `n` Lazies, at least one if `n` is not 0 (a lazy layer the guide knows nothing of is in one). */
function wrapped(v: unknown, n: number): unknown {
  for (let k = n === 0 ? 0 : Math.max(1, n); k > 0; k--) v = now(v);
  return v;
}

/** The list cells of spine run `d`, from its end: `built` holds its rest and its heads that are nodes (see above); `lazies` what a guide said. */
function buildRun(d: SpineCell, built: readonly unknown[], lazies: readonly number[] | undefined): unknown {
  const { spine } = d;
  let tail = built[0];
  for (let k = spine.length - 1, j = k - d.k; j >= 0; k--, j--) {
    const h = spine.head(k);
    const head = h === unforced ? thunk : typeof h === 'object' ? built[j + 1] : wrapped(h, lazies?.[2 * j] ?? 1);
    tail = wrapped(CONS_CTOR.build([head, tail]), lazies?.[2 * j + 1] ?? 1);
  }
  return tail;
}

/** The elements of a set (and the keys of a map) are told apart by identity: an unforced one is a `thunk` of its own. */
const isCollection = (c: Ctor) => c.style === 'set' || c.style === 'map';
