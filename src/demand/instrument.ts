/**
 * Instrumented copies (paper, `entangle`): a copy of a value whose lazy fields are wrappers that
 * force the original and record the layer they find, in a demand built as the copy is forced.
 *
 * Recording as it is forced, rather than reading the demand off the copy afterwards, means no one
 * keeps the copy: the cells of an instrumented list that a function has walked past can be
 * collected while it runs. That matters because a copy costs more than the evaluation it watches,
 * mostly in the garbage collector's time. Instrumentation is lazy: a sub-value is copied when its
 * wrapper is forced.
 * @module
 */
import { Lazy, lazyAt, lazyView, lazyWith, MAX_LAZY_INDEX } from '../lazy/lazy.ts';
import { Cons } from '../lazy/cell.ts';
import { Forced, forcedNode, type Demand } from './demand.ts';
import { child, dynamic, FN_CTOR, type Path, type Shape } from './shape.ts';
import { CALLED, checkPrimitive, consShapes, HEAD, insideLazy, insideLazyPosition, isPrimitive, primitiveFits, put, putPrimitive, recordedAt, REST, Spine, SpineCell, startSpine } from './record.ts';

/**
 * One recording: its wrappers record while it is open. An observation closes it when it ends, so
 * that the demands it returned never change, whatever is forced later.
 */
export class Recording {
  open = true;
}

/** Where a demand is recorded: field `at` of a node being built, or a position in a spine (see `put`). */
type Into = Forced | SpineCell;

/** A lazy field of a value, with where its demand is recorded once it is forced. */
interface Site {
  readonly original: Lazy<unknown>;
  readonly shape: Shape<unknown>;
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
  if (value instanceof Lazy) {
    if (insideLazyPosition(shape) === undefined) shape.project(value, path); // throws the mismatch
    return wrap(forceSite, { original: value, shape, path, into, at, rec });
  }
  if (shape.kind === 'lazy') shape.project(value, path); // throws the mismatch
  if (isPrimitive(value)) {
    checkPrimitive(value, shape, path);
    putPrimitive(into, at, value, atLazy);
    return value;
  }
  // What a copy made before recorded here is extended (see above).
  const old = recordedAt(into, at);
  // List cells at lazy positions, the common case, are recorded in a spine.
  if (atLazy && value instanceof Cons) {
    const cell = old instanceof SpineCell && old.k === 0 ? old : startSpine(into, at);
    return new SpineRecorder(rec, cell, shape, path, value).copy(value, 0);
  }
  const layer = shape.project(value, path);
  if (layer.ctor === FN_CTOR) return instrumentFunction(layer.value as (...args: unknown[]) => unknown, into, at, rec, atLazy);
  const n = layer.fields.length;
  let node = old as Forced;
  if (!(old instanceof Forced) || old instanceof SpineCell || old.ctor !== layer.ctor || old.arity !== n) put(into, at, (node = forcedNode(layer.ctor, n, layer.value, atLazy)));
  if (n === 0) return value;
  const copies: unknown[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const s = layer.shapes[i]!;
    // Only declared shapes can mismatch, so only they pay for the path of their messages.
    copies[i] = instrument(layer.fields[i], s, s.kind === 'dynamic' ? null : child(path, layer.ctor.keys[i]!), node, i, rec, false);
  }
  return layer.ctor.build(copies, layer.value);
}

function forceSite({ original, shape, path, into, at, rec }: Site): unknown {
  const v = original.force();
  return rec.open ? instrument(v, insideLazy(shape, original, path), path, into, at, rec, true) : v;
}

/** A function is demanded when it is called: the wrapper records its first call. */
function instrumentFunction(f: (...args: unknown[]) => unknown, into: Into, at: number, rec: Recording, atLazy: boolean): unknown {
  const wrapper = function (this: unknown, ...args: unknown[]) {
    if (rec.open && !(recordedAt(into, at) as Demand).forced) put(into, at, forcedNode(FN_CTOR, 0, wrapper, atLazy));
    marks[CALLED] = true;
    return f.apply(this, args);
  };
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
class SpineRecorder {
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
    path: Path,
    first: Cons<unknown>,
  ) {
    [this.headShape, this.tailShape] = consShapes(shape, first, path) as [Shape<unknown>, Shape<unknown>];
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
    return new Cons(head as Lazy<unknown>, tail as Lazy<never>);
  }

  // The wrappers are made for lazy positions only, whose inner shapes the constructor found.
  private forceHead(original: Lazy<unknown>, k: number): unknown {
    const v = original.force();
    if (!this.rec.open) return v;
    const s = this.headInner!;
    if (isPrimitive(v) && primitiveFits(v, s)) {
      this.spine.setHead(k, v);
      return v;
    }
    return instrument(v, s, this.pathOf(k, 'head'), this.cell, HEAD - k, this.rec, true);
  }

  private forceTail(original: Lazy<unknown>, k: number): unknown {
    const v = original.force();
    if (!this.rec.open) return v;
    const s = this.tailInner!;
    if (v instanceof Cons && (s === this.cellShape || consShapes(s, v, this.pathOf(k - 1, 'tail')))) return this.copy(v, k);
    return instrument(v, s, this.pathOf(k - 1, 'tail'), this.cell, REST, this.rec, true);
  }
}
