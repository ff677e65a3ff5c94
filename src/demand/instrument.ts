/**
 * Instrumented copies (paper, `entangle`): a copy of a value whose lazy fields are wrappers that
 * force the original and record the layer they find, in a demand built as the copy is forced.
 *
 * Recording as it is forced, rather than reading the demand off the copy afterwards, means no one
 * keeps the copy: the cells of an instrumented list that a function has walked past can be
 * collected while it runs. That matters because a copy costs more than the evaluation it watches,
 * mostly in the garbage collector's time. Instrumentation is lazy: a sub-value is copied when its
 * wrapper is forced.
 *
 * Copies are frozen: strictness is observed on immutable data. A function that changed its input
 * would change a copy that the next force of an argument's view does not see, and be observed on
 * a result other than its own; an input's copies refuse a change in any mode (see `input-copy.ts`,
 * and `input-cell.ts` for a list's cells).
 * @module
 */
import { forceUncounted, Lazy, lazyAt, lazyView, lazyWith, MAX_LAZY_INDEX } from '../lazy/lazy.ts';
import { Cons } from '../lazy/cell.ts';
import { bottom, demandHolder, Forced, forcedNode, markShared, sameCtor, threwBottom, type Demand } from './demand.ts';
import { fieldKey, inOwnOrder } from './collections.ts';
import { dynamic } from './dynamic.ts';
import { child, showPath, type Path } from './path.ts';
import { inputCell } from './input-cell.ts';
import { HeldCollection, refusing, refusingCollection, type ChangeOwner } from './input-copy.ts';
import { FN_CTOR } from './primitives.ts';
import { ShapeMismatchError } from './shape-errors.ts';
import type { Layer, Shape } from './shape-types.ts';
import type { InputFailures } from './input-failures.ts';
import { CALLED } from './record.ts';
import { HEAD, layerNode, pathTo, put, putPrimitive, recordedAt, REST, Spine, SpineCell, startSpine } from './compact-demand.ts';
import { cyclicValue, MET, PathMark } from './cycles.ts';
import { markBottom } from './guide.ts';
import { checkPrimitive, consShapes, insideLazyPosition, isPrimitive, primitiveFits } from './shape-fit.ts';

/**
 * One recording: its wrappers record while it is open. An observation closes it when it ends, so
 * that the demands it returned never change, whatever is forced later.
 */
export class Recording {
  open = true;

  constructor(
    /**
     * Whether the recording is of inputs, whose copies refuse a change (see `input-copy.ts`; a
     * result's are read by its context alone), and where a failure to record a pull is
     * strictcheck's (see {@link pullFailed}). A part that throws when forced is `⊥` in inputs and
     * result alike (see `forceOriginal`); a result's throw is the function's, its case run again to
     * report it.
     */
    readonly inputs = false,
    /**
     * The failures the observation's inputs raise (see `input-failures.ts`), which the protocols of
     * inputs add here: the observation tells by them a source's failure passed on from the
     * function's own throw (a result's part whose forcing threw is `⊥` either way).
     */
    readonly failures?: InputFailures,
  ) {}

  /**
   * The first error that recording an input's pull threw (see {@link pullFailed}): the function
   * got it as its pull's, but it is strictcheck's (or the input's mismatch), never the function's.
   */
  broken: { readonly err: unknown } | undefined = undefined;

  /**
   * The first change that the function made to its input (see `input-copy.ts`): the observation
   * fails with it, even if the function caught it, or its code is in sloppy mode.
   */
  changed: { readonly err: unknown } | undefined = undefined;

  /** The Sets and Maps given as inputs' copies, in the order made, whose changes through built-in methods called on them are told at the end (see {@link seeBorrowedChanges}). */
  private collections: HeldCollection[] | undefined = undefined;

  /** Notes `copy`, a refusing Set or Map telling `owner`, to be compared with what it holds now when the observation ends. */
  holdCollection<T extends Set<unknown> | Map<unknown, unknown>>(copy: T, owner: ChangeOwner): T {
    (this.collections ??= []).push(new HeldCollection(copy, owner));
    return copy;
  }

  /** Notes as the first change (see {@link changed}), if none was, a change made to a Set or a Map copy through the built-in methods called on it: of the first made that was changed. */
  seeBorrowedChanges(): void {
    const held = this.collections;
    if (held !== undefined) for (const c of held) if (this.changed === undefined) c.borrowedChange();
  }

