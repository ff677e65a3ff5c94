/**
 * Reading demands off values, in one walk: the built-in contexts (`normalize`, `whnf`,
 * `toContext`, `fitContext`) record the demand they exert while they force a value, so that
 * observing under them needs no instrumented copy of the result (a copy costs more than the
 * evaluation it watches); `toDemand` reads a demand written as a value, `evaluatedPart` what is
 * evaluated of one. The demands built here and by instrumented copies (`instrument.ts`) share
 * their compact form.
 *
 * Observation is dominated by the garbage collector copying what it allocates and what lives
 * until the observation ends, the demands among it, so demands are compact: a run of list cells
 * is one array (a {@link Spine}), a primitive a two-field node.
 * @module
 */
import { ForceBudgetExceeded, forceOrThunk, Lazy, peek, thunk, UNEVALUATED, UnevaluatedError } from '../lazy/lazy.ts';
import { Cons } from '../lazy/cell.ts';
import { fastInstanceof, keepHiddenClasses } from '../lazy/fast-class.ts';
import { bottom, demandHolder, Forced, forcedNode, markShared, setField, unforced, type Demand } from './demand.ts';
import { fieldKey, fieldKeyOf } from './collections.ts';
import { DYN2 } from './dynamic.ts';
import { CONS_CTOR } from './lazy-positions.ts';
import { child, showPath, type Path } from './path.ts';
import { FN_CTOR, primitiveCtor } from './primitives.ts';
import { ShapeMismatchError } from './shape-errors.ts';
import type { Layer, Shape } from './shape-types.ts';
import { isInputFailure } from './input-failures.ts';

/** Marks an instrumented function; the property holds whether it has been called. @internal */
export const CALLED = Symbol('strictcheck.called');

/**
 * How a walk treats the lazy positions it meets, from one position down: force all of them
 * (`normalize`), force this one and none below (`whnf`), force none, read what is evaluated
 * already (what a run evaluated), force all but those that reach `thunk` (a demand
 * written as a value, `toDemand`), or force as far as a demand says.
 * @internal
 */
export type Guide = typeof ALL | typeof WHNF | typeof NONE | typeof EVALUATED | typeof VALUE_FORM | Demand;
export const ALL = 0;
export const WHNF = 1;
export const NONE = 2;
export const EVALUATED = 3;
export const VALUE_FORM = 4;

/** The guide for field `i` of a layer walked under `g`. */
function below(g: Guide, i: number): Guide {
  return typeof g === 'number' ? (g === WHNF ? NONE : g) : (g as Forced).field(i);
}

/** The `typeof` of each kind of primitive, to check primitives against their shapes without projecting them. */
const PRIM_TYPES: Record<string, string> = { number: 'number', string: 'string', boolean: 'boolean', bigint: 'bigint', unit: 'undefined' };

/** The shape of what the Lazy `v` holds, where `v` sits at shape `s`: throws the mismatch if `s` is not a lazy position. @internal */
export function insideLazy(s: Shape<unknown>, v: Lazy<unknown>, p: Path): Shape<unknown> {
  const inner = insideLazyPosition(s);
  if (inner === undefined) s.project(v, p); // throws the mismatch
  return inner ?? s;
}

/** The shape of what a `Lazy` holds at a field of shape `s`, or `undefined` if that field is not a lazy position. @internal */
export function insideLazyPosition(s: Shape<unknown>): Shape<unknown> | undefined {
  return s.kind === 'lazy' ? s.inner() : s.kind === 'dynamic' ? s : undefined;
}

/** Whether primitive `v` has shape `s` (cheaply: without projecting it). @internal */
export function primitiveFits(v: unknown, s: Shape<unknown>): boolean {
  return s.kind === 'dynamic' || (s.kind === 'prim' && PRIM_TYPES[s.prim] === typeof v);
}

/** Throws the mismatch if primitive `v` does not have shape `s`. @internal */
export function checkPrimitive(v: unknown, s: Shape<unknown>, p: Path): void {
  if (!primitiveFits(v, s)) s.project(v, p);
}

/**
 * @internal A value handed to a walk that keeps no other reference to it: the walk takes it out,
 * so that what it has walked past can be collected while it goes on. The result of an observed
 * function is handed so to the context: kept, the head of a long lazy result kept every cell
 * of it, and the garbage collector copied them all.
 */
export class Handoff {
  constructor(private value: unknown) {}
  take(): unknown {
    const v = this.value;
    this.value = undefined;
    return v;
  }
}

/**
 * Walks `value` (or what a {@link Handoff} holds) under `guide`, forcing what the guide says,
 * and sets field `at` of `into` to the demand found: the part of the value that is evaluated and
 * that the guide reached. Strict
 * fields are always part of it; functions are part of it only when an instrumented copy of one
 * was called (a context never calls them). Checks the value against `shape`, naming the path of a
 * mismatch. Under a demand, a value whose constructor differs from the demand's is an error, or
 * with `fit` where the walk stops forcing. Stack-safe: an explicit stack of (value, parent, index,
 * shape, path, guide, depth) entries, following the first field of each layer in place.
 * A value that holds itself where the walk goes on below it (a strict cycle; `repeat(1)` under
 * `normalize` or, forced, under `evaluatedPart`) has no finite demand: it is refused with a
 * {@link ShapeMismatchError} naming where (see {@link PathCycle}), where the walk would never end.
 * A value that holds an object through several paths (shared structure) is walked once per
 * object, shape, guide and laziness of its position, its demand one node shared by those paths
 * (see {@link Walked}): a tree of 41 objects that would unfold to 2^40 leaves costs 41 layers.
 * A walk that throws leaves in `parent` what it recorded until then.
 * @internal
 */
