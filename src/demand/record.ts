/**
 * Reading demands off values, in one walk: the built-in contexts (`normalize`, `whnf`,
 * `toContext`, `fitContext`) record the demand they exert while they force a value, so that
 * observing under them needs no instrumented copy of the result (a copy costs more than the
 * evaluation it watches); `toDemand` reads a demand written as a value, `evaluatedPart` what is
 * evaluated of one. The walk is here; what it records is in the compact form of
 * `compact-demand.ts` (shared with instrumented copies, `instrument.ts`), how it treats lazy
 * positions in `guide.ts`, how it checks values against shapes in `shape-fit.ts`, and how it meets
 * values again in `shared-layers.ts` (through several paths) and `cycles.ts` (below themselves).
 * @module
 */
import { Lazy } from '../lazy/lazy.ts';
import { Cons } from '../lazy/cell.ts';
import { bottom, demandHolder, forcedNode, threwBottom, type Demand, type Forced } from './demand.ts';
import { fieldKey } from './collections.ts';
import { HEAD, layerNode, newestHead, pathTo, put, putPrimitive, REST, spineSlot, type SpineCell } from './compact-demand.ts';
import { PathCycle } from './cycles.ts';
import { below, EVALUATED, NONE, read, THREW, UNREAD, VALUE_FORM, WHNF, type Guide } from './guide.ts';
import { CONS_CTOR } from './lazy-positions.ts';
import { child, showPath, type Path } from './path.ts';
import { FN_CTOR, primitiveCtor } from './primitives.ts';
import { checkPrimitive, consShapes, insideLazy, insideLazyPosition, isPrimitive, primitiveFits } from './shape-fit.ts';
import { UNREMEMBERED, Walked } from './shared-layers.ts';
import type { Layer, Shape } from './shape-types.ts';

/** Marks an instrumented function; the property holds whether it has been called. @internal */
export const CALLED = Symbol('strictcheck.called');

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
        try {
          v = read(v, g);
        } catch (err) {
          // Forced and threw (the function's error, which ends the observation): ⊥ there, as in a copy.
          if (threwBottom(err)) put(parent, index, bottom);
          throw err;
        }
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
      let shapes: readonly Shape<unknown>[] | undefined;
      if (v instanceof Cons && (shapes = consShapes(s, v, p)) !== undefined) {
        const key = g;
        if (typeof g === 'object') g = along(g, CONS_CTOR.name, 2, p, misfit);
        // Cells at lazy positions (a list's) are recorded in a spine: one growing array for a run of cells.
        let cell: SpineCell | Forced;
        let head: number;
        if (atLazy) {
          parent = cell = spineSlot(parent, index);
          // A spine's first cell is its node, shared where the list is met again; a cell further on is not one.
          if (index !== REST) walked?.add(v, s, key, true, cell, depth);
          head = newestHead(cell);
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