  /** The error for a change `what` to the input at `path`, noted as the first if it is (see {@link changed}); `advice`, what to build instead. */
  changedInput(path: Path, what: string, advice: string): Error {
    const err = new TypeError(
      `the function changed its input ${showPath(path)}: ${what}. Strictness is observed on immutable data (a Haskell value never changes), so a function is given values it cannot change, and a change would not be seen where the input is read again. Build new values instead of changing them: ${advice}`,
    );
    this.changed ??= { err };
    return err;
  }

  /**
   * Recording the element that a pull of an iterable delivers threw `err`, which the caller of
   * `next()` gets. An input's element runs no code of the function's, so the observation throws
   * `err` itself, even if the function caught it: not "the function threw", nor lost. A result's
   * element may (its getters), and stays what the context met.
   */
  pullFailed(err: unknown): unknown {
    if (this.inputs) this.broken ??= { err };
    return err;
  }

  /**
   * The holders of the demands recorded, with the paths of their values, in order: where a
   * mismatch under a dynamic shape finds its path. A list, not an array: an observation makes a
   * recording per trial for the inputs and one for the result, and an array's first push
   * allocates its room.
   */
  private roots: Root | undefined = undefined;
  private lastRoot: Root | undefined = undefined;

  /** A holder for the demand on the value named `path`. */
  root(path: Path): Forced {
    const root = new Root(demandHolder(), path);
    if (this.lastRoot === undefined) this.roots = root;
    else this.lastRoot.next = root;
    this.lastRoot = root;
    return root.holder;
  }

  /**
   * The path of position `at` of `into`, for a message: `path`, or where it is `null` (copies keep
   * no paths under dynamic shapes, to build none on the way), the path found in the demands recorded.
   */
  pathAt(path: Path, into: Into, at: number): Path {
    if (path !== null) return path;
    for (let root = this.roots; root !== undefined; root = root.next) {
      const found = pathTo(root.holder, 0, root.path, into, at);
      if (found !== null) return found;
    }
    return null;
  }
}

/** A holder of a {@link Recording}, with the path of its value; `next`, the one made after it. */
class Root {
  next: Root | undefined = undefined;
  constructor(
    readonly holder: Forced,
    readonly path: Path,
  ) {}
}

/** Where a demand is recorded: field `at` of a node being built, or a position in a spine (see `put`). */
type Into = Forced | SpineCell;

/** A lazy field of a value, with where its demand is recorded once it is forced. */
interface Site {
  readonly original: Lazy<unknown>;
  /** The shape inside the Lazy, found once when it is wrapped. */
  readonly inner: Shape<unknown>;
  readonly path: Path;
  readonly into: Into;
  readonly at: number;
  readonly rec: Recording;
}

/**
 * The instrumented copy of `value`, of shape `shape` (`path` names it in messages), whose demand
 * `rec` records at field `at` of `into`: a `Lazy` becomes a wrapper that records when forced;
 * anything else is evaluated, so its layer is recorded now, its strict fields copied now and its
 * lazy ones wrapped. `atLazy`: whether `value` came out of a `Lazy`.
 *
 * `wrap` makes the wrapper of a `Lazy` value: {@link lazyView} for the arguments of an observed
 * function, so that the function, which holds its arguments while it runs, does not keep every
 * cell it has walked past (a view copies its layer anew at each force). A position can so be
 * reached through two copies: recording is idempotent, and a layer recorded already is extended,
 * not replaced.
 */
export function instrument(value: unknown, shape: Shape<unknown>, path: Path, into: Into, at: number, rec: Recording, atLazy: boolean, wrap: typeof lazyWith = lazyWith): unknown {
  const copy = copyLayer(value, shape, path, into, at, rec, atLazy, wrap, undefined);
  return copy instanceof Frame ? copyFields(copy, shape, rec) : copy;
}

/**
 * A layer being copied whose strict fields are not all copied yet: its copy is built from theirs.
 * Strict fields are copied with an explicit stack of frames, not by recursion: a value can nest
 * more strict layers than the call stack holds frames (a Peano number, nested tuples).
 */
export class Frame {
  readonly copies: unknown[];
  /** The next field to copy. */
  next = 0;