export function record(value: unknown, shape: Shape<unknown>, path: Path, guide: Guide, into: Forced, at: number, fit = false): void {
  let v = value instanceof Handoff ? value.take() : value;
  let parent: Forced | SpineCell = into;
  let index = at;
  const stack: unknown[] = [];
  // After a layer that does not fit the demand, the walk forces nothing more but records the rest
  // of what is evaluated, as it would have been recorded in a copy, then throws.
  const misfit: Misfit = { fit, error: undefined };
  let s = shape;
  let p = path;
  let g = guide;
  let lazyAbove = false; // whether `v`, taken out of its Lazy already, sat at a lazy position
  let depth = 0; // how many layers are above `v`
  const cycle = new PathCycle(into, at, path);
  // What the walk has recorded, from its first UNREMEMBERED layers on (see Walked).
  let walked: Walked | undefined;
  let layers = 0;
  for (;;) {
    walk: for (;;) {
      if (typeof g === 'object' && !g.forced) break;
      let atLazy = lazyAbove;
      lazyAbove = false;
      while (v instanceof Lazy) {
        s = insideLazy(s, v, p);
        v = read(v, g);
        if (v === UNREAD) break walk;
        atLazy = true;
      }
      if (v === THREW) {
        put(parent, index, bottom);
        break;
      }
      if (s.kind === 'lazy') {
        // An iterable is consumed through its protocol, as far as the guide says.
        if (s.protocol?.consume(v, p, g, parent, index, misfit.fit)) break;
        s.project(v, p); // throws the mismatch
      }
      if (g === WHNF) g = NONE;
      if (typeof v === 'function') {
        if (s.kind !== 'dynamic') s.project(v, p); // throws a mismatch
        // A context never calls a function; a demand in value form holds one where it was called.
        if ((g !== EVALUATED && g !== VALUE_FORM) || (v as unknown as Record<symbol, boolean | undefined>)[CALLED] === false) break;
        put(parent, index, forcedNode(FN_CTOR, 0, v, atLazy));
        break;
      }
      const prim = typeof v === 'object' ? undefined : primitiveCtor(typeof v);
      if (prim !== undefined) {
        checkPrimitive(v, s, p);
        putPrimitive(parent, index, v, atLazy);
        if (typeof g === 'object') along(g, prim.name, 0, p, misfit);
        break;
      }
      // Paths are built only where a message may need them: declared shapes, and walks along a demand.
      const paths = s.kind !== 'dynamic' || typeof g === 'object';
      if (walked === undefined && ++layers > UNREMEMBERED) walked = new Walked();
      const recorded = walked?.find(v as object, s, g, atLazy);
      if (recorded !== undefined) {
        put(parent, index, recorded);
        break;
      }
      // List cells are the common case: no generic layer.
      if (v instanceof Cons) {
        const shapes = consShapes(s, v, p);
        const key = g;
        if (typeof g === 'object') g = along(g, CONS_CTOR.name, 2, p, misfit);
        // Cells at lazy positions (a list's) are recorded in a spine: one growing array for a run of cells.
        let cell: SpineCell | Forced;
        let head: number;
        if (atLazy) {
          // A spine's first cell is its node, shared where the list is met again; a cell further on is not one.
          if (index !== REST) {
            parent = startSpine(parent, index);
            walked?.add(v, s, key, true, parent, depth);
          }
          cell = parent as SpineCell;
          head = HEAD - cell.spine.grow();
          const met = cycle.visitCell(v, s, g, depth);
          if (met !== 0) cycle.place(met, cell, head, true, p);
          // A list of dynamic shape, or declared with the list's own shape at every tail, walked
          // under a guide that is not a demand (the commonest walks): its cells are recorded by
          // this loop, without the generic steps. What does not fit (a head that is not a
          // primitive of its shape, the end of the list) goes back to the walk, which records it
          // or names a mismatch; paths are made only then, from the loop's first cell's.
          const inner = insideLazyPosition(shapes[0]!);
          const ts = shapes[1]!;
          if (typeof g === 'number' && v.head instanceof Lazy && inner !== undefined && inner.kind !== 'lazy' && insideLazyPosition(ts) === s) {
            const { spine } = cell;
            const first = HEAD - head;
            const p0 = p;
            // `v` moves along: a walk that held the first cell would keep the whole list alive.
            for (let c = v, k = first; ; ) {
              const x = read(c.head, g);
              if (x !== UNREAD && !(isPrimitive(x) && primitiveFits(x, inner))) {
                stack.push(c.tail, cell, REST, ts, paths ? child(p0, 'tail', k - first + 1) : null, g, depth + 1);
                [v, lazyAbove, index, s, p] = [x, true, HEAD - k, inner, paths ? child(child(p0, 'tail', k - first), 'head') : null];
                depth++;
                continue walk;
              }
              if (x !== UNREAD) spine.setHead(k, x);
              const t: unknown = c.tail;
              const next = t instanceof Lazy ? read(t, g) : t;
              if (next === UNREAD) break walk; // the rest stays unforced
              // Anything but a cell with a lazy head (the end of the list) goes back to the walk.
              if (!(t instanceof Lazy && next instanceof Cons && next.head instanceof Lazy)) {
                [v, lazyAbove, index, s, p] = [next, t instanceof Lazy, REST, t instanceof Lazy ? s : ts, paths ? child(p0, 'tail', k - first + 1) : null];
                depth++;
                continue walk;
              }
              v = c = next;
              k = spine.grow();
              const met = cycle.visitCell(c, s, g, ++depth);
              if (met !== 0) cycle.place(met, cell, HEAD - k, true, paths ? child(p0, 'tail', k - first) : null);
            }
          }
        } else {
          cell = forcedNode(CONS_CTOR, 2, undefined, false);
          put(parent, index, cell);
          walked?.add(v, s, key, false, cell, depth);
          head = 0;
          const met = cycle.visit(v, s, g, depth);
          if (met !== 0) cycle.place(met, parent, index, false, p);
        }
        stack.push(v.tail, cell, atLazy ? REST : 1, shapes[1], paths ? child(p, 'tail') : null, below(g, 1), depth + 1);
        depth++;
        v = v.head;
        parent = cell;
        index = head;
        s = shapes[0]!;
        p = paths ? child(p, 'head') : null;
        g = below(g, 0);
        continue;
      }
      let layer: Layer;
      try {
        layer = s.project(v, p);
      } catch (err) {
        // Under dynamic shapes the walk keeps no path: a mismatch is raised again naming its position.
        if (p === null) s.project(v, pathTo(into, at, path, parent, index));
        throw err;
      }
      const n = layer.fields.length;
      const node = layerNode(layer, atLazy);
      put(parent, index, node);
      if (n === 0) break;
      walked?.add(v as object, s, g, atLazy, node, depth);
      if (typeof g === 'object') g = along(g, layer.ctor.name, n, p, misfit);
      const met = cycle.visit(v, s, g, depth);
      if (met !== 0) cycle.place(met, parent, index, false, p);
      for (let i = n - 1; i > 0; i--) stack.push(layer.fields[i], node, i, layer.shapes[i], paths ? child(p, fieldKey(layer, i)) : null, below(g, i), depth + 1);
      depth++;
      v = layer.fields[0];
      parent = node;
      index = 0;
      s = layer.shapes[0]!;
      p = paths ? child(p, fieldKey(layer, 0)) : null;
      g = below(g, 0);
    }
    if (stack.length === 0) break;
    cycle.up((depth = stack.pop() as number));
    walked?.up(depth);
    g = misfit.error ? (stack.pop(), NONE) : (stack.pop() as Guide);
    p = stack.pop() as Path;
    s = stack.pop() as Shape<unknown>;
    index = stack.pop() as number;
    parent = stack.pop() as Forced | SpineCell;
    v = stack.pop();
  }
  if (misfit.error) throw misfit.error;
}