  constructor(
    readonly original: object,
    readonly layer: Layer,
    readonly node: Forced,
    readonly path: Path,
    readonly into: Into,
    readonly at: number,
    /** The frame of the layer whose field this one is, in the stack. */
    readonly parent: Frame | undefined,
  ) {
    this.copies = new Array(layer.fields.length);
  }
}

/**
 * The copy of the layer of `first`, of shape `shape`, with its strict fields, copied depth first,
 * each layer built once its fields are, their demands recorded by `rec`.
 *
 * A value that holds itself through strict fields has no finite copy: its stack would grow
 * forever, the same layers over and over. It is refused once a frame pushed has the original and
 * shape of a marked frame in the stack (see {@link PathMark}).
 *
 * An object that strict fields reach through several paths (shared structure) is copied once per
 * shape, its demand one node shared by those paths: the copy has the original's sharing, and a
 * tree of 41 objects that would unfold to 2^40 leaves costs 41 copies. (A wrapper reached so
 * records for all those paths: a thunk forced through one is forced at all, as in the original.)
 */
function copyFields(first: Frame, shape: Shape<unknown>, rec: Recording): unknown {
  const cycle = new PathMark();
  cycle.visit(first.original, shape, undefined, 0);
  let depth = 0;
  // The copies of the fields' originals, kept once built (the first frame's is never a field): met again, an original is not copied again.
  let copied: Map<unknown, Copied> | undefined;
  for (let f = first; ; ) {
    const { layer } = f;
    let copy: unknown;
    if (f.next < layer.fields.length) {
      const i = f.next;
      const s = layer.shapes[i]!;
      const x = layer.fields[i];
      let again = copied?.get(x);
      while (again !== undefined && again.shape !== s) again = again.next;
      if (again !== undefined) {
        put(f.node, i, again.node);
        markShared(again.node);
        f.copies[f.next++] = again.copy;
        continue;
      }
      // Only declared shapes can mismatch, so only they pay for the path of their messages.
      copy = copyLayer(x, s, s.kind === 'dynamic' ? null : child(f.path, fieldKey(layer, i)), f.node, i, rec, false, lazyWith, f);
      if (copy instanceof Frame) {
        if (cycle.visit(copy.original, s, undefined, ++depth) === MET) throw cyclic(copy, shape, rec);
        f = copy;
        continue;
      }
    } else {
      // Built from the copies of the fields in the original's order (a set's or a map's layer lists its elements in canonical order).
      copy = frozenCopy(layer.ctor.build(inOwnOrder(layer, f.copies), layer.value) as object, layer, f, rec);
      if (f.parent === undefined) return copy;
      (copied ??= new Map()).set(f.original, { shape: shapeOf(f, shape), copy, node: f.node, next: copied.get(f.original) });
      // A mark popped moves up to its parent, still on the path, rather than to the next frame
      // pushed: a cycle through the parent is refused as soon as the parent comes again.
      if (cycle.up(depth--)) cycle.visit(f.parent.original, shapeOf(f.parent, shape), undefined, depth);
      f = f.parent;
    }
    f.copies[f.next++] = copy;
  }
}

/** A copy made by {@link copyFields}: of its original at `shape`, with the node of its demand; `next`, the original's copy at another shape. */
interface Copied {
  readonly shape: Shape<unknown>;
  readonly copy: unknown;
  readonly node: Forced;
  readonly next: Copied | undefined;
}

/** The shape of frame `f`'s layer, where the first frame's is `root`: its parent's field being copied. */
function shapeOf(f: Frame, root: Shape<unknown>): Shape<unknown> {
  return f.parent === undefined ? root : f.parent.layer.shapes[f.parent.next]!;
}

/** The error for the stack of frames up to `f`, which holds an original twice under one shape: named where the cycle first closes. */
function cyclic(f: Frame, root: Shape<unknown>, rec: Recording): ShapeMismatchError {
  const stack: Frame[] = [];
  for (let g: Frame | undefined = f; g !== undefined; g = g.parent) stack.push(g);
  // The frames from the bottom up, by original and shape, until one comes again.
  const seen = new Map<object, Map<Shape<unknown>, Frame>>();
  let repeat = stack.pop()!;
  let first: Frame | undefined;
  for (;;) {
    const shape = shapeOf(repeat, root);
    let byShape = seen.get(repeat.original);
    if ((first = byShape?.get(shape)) !== undefined) break;
    if (!byShape) seen.set(repeat.original, (byShape = new Map()));
    byShape.set(shape, repeat);
    repeat = stack.pop()!;
  }
  return cyclicValue(framePath(repeat, rec), framePath(first, rec), repeat.original, 'through strict fields only, so its copy would never end');
}

/**
 * The copy of `value` as far as it takes no copy of a strict field: see {@link instrument}. A layer
 * with fields is recorded, and returned as a {@link Frame} whose fields are still to copy.
 */
function copyLayer(value: unknown, shape: Shape<unknown>, path: Path, into: Into, at: number, rec: Recording, atLazy: boolean, wrap: typeof lazyWith, parent: Frame | undefined): unknown {
  if (value instanceof Lazy) {
    // A value reached through a protocol (an iterable) is never a Lazy: only its demand is one.
    const inner = shape.protocol === undefined ? insideLazyPosition(shape) : undefined;
    if (inner === undefined) return shape.project(value, path); // throws the mismatch
    return wrap(forceSite, { original: value, inner, path, into, at, rec });
  }
  if (shape.kind === 'lazy') {
    // An iterable is not a Lazy but is reached through its protocol, recording as it is iterated.
    if (shape.protocol !== undefined) return shape.protocol.instrument(value, path, into, at, rec);
    shape.project(value, path); // throws the mismatch
  }
  if (isPrimitive(value)) {
    checkPrimitive(value, shape, path);
    putPrimitive(into, at, value, atLazy);
    return value;
  }
  // What a copy made before recorded here is extended (see above).
  const old = recordedAt(into, at);
  // List cells at lazy positions, the common case, are recorded in a spine; a cell that the shape
  // reads as a layer of another constructor (see consShapes) is recorded as any other layer.
  let cellShapes: readonly Shape<unknown>[] | undefined;
  if (atLazy && value instanceof Cons && (cellShapes = consShapes(shape, value, path)) !== undefined) {
    const cell = old instanceof SpineCell && old.k === 0 ? old : startSpine(into, at);
    return new SpineRecorder(rec, cell, shape, cellShapes, path).copy(value, 0);
  }
  const layer = project(shape, value, path, rec, into, at, parent);
  if (layer.ctor === FN_CTOR) return instrumentFunction(layer.value as (...args: unknown[]) => unknown, into, at, rec, atLazy);
  const n = layer.fields.length;
  let node = old as Forced;
  if (!(old instanceof Forced) || old instanceof SpineCell || !sameCtor(old.ctor, layer.ctor) || old.arity !== n) put(into, at, (node = layerNode(layer, atLazy)));
  if (n === 0) return frozenEmpty(value, layer, path, into, at, rec);
  return new Frame(value as object, layer, node, path, into, at, parent);
}

/**
 * The copy of `value`, a layer without fields: itself where it is an atom (a primitive, an opaque
 * value, the empty list) or frozen already, else a frozen copy (an empty array, object or
 * constructor of a declared type), which the function cannot change for its caller.
 */
function frozenEmpty(value: unknown, layer: Layer, path: Path, into: Into, at: number, rec: Recording): unknown {
  const { style } = layer.ctor;
  // Its site made only for a copy: atoms and [] ends are most of the empty layers an observation meets.
  return style === 'atom' || style === 'prim' || style === 'nil' || Object.isFrozen(value) ? value : frozenCopy(layer.ctor.build(NO_FIELDS, layer.value) as object, layer, { path, into, at }, rec);
}
const NO_FIELDS: readonly unknown[] = [];

/** Where a copy's demand is recorded, with its path: what names it in a message. */
interface CopySite {
  readonly path: Path;
  readonly into: Into;
  readonly at: number;
}

/** `copy` of `layer`, recorded at `site`, frozen; an input's refusing any change (see `input-copy.ts`). */
function frozenCopy(copy: object, layer: Layer, site: CopySite, rec: Recording): object {
  if (!rec.inputs) return Object.freeze(copy);
  const { style } = layer.ctor;
  const owner = new CopyOwner(rec, site);
  return style === 'set' || style === 'map' ? rec.holdCollection(refusingCollection(copy as Set<unknown> | Map<unknown, unknown>, style === 'set', owner), owner) : refusing(copy, owner);
}

/** Tells the recording of a change to the copy at `site`. */
class CopyOwner implements ChangeOwner {
  constructor(
    private readonly rec: Recording,
    private readonly site: CopySite,
  ) {}