/**
 * The layers a walk has recorded, by (value, shape, guide, laziness of the position):
 * a layer met again once its walk has ended is recorded as the node recorded for it, marked
 * shared, and not walked again. Met again while its walk goes on, below itself, it is a cycle,
 * walked on for {@link PathMark} to find. Weak, so that the cells of a list the walk has passed
 * can be collected.
 *
 * Kept only after a walk's first {@link UNREMEMBERED} layers (list cells that the walk's loop over
 * a spine records are not counted), so that the walks of the small values of most trials pay
 * nothing for it. That keeps it linear: a layer met before is walked again once, then remembered
 * (the layers above the walk when it starts remembering are remembered when met again).
 */
class Walked {
  private readonly byValue = new WeakMap<object, Layered>();
  /** The layers whose walk goes on, in the order they were met: those above the walk. */
  private readonly open: Layered[] = [];

  /** The node recorded for `v` at shape `s` under `g`, at a lazy position if `lazy`, if its walk has ended. */
  find(v: object, s: Shape<unknown>, g: unknown, lazy: boolean): Forced | undefined {
    for (let e = this.byValue.get(v); e !== undefined; e = e.next) {
      if (e.shape === s && e.guide === g && e.lazy === lazy) {
        if (e.open) return undefined;
        markShared(e.node);
        return e.node;
      }
    }
    return undefined;
  }

  /** Keeps `node`, the node of `v` (as {@link find} names it), met `depth` layers down. */
  add(v: object, s: Shape<unknown>, g: unknown, lazy: boolean, node: Forced | SpineCell, depth: number): void {
    const e = new Layered(s, g, lazy, node as Forced, depth, this.byValue.get(v));
    this.byValue.set(v, e);
    this.open.push(e);
  }