  changed(what: string): Error {
    const { path, into, at } = this.site;
    return this.rec.changedInput(this.rec.pathAt(path, into, at), what, '[...array], { ...object }, new Set(set) or new Map(map), with the change');
  }
}

/** `shape.project(value, path)`, a mismatch named by its path (see {@link pathOf}). */
function project(shape: Shape<unknown>, value: unknown, path: Path, rec: Recording, into: Into, at: number, parent: Frame | undefined): Layer {
  try {
    return shape.project(value, path);
  } catch (err) {
    if (path === null) shape.project(value, pathOf(path, into, at, rec, parent));
    throw err;
  }
}

/**
 * The path of the value at position `at` of `into`, field of `parent`'s layer if that is defined,
 * for a message: `path`, or where it is `null` (copies keep no paths under dynamic shapes, to
 * build none on the way) the path through the frames in the stack, then the path found in the
 * demands recorded (see {@link Recording.pathAt}).
 */
function pathOf(path: Path, into: Into, at: number, rec: Recording, parent: Frame | undefined): Path {
  const keys: PropertyKey[] = [];
  for (let f = parent; path === null && f !== undefined; f = f.parent) {
    keys.push(fieldKey(f.layer, f.next));
    ({ path, into, at } = f);
  }
  let found = rec.pathAt(path, into, at);
  for (let k = keys.length - 1; k >= 0; k--) found = child(found, keys[k]!);
  return found;
}

/** The path of the layer `f` copies, for a message. */
function framePath(f: Frame, rec: Recording): Path {
  return pathOf(f.path, f.into, f.at, rec, f.parent);
}

function forceSite({ original, inner, path, into, at, rec }: Site): unknown {
  const v = forceOriginal(original, into, at, rec);
  return rec.open ? instrument(v, inner, path, into, at, rec, true) : v;
}

/**
 * Forces the original that a wrapper recording at position `at` of `into` copies. Forcing a part
 * that throws is a demand on it, whether or not the function catches the error: it is recorded as
 * {@link bottom}, and marked so that a spec passing it through predicts `⊥` there; then the error
 * goes on. Running out of the force budget, or reaching `thunk` (a demand in value form given as
 * an input), says nothing of the value, and is not recorded. In a result too, where the context
 * forced it: an input's failure passed on, or the function's own throw (whose case is run again to
 * report it), as a pull of an iterable result that throws ends its iteration in `⊥`.
 */
function forceOriginal(original: Lazy<unknown>, into: Into, at: number, rec: Recording): unknown {
  try {
    return forceUncounted(original);
  } catch (err) {
    if (rec.open && threwBottom(err)) {
      put(into, at, bottom);
      markBottom(original);
    }
    throw err;
  }
}

/**
 * A function is demanded when it is called: the wrapper records its first call. Observing must not
 * change what a function that looks at its argument computes (its `length`, say): the wrapper has
 * the original's own properties, as they are (a getter is not run), and no other it can do
 * without: a `prototype` only if the original has one, and then `new` builds as the original
 * does. A generated function's `DESCRIBE`, by which it prints, is one of them.
 */
function instrumentFunction(f: (...args: unknown[]) => unknown, into: Into, at: number, rec: Recording, atLazy: boolean): unknown {
  const record = () => {
    if (rec.open && !(recordedAt(into, at) as Demand).forced) put(into, at, forcedNode(FN_CTOR, 0, wrapper, atLazy));
    marks[CALLED] = true;
  };
  // A method has no `prototype`, as an arrow function has none.
  const wrapper = Object.hasOwn(f, 'prototype')
    ? function (this: unknown, ...args: unknown[]): unknown {
        record();
        return new.target === undefined ? f.apply(this, args) : Reflect.construct(f, args, new.target);
      }
    : {
        wrapper(this: unknown, ...args: unknown[]): unknown {
          record();
          return f.apply(this, args);
        },
      }.wrapper;
  for (const key of Reflect.ownKeys(f)) Object.defineProperty(wrapper, key, Object.getOwnPropertyDescriptor(f, key)!);
  // The mark tells walks over values that hold the copy (`evaluatedPart`) whether it was called.
  const marks = wrapper as unknown as Record<symbol, boolean>;
  marks[CALLED] = false;
  return wrapper;
}