  /** The walk goes back up to a layer `depth` layers down: the walks of the layers as deep or deeper have ended. */
  up(depth: number): void {
    const { open } = this;
    while (open.length > 0 && open[open.length - 1]!.depth >= depth) open.pop()!.open = false;
  }
}

/** How many layers a walk records before it remembers them (see {@link Walked}). */
const UNREMEMBERED = 1024;

/** An entry of {@link Walked}. */
class Layered {
  open = true;
  constructor(
    readonly shape: Shape<unknown>,
    readonly guide: unknown,
    readonly lazy: boolean,
    readonly node: Forced,
    readonly depth: number,
    readonly next: Layered | undefined,
  ) {}
}

/** The mark of a {@link PathMark} when there is none. */
const NO_MARK = Symbol('no mark');

/**
 * @internal Brent's cycle detection along the path of a depth-first walk (`record`, and the copy
 * of strict fields in `instrument.ts`): `visit` compares each layer walked with a mark, a layer
 * above it; the mark moves down to the layer visited whenever the walk is `span` layers below it,
 * and `span` doubles, so that on an endless path the mark is on the cycle, and `span` longer than
 * it, before long. A layer is met again only as (value, shape, guide): a value may be walked under
 * another shape or guide below itself, and end (a declared record that reads fewer of its fields;
 * a demand's guide is a new one at every layer). Where the walk goes back up past the mark (`up`),
 * the next layer visited becomes the mark. A comparison a layer, where a set of the layers above
 * would cost an insertion and a removal.
 */
export class PathMark {
  protected value: unknown = NO_MARK;
  private shape: Shape<unknown> | undefined;
  private guide: Guide | undefined;
  private depth = 0;
  private span = 1;

  /**
   * Visits layer `v`, at shape `s` under guide `g` (`undefined` for a walk without guides),
   * `depth` layers down: 0, or {@link MOVED} if it is the mark now, or {@link MET} if it was.
   */
  visit(v: unknown, s: Shape<unknown>, g: Guide | undefined, depth: number): number {
    if (v === this.value && s === this.shape && g === this.guide) return MET;
    if (this.value !== NO_MARK) {
      if (depth - this.depth < this.span) return 0;
      this.span *= 2;
    }
    this.value = v;
    this.shape = s;
    this.guide = g;
    this.depth = depth;
    return MOVED;
  }

  /**
   * The walk goes back up to a layer `depth` layers down: a mark as deep is no longer above the
   * walk, and is dropped. Returns whether it was.
   */
  up(depth: number): boolean {
    if (depth > this.depth) return false;
    this.value = NO_MARK;
    return true;
  }
}
/** See {@link PathMark.visit}. */
const MOVED = 1;
/** @internal See {@link PathMark.visit}. */
export const MET = 2;

/** A {@link PathMark} for `record`, which names where the mark is recorded in its error. */
class PathCycle extends PathMark {
  // Where the mark is recorded (see `place`), for the message.
  private from: Forced | SpineCell | undefined;
  private at = 0;
  private cell = false;
  private path: Path = null;

  /** `into`, `at`, `path`: where the walk records its root, and the root's path. */
  constructor(
    private readonly root: Forced,
    private readonly rootAt: number,
    private readonly rootPath: Path,
  ) {
    super();
  }

  /** {@link PathMark.visit} for a list cell at a lazy position: one is marked only {@link UNMARKED_DEPTH} layers down or deeper. */
  visitCell(v: unknown, s: Shape<unknown>, g: Guide, depth: number): number {
    return depth < UNMARKED_DEPTH ? 0 : this.visit(v, s, g, depth);
  }

  /**
   * After a visit that returned `met`: keeps where the mark is recorded, position `at` of `from`
   * (`cell`: cell `HEAD - at` of a spine), `path` if the walk keeps paths; or, if the layer visited
   * was the mark, throws the error naming both.
   */
  place(met: number, from: Forced | SpineCell, at: number, cell: boolean, path: Path): void {
    if (met === MOVED) {
      this.from = from;
      this.at = at;
      this.cell = cell;
      this.path = path;
      return;
    }
    const first = this.pathOf(this.from!, this.at, this.cell, this.path);
    throw cyclicValue(this.pathOf(from, at, cell, path), first, this.value, 'so its demand would never end');
  }

  /** The path of a position (see `place`): `path`, or if the walk keeps none, the path found in the demand recorded. */
  private pathOf(from: Forced | SpineCell, at: number, cell: boolean, path: Path): Path {
    if (path !== null) return path;
    const found = pathTo(this.root, this.rootAt, this.rootPath, from, at);
    // A spine cell's position is that of its head.
    return cell && found !== null && typeof found === 'object' ? found.parent : found;
  }
}
/**
 * How deep a walk goes before it marks a list cell: a mark keeps the cells after it alive, where a
 * walk of a long result lets go of the cells it has passed (observing `append` at 10^5 cells took
 * 1.7 times as long with cells marked from the start). A cycle of list cells (`repeat`) is found
 * past this depth, after a few milliseconds; other layers are marked from the start.
 */
const UNMARKED_DEPTH = 1 << 20;

/**
 * @internal The error for a value that holds itself (`first` holds itself at `where`), which a
 * walk or a copy cannot go through to the end: `why` says what would never end.
 */
export function cyclicValue(where: Path, first: Path, value: unknown, why: string): ShapeMismatchError {
  return new ShapeMismatchError(showPath(where), `a value that does not hold itself (a cyclic value: ${showPath(first)} holds itself here, ${why})`, value);
}

/** @internal The shapes of the head and tail of list cell `v`, where `v` has shape `s`: throws the mismatch if `s` is not a list cell's. */
export function consShapes(s: Shape<unknown>, v: Cons<unknown>, p: Path): readonly Shape<unknown>[] {
  if (s.kind === 'dynamic') return DYN2;
  const cons = s.kind === 'data' ? s.alternatives()[1] : undefined;
  return cons?.ctor === CONS_CTOR ? cons.shapes : s.project(v, p).shapes;
}

/** @internal A `Lazy` read by a walk under guide `g`: its value, or {@link UNREAD} where the guide leaves it unforced. */
export function read(l: Lazy<unknown>, g: Guide): unknown {
  if (g === NONE || (g === EVALUATED && !l.isEvaluated)) return UNREAD;
  return g === EVALUATED ? peek(l) : g === VALUE_FORM ? forceValueForm(l) : forceReached(l);
}

/**
 * A lazy position a walk forces: its value, or {@link THREW} where forcing it passed on a failure
 * of the observation's inputs (see `input-failures.ts`): the result is ⊥ there, and the walk goes
 * on with the rest, as a consumer of an iterable result does past a pull that threw.
 */
function forceReached(l: Lazy<unknown>): unknown {
  try {
    return l.force();
  } catch (err) {
    if (isInputFailure(err)) return THREW;
    throw err;
  }
}

/** A lazy position the walk leaves unforced. @internal */
export const UNREAD = Symbol('unread');

/** @internal What {@link read} returns for a lazy position of a demand in value form that is a {@link markBottom known ⊥}, or one that passed on an input's failure. */
export const THREW = Symbol('threw');

/**
 * The parts known to throw when forced: those of inputs that threw when an observed function
 * forced them, and the `⊥`s of demands in value form. Only these are `⊥` when a demand in value
 * form is converted: any other that throws is a mistake of the spec, which must stay an error.
 * Weak: a part is kept by its value, not by this.
 */
const knownBottoms = new WeakSet<Lazy<unknown>>();

/** @internal Marks `l` as a part known to throw when forced (see {@link knownBottoms}). */
export function markBottom(l: Lazy<unknown>): void {
  knownBottoms.add(l);
}

/** @internal Whether `l` is a part known to throw when forced (see {@link knownBottoms}). */
export function isKnownBottom(l: Lazy<unknown>): boolean {
  return knownBottoms.has(l);
}

/**
 * A lazy position of a demand in value form (or of a value being printed): its value, or {@link UNREAD} where forcing reaches
 * `thunk`, or {@link THREW} where it throws and is a {@link markBottom known ⊥} (a part of an input
 * that the function forced and saw throw, passed through by a spec). Reaching `thunk` is routine here (a spec's `xs ++ thunk` ends in one), and capturing
 * the stack trace of its `UnevaluatedError` was the largest single cost of checking a spec; so it
 * is forced with stack traces off. Any other error is raised again by forcing once more with them
 * on (what threw is not memoised), so that it carries its stack.
 */