/**
 * Records a run of list cells at lazy positions into one spine. Cell `k`'s head and tail wrappers
 * are one object each, `lazyAt` thunks holding the original and `k`, their function a method of
 * this recorder bound once per list: the wrapper that reaches cell `k` is made with cell `k - 1`,
 * so `k` is where the cell goes, and a cell reached again (through a view forced again) is
 * recorded once. Every cell has the shapes of the first: a list's shape is the same at every cell.
 */
export class SpineRecorder implements ChangeOwner {
  private readonly spine: Spine;
  private readonly cellShape: Shape<unknown>;
  /** The shapes of a cell's head and tail. */
  private readonly headShape: Shape<unknown>;
  private readonly tailShape: Shape<unknown>;
  /** The shapes inside the Lazy of a cell's head and tail, where they are lazy positions (where a wrapper goes). */
  private readonly headInner: Shape<unknown> | undefined;
  private readonly tailInner: Shape<unknown> | undefined;
  /** The path of the first cell, for messages; `null` when the shapes are dynamic (nothing can mismatch). */
  private readonly path: Path;
  // Bound, not arrow functions: tsx names every arrow function it creates, which costs more than a small list's recording.
  private readonly headAt = this.forceHead.bind(this);
  private readonly tailAt = this.forceTail.bind(this);

  constructor(
    private readonly rec: Recording,
    private readonly cell: SpineCell,
    shape: Shape<unknown>,
    /** The shapes of a cell's head and tail at `shape` (see consShapes). */
    cellShapes: readonly Shape<unknown>[],
    path: Path,
  ) {
    [this.headShape, this.tailShape] = cellShapes as readonly [Shape<unknown>, Shape<unknown>];
    this.headInner = insideLazyPosition(this.headShape);
    this.tailInner = insideLazyPosition(this.tailShape);
    this.spine = cell.spine;
    this.cellShape = shape;
    this.path = shape === dynamic ? null : path;
  }

  /** The path of cell `k`'s field `key`. */
  private pathOf(k: number, key: 'head' | 'tail'): Path {
    return this.path === null ? null : child(child(this.path, 'tail', k), key);
  }

  /** Records the original cell `c` as cell `k` and returns its instrumented copy. */
  copy(c: Cons<unknown>, k: number): Cons<unknown> {
    if (k === this.spine.length) this.spine.grow();
    const head = c.head instanceof Lazy && this.headInner !== undefined ? lazyAt(this.headAt, c.head, k) : instrument(c.head, this.headShape, this.pathOf(k, 'head'), this.cell, HEAD - k, this.rec, false);
    // Past the largest index of a thunk, the rest of the list is recorded as a spine of its own.
    const tail = c.tail instanceof Lazy && this.tailInner !== undefined && k < MAX_LAZY_INDEX ? lazyAt(this.tailAt, c.tail, k + 1) : instrument(c.tail, this.tailShape, this.pathOf(k, 'tail'), this.cell, REST, this.rec, false);
    return this.rec.inputs ? inputCell(head as Lazy<unknown>, tail as Lazy<never>, this) : Object.freeze(new Cons(head as Lazy<unknown>, tail as Lazy<never>));
  }

  /** The error for a change `what` to one of the cells, noted by the recording. */
  changed(what: string): Error {
    const found = this.rec.pathAt(this.pathOf(0, 'head'), this.cell, HEAD);
    const list = found !== null && typeof found === 'object' ? found.parent : found;
    return this.rec.changedInput(list, what, 'new Cons(now(x), cell.tail)');
  }

  // The wrappers are made for lazy positions only, whose inner shapes the constructor found.
  private forceHead(original: Lazy<unknown>, k: number): unknown {
    const v = forceOriginal(original, this.cell, HEAD - k, this.rec);
    if (!this.rec.open) return v;
    const s = this.headInner!;
    if (isPrimitive(v) && primitiveFits(v, s)) {
      this.spine.setHead(k, v);
      return v;
    }
    return instrument(v, s, this.pathOf(k, 'head'), this.cell, HEAD - k, this.rec, true);
  }

  private forceTail(original: Lazy<unknown>, k: number): unknown {
    const v = forceOriginal(original, this.cell, REST, this.rec);
    if (!this.rec.open) return v;
    const s = this.tailInner!;
    if (v instanceof Cons && (s === this.cellShape || consShapes(s, v, this.pathOf(k - 1, 'tail')))) return this.copy(v, k);
    return instrument(v, s, this.pathOf(k - 1, 'tail'), this.cell, REST, this.rec, true);
  }
}