function forceValueForm(l: Lazy<unknown>): unknown {
  if (l === thunk) return UNREAD;
  if (l.isEvaluated) return l.force();
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    const x = forceOrThunk(l);
    return x === UNEVALUATED ? UNREAD : x;
  } catch (err) {
    if (err instanceof UnevaluatedError) return UNREAD;
    if (knownBottoms.has(l) && !(err instanceof ForceBudgetExceeded)) return THREW;
    Error.stackTraceLimit = limit;
    return l.force();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * @internal Where a context that forces a value one layer at a time records a layer: its shape,
 * the field of a node it fills, and the value to force there until {@link forceAt} takes it. Its
 * path is found only for a message (a site per field of every layer a context forces: paths made
 * for them all cost more than the rest of the sites), from the site above it and its key there.
 */
export class RecordSite {
  constructor(
    /** The value to force here; taken out by {@link forceAt}, so that what a context has walked past can be collected. */
    public value: unknown,
    readonly shape: Shape<unknown>,
    readonly into: Forced,
    readonly at: number,
    /** The site of the layer this one is a field of, or none at the root. */
    private readonly above: RecordSite | undefined,
    /** The key of this field in that layer; at the root, the path. */
    private readonly key: PropertyKey | Path,
  ) {}

  /** The site of a value at the root of a walk, whose path is `path`. */
  static root(value: unknown, shape: Shape<unknown>, path: Path, into: Forced, at: number): RecordSite {
    return new RecordSite(value, shape, into, at, undefined, path);
  }

  /** The path of this site, for a message: from the root, iteratively (a site may be a long list's ten thousandth cell). */
  get path(): Path {
    const keys: PropertyKey[] = [];
    let site: RecordSite = this;
    for (; site.above !== undefined; site = site.above) keys.push(site.key as PropertyKey);
    let path = site.key as Path;
    for (let i = keys.length - 1; i >= 0; i--) path = child(path, keys[i]!);
    return path;
  }
}

/**
 * @internal For a context that forces a value one layer at a time: forces the value at `site`
 * (taking it out) out of its Lazies (checking each against the site's shape first) and records
 * there the layer found, checked against the shape inside them: a primitive, or a node whose
 * strict fields are recorded at once (they were evaluated with it). Returns the value, its layer
 * (none for a primitive or a function), and the sites of its fields, where the context records
 * them if it forces them (a strict field again, to the same demand). A function is not recorded:
 * no context calls one.
 */
export function forceAt(site: RecordSite): { value: unknown; layer?: Layer; sites: RecordSite[] } {
  const { into, at } = site;
  const value = site.value;
  site.value = undefined;
  let v = value;
  let shape = site.shape;
  while (v instanceof Lazy) {
    shape = insideLazyPosition(shape) ?? insideLazy(shape, v, site.path);
    try {
      v = v.force();
    } catch (err) {
      // An input's failure passed on: the result is ⊥ here, and the context, which cannot go on past it, stops.
      if (isInputFailure(err)) setField(into, at, bottom);
      throw err;
    }
  }
  const atLazy = value instanceof Lazy;
  if (shape.kind === 'lazy' || (typeof v === 'function' && shape.kind !== 'dynamic')) shape.project(v, site.path); // throws the mismatch
  if (typeof v === 'function') return { value: v, sites: [] };
  if (isPrimitive(v)) {
    if (!primitiveFits(v, shape)) shape.project(v, site.path); // throws the mismatch
    putPrimitive(into, at, v, atLazy);
    return { value: v, sites: [] };
  }
  let layer: Layer;
  try {
    layer = shape.project(v, null);
  } catch (err) {
    shape.project(v, site.path); // throws the mismatch, naming where
    throw err;
  }
  const node = layerNode(layer, atLazy);
  setField(into, at, node);
  const n = layer.fields.length;
  const sites: RecordSite[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const f = layer.fields[i];
    const fieldSite = (sites[i] = new RecordSite(f, layer.shapes[i]!, node, i, site, fieldKey(layer, i)));
    if (!(f instanceof Lazy)) record(f, fieldSite.shape, fieldSite.path, NONE, node, i);
  }
  return { value: v, layer, sites };
}

/** @internal The demand a walk of {@link record} under `guide` finds on `value`. */
export function demandOf(value: unknown, shape: Shape<unknown>, path: Path, guide: Guide): Demand {
  const root = demandHolder();
  record(value, shape, path, guide, root, 0);
  return root.field(0);
}

/** Whether a walk along a demand tolerates layers that do not fit it, and the error of the first that did not. */
type Misfit = { readonly fit: boolean; error: Error | undefined };

/**
 * The guide below a layer with constructor `found` met along demand `d`: `d` if it has that
 * constructor; otherwise no further forcing, and without `fit` the error to throw once the rest
 * is recorded.
 */
function along(d: Forced, found: string, arity: number, path: Path, misfit: Misfit): Guide {
  if (d.ctor.name === found && d.arity === arity) return d;
  if (!misfit.fit && !misfit.error) {
    const what = d.ctor.name === found ? `${d.arity} fields, value has ${arity}` : `${d.ctor.name}, value has ${found}`;
    misfit.error = new Error(`toContext: the demand does not fit the value at ${showPath(path)}: demand has ${what}`);
  }
  return NONE;
}

// A spine keeps its heads in chunks of CHUNK (below V8's large-object size): one array grown
// cell by cell to 10^5 heads cost more in its reallocations, each a large object copied whole,
// than the rest of the recording of a list (1.8 ms against 0.2 for 10^5 cells).
const CHUNK_BITS = 12;
const CHUNK = 1 << CHUNK_BITS;
const IN_CHUNK = CHUNK - 1;

/**
 * A run of list cells at lazy positions, recorded as one sequence: the demand on each cell's head
 * (a primitive forced at a lazy position as itself, else a demand node), and the demand on the
 * tail of the last. A demand on a long list costs a few bytes per cell, not a node per cell.
 * @internal
 */
export class Spine {
  rest: Demand = unforced;
  /** How many cells. */
  length = 0;
  // The first chunk grows as cells come (most spines are short).
  private readonly first: unknown[] = [];
  // The others are made whole, off the collector's heap (see Heads).
  private readonly chunks: Heads[] = [];

  /** What is recorded of cell `k`'s head. */
  head(k: number): unknown {
    if (k < CHUNK) return this.first[k];
    const c = this.chunks[(k >> CHUNK_BITS) - 1]!;
    const i = k & IN_CHUNK;
    const kind = c.kinds[i];
    return kind === UNFORCED_HEAD ? unforced : kind === NUMBER_HEAD ? c.numbers[i] : c.others![i];
  }

  setHead(k: number, h: unknown): void {
    if (k < CHUNK) {
      this.first[k] = h;
      return;
    }
    const c = this.chunks[(k >> CHUNK_BITS) - 1]!;
    const i = k & IN_CHUNK;
    if (typeof h === 'number') {
      c.numbers[i] = h;
      c.kinds[i] = NUMBER_HEAD;
    } else if (h === unforced) c.kinds[i] = UNFORCED_HEAD;
    else {
      (c.others ??= new Array(CHUNK))[i] = h;
      c.kinds[i] = OTHER_HEAD;
    }
  }

  /** Adds a cell, its head unforced so far; returns its index. */
  grow(): number {
    const k = this.length++;
    if (k < CHUNK) this.first[k] = unforced;
    else if ((k & IN_CHUNK) === 0) this.chunks.push(new Heads());
    return k;
  }
}

const UNFORCED_HEAD = 0;
const NUMBER_HEAD = 1;
const OTHER_HEAD = 2;

/**
 * The heads of a chunk of a long spine: numbers, the commonest heads, in typed arrays, which the
 * collector does not copy (their memory is off its heap); others in an array made when one comes.
 */
class Heads {
  readonly kinds = new Uint8Array(CHUNK);
  readonly numbers = new Float64Array(CHUNK);
  others: unknown[] | undefined = undefined;
}

/**
 * Where {@link put} sets a demand in a spine: negative indices, so that one comparison tells them
 * from the fields of a node. `REST` is the spine's rest; `HEAD - k` the head of its cell `k`.
 * @internal
 */
export const REST = -1;
/** @internal See {@link REST}. */
export const HEAD = -2;

/**
 * The demand on cell `k` of a spine: a `Forced` list-cell node. The spine's first cell is stored
 * in the demand; the others, and the nodes of primitive heads, are made when first read and kept
 * (a demand is compared and printed more than once, a demand on a huge list seldom read whole).
 */
export class SpineCell {
  private next: SpineCell | undefined = undefined;
  /** See `Forced.shared` (on the prototype, `Forced`'s). */
  declare readonly shared: boolean;

  constructor(
    readonly spine: Spine,
    readonly k: number,
  ) {}

  field(i: number): Demand {
    const { spine } = this;
    if (i === 0) {
      const h = spine.head(this.k);
      if (typeof h === 'object' && h !== null) return h as Demand;
      const node = new LazyPrimNode(h) as unknown as Forced;
      spine.setHead(this.k, node);
      return node;
    }
    return this.k + 1 < spine.length ? ((this.next ??= new SpineCell(this.spine, this.k + 1)) as unknown as Forced) : this.spine.rest;
  }

  get fields(): readonly Demand[] {
    return [this.field(0), this.field(1)];
  }
}
Object.setPrototypeOf(SpineCell.prototype, Forced.prototype);
fastInstanceof(Handoff, SpineCell);
Object.defineProperties(SpineCell.prototype, { ctor: { value: CONS_CTOR }, value: { value: undefined }, lazy: { value: true }, arity: { value: 2 } });

/**
 * @internal A copy of demand `d` that recording further into `d` does not change: a reading of a
 * demand still being recorded (see `entangle`). Nodes without fields are shared; a shared node
 * is copied once, its copy shared alike.
 */
export function snapshot(d: Demand): Demand {
  const root = demandHolder();
  const stack: unknown[] = [d, root, 0];
  let copies: Map<Forced, Forced> | undefined;
  while (stack.length > 0) {
    const at = stack.pop() as number;
    const into = stack.pop() as Forced | SpineCell;
    const x = stack.pop() as Demand;
    const again = x.forced && x.shared ? copies?.get(x) : undefined;
    if (again !== undefined) {
      markShared(again);
      put(into, at, again);
    } else if (x instanceof SpineCell) {
      const cell = startSpine(into, at);
      if (x.shared) (copies ??= new Map()).set(x, cell as unknown as Forced);
      for (let j = x.k; j < x.spine.length; j++) {
        const h = x.spine.head(j);
        const k = cell.spine.grow();
        if (typeof h === 'object' && h !== null) stack.push(h, cell, HEAD - k);
        else cell.spine.setHead(k, h);
      }
      stack.push(x.spine.rest, cell, REST);
    } else if (x.forced && x.arity > 0) {
      const node = forcedNode(x.ctor, x.arity, x.value, x.lazy);
      put(into, at, node);
      if (x.shared) (copies ??= new Map()).set(x, node);
      for (let i = 0; i < x.arity; i++) stack.push(x.field(i), node, i);
    } else {
      put(into, at, x);
    }
  }
  return root.field(0);
}

/** @internal Sets the demand at `index` of a node being built, or of a spine (its heads, or {@link REST}). */
export function put(parent: Forced | SpineCell, index: number, d: Demand): void {
  if (index >= 0) setField(parent as Forced, index, d);
  else if (index === REST) (parent as SpineCell).spine.rest = d;
  else (parent as SpineCell).spine.setHead(HEAD - index, d);
}

/** @internal What is recorded so far at `index` of `parent` (see {@link put}): a demand, or a forced element of a spine as itself. */
export function recordedAt(parent: Forced | SpineCell, index: number): unknown {
  if (index >= 0) return (parent as Forced).field(index);
  const { spine } = parent as SpineCell;
  return index === REST ? spine.rest : spine.head(HEAD - index);
}

/**
 * @internal The path of position `index` of `parent` (see {@link put}) in the demand recorded at
 * field `at` of `root`, whose path is `path`; `null` if it is not there. Walks and copies keep no
 * paths under dynamic shapes, so as to build none on the way: a mismatch there finds its path so,
 * in what was recorded up to it (each layer is recorded before its fields).
 */
export function pathTo(root: Forced, at: number, path: Path, parent: Forced | SpineCell, index: number): Path {
  if (parent === root && index === at) return path;
  const stack: unknown[] = [root.field(at), path];
  // A shared node is searched once: what is below it is found by the first path to it.
  let seen: Set<Demand> | undefined;
  while (stack.length > 0) {
    const p = stack.pop() as Path;
    const d = stack.pop() as Demand;
    if (d.forced && d.shared) {
      if ((seen ??= new Set()).has(d)) continue;
      seen.add(d);
    }
    if (d instanceof SpineCell) {
      const { spine } = d;
      for (let k = d.k; k < spine.length; k++) {
        const head = child(child(p, 'tail', k - d.k), 'head');
        if (parent === d && index === HEAD - k) return head;
        stack.push(spine.head(k), head);
      }
      const rest = child(p, 'tail', spine.length - d.k);
      if (parent === d && index === REST) return rest;
      stack.push(spine.rest, rest);
    } else if (d instanceof Forced) {
      const order = ownOrders.get(d);
      for (let i = 0; i < d.arity; i++) {
        const field = child(p, fieldKeyOf(d.ctor, i, order, i % 2 === 1 ? keyOf(d.field(i - 1)) : undefined));
        if (parent === d && index === i) return field;
        stack.push(d.field(i), field);
      }
    }
  }
  return null;
}

/**
 * The orders of the nodes of sets and maps whose layers list their elements in another order than
 * their values (see `Layer.order`), so that {@link pathTo} names an element by where it is in its
 * value, as a walk that keeps paths does (see `fieldKey`).
 */
const ownOrders = new WeakMap<Forced, readonly number[]>();

/** @internal The node that records `layer`, at a lazy position if `atLazy` (a set's or a map's with its order, see {@link ownOrders}). */
export function layerNode(layer: Layer, atLazy: boolean): Forced {
  const node = forcedNode(layer.ctor, layer.fields.length, layer.value, atLazy);
  if (layer.order !== undefined) ownOrders.set(node, layer.order);
  return node;
}

/** What names a map's value in a path (see `fieldKeyOf`), from the demand on its key: the key if it is a primitive (any other value names none). */
function keyOf(d: Demand): unknown {
  return d.forced && d.ctor.style === 'prim' ? d.value : d;
}

/** @internal Records at `index` of `parent` a list cell at a lazy position, as the first cell of a new spine; returns that cell, where the spine's heads and rest are put. */
export function startSpine(parent: Forced | SpineCell, index: number): SpineCell {
  const cell = new SpineCell(new Spine(), 0);
  put(parent, index, cell as unknown as Forced);
  return cell;
}

/** @internal Records primitive `v` at `index` of `parent`: a forced element of a spine as itself (no node per element), else a node. */
export function putPrimitive(parent: Forced | SpineCell, index: number, v: unknown, atLazy: boolean): void {
  if (atLazy && index < REST) (parent as SpineCell).spine.setHead(HEAD - index, v);
  else put(parent, index, primitiveNode(v, atLazy));
}

/** @internal The node of primitive `v`, at a lazy position if `atLazy`. */
export function primitiveNode(v: unknown, atLazy: boolean): Forced {
  return (atLazy ? new LazyPrimNode(v) : new StrictPrimNode(v)) as unknown as Forced;
}

/** @internal Whether `v` is recorded as a primitive (a value of one of the primitive shapes). */
export function isPrimitive(v: unknown): boolean {
  return typeof v !== 'object' && typeof v !== 'function' && primitiveCtor(typeof v) !== undefined;
}

// Primitive nodes: `Forced` nodes whose constructor and laziness sit on their prototypes (32 bytes instead of 64).
class LazyPrimNode {
  constructor(readonly value: unknown) {}
}
class StrictPrimNode {
  constructor(readonly value: unknown) {}
}
for (const [node, lazy] of [[LazyPrimNode, true], [StrictPrimNode, false]] as const) {
  Object.setPrototypeOf(node.prototype, Forced.prototype);
  Object.defineProperties(node.prototype, {
    ctor: {
      get(this: LazyPrimNode) {
        return primitiveCtor(typeof this.value);
      },
    },
    lazy: { value: lazy },
    f0: { value: undefined },
    f1: { value: undefined },
  });
}

// A walk's own objects, and a demand's nodes, may all be dropped between walks.
keepHiddenClasses(new Handoff(undefined), new PathCycle(demandHolder(), 0, 'value'), startSpine(demandHolder(), 0), new LazyPrimNode(''), new StrictPrimNode(''), new Heads());
