/**
 * Comparing a demand in value form (a spec's prediction) with a recorded demand as the value is
 * read, without converting it: in a passing check nearly every prediction is the demand observed,
 * and building its demand with `toDemand` to compare it cost more than the rest of the spec.
 * @module
 */
import { Lazy, thunk } from '../lazy/lazy.ts';
import { Cons } from '../lazy/cell.ts';
import { equalDemands, sameCtor, type Demand, type Forced } from './demand.ts';
import { readAtOnce } from './convert.ts';
import { DYN2 } from './dynamic.ts';
import { read, UNREAD, VALUE_FORM } from './guide.ts';
import { CONS_CTOR } from './lazy-positions.ts';
import { SpineCell, type Spine } from './compact-demand.ts';
import type { Path } from './path.ts';
import { FN_CTOR, primitiveCtor } from './primitives.ts';
import { CALLED } from './record.ts';
import { revokedOr } from './revoked-proxy.ts';
import { UNREMEMBERED } from './shared-layers.ts';
import { declaredConsShapes, insideLazyPosition, isPrimitive, primitiveFits } from './shape-fit.ts';
import type { Layer, Shape } from './shape-types.ts';

/**
 * @internal Whether `toDemand(value, shape, path)` is a demand equal to `actual` (see
 * `equalDemands`), found by walking `value` as `toDemand` does, alongside `actual`. `false` where
 * it is not, and wherever the walk is unsure (a shape it does not follow, a value that does not
 * fit, a shared node): `toDemand` then tells, and refuses what does not fit. The walk forces what
 * `toDemand` forces, in its order, up to where it answers (and so throws what it would, there);
 * it stops within the layers a `toDemand` walk records without remembering them (see
 * `shared-layers.ts`), where the two walks are the same.
 */
export function matchesValueForm(value: unknown, shape: Shape<unknown>, path: Path, actual: Demand): boolean {
  // Not through readingRevoked: a closure per prediction read, on every trial of a check.
  try {
    const atOnce = readAtOnce(value, shape);
    return atOnce !== undefined ? equalDemands(actual, atOnce) : walkMatches(value, shape, actual);
  } catch (err) {
    throw revokedOr(err, value, path);
  }
}

/**
 * The walk of {@link matchesValueForm}: depth first, fields in order, as `record` walks. Its work
 * list holds (value, shape, recorded, k): what is recorded at the value's position is a demand
 * (`k` < 0), a primitive head of a spine as the spine keeps it (`k` < 0), or cell `k` of a spine.
 * A list cell's head is walked in place, its tail left on the list: a cell costs one entry.
 */
function walkMatches(value: unknown, shape: Shape<unknown>, actual: Demand): boolean {
  const stack: unknown[] = [value, shape, actual, -1];
  let layers = 0;
  next: while (stack.length > 0) {
    let k = stack.pop() as number;
    let at = stack.pop();
    let s = stack.pop() as Shape<unknown>;
    let v = stack.pop();
    for (;;) {
      if (at instanceof SpineCell) {
        if (at.shared) return false;
        k = at.k;
        at = at.spine;
      }
      // What is recorded: cell `k` of spine `at`, a demand `node`, or else primitive `at` forced at a lazy position.
      const cell = k >= 0;
      const node = !cell && typeof at === 'object' ? (at as Demand) : undefined;
      while (v instanceof Lazy) {
        // `thunk` is a function too: a function's shape takes it, as a function not called.
        const inner = insideLazyPosition(s) ?? (v === thunk && s.kind === 'fn' ? s : undefined);
        if (inner === undefined) return false;
        s = inner;
        v = read(v, VALUE_FORM);
        if (v === UNREAD) break;
      }
      if (v === UNREAD) {
        if (node === undefined || node.forced) return false;
        continue next;
      }
      // A part known to throw, a lazy position holding what is not its inner value (an iterable): toDemand reads them.
      if (typeof v === 'symbol' || s.kind === 'lazy' || (node?.forced && node.shared)) return false;
      if (typeof v === 'function') {
        // A function is demanded where it was called (an instrumented copy's mark says), as toDemand reads it.
        if ((s.kind !== 'fn' && s.kind !== 'dynamic') || node === undefined) return false;
        if ((v as unknown as Record<symbol, unknown>)[CALLED] === false ? node.forced : !node.forced || !isLayer(node, FN_CTOR, 0)) return false;
        continue next;
      }
      if (node !== undefined && !node.forced) return false;
      if (isPrimitive(v)) {
        if (cell || !primitiveFits(v, s)) return false;
        if (node === undefined) {
          if (!Object.is(at, v)) return false;
          continue next;
        }
        const c = node.ctor;
        if (c.style !== 'prim' || !sameCtor(c, primitiveCtor(typeof v)!) || !(c.equals ? c.equals(node.value, v) : Object.is(node.value, v))) return false;
        continue next;
      }
      if (++layers > UNREMEMBERED || (!cell && node === undefined)) return false;
      if (v instanceof Cons) {
        const shapes = s.kind === 'dynamic' ? DYN2 : declaredConsShapes(s);
        if (shapes === undefined) return false;
        if (cell) {
          const spine = at as Spine;
          if (k + 1 < spine.length) stack.push(v.tail, shapes[1], spine, k + 1);
          else stack.push(v.tail, shapes[1], spine.rest, -1);
          at = spine.head(k);
        } else {
          if (!isLayer(node!, CONS_CTOR, 2)) return false;
          stack.push(v.tail, shapes[1], node!.field(1), -1);
          at = node!.field(0);
        }
        v = v.head;
        s = shapes[0]!;
        k = -1;
        continue;
      }
      if (cell || !(s.kind === 'dynamic' || (s.kind === 'data' && !s.collection))) return false;
      let layer: Layer;
      try {
        layer = s.project(v, null);
      } catch {
        return false;
      }
      const { ctor, fields } = layer;
      if (layer.order !== undefined || ctor.style === 'prim' || ctor.style === 'set' || ctor.style === 'map' || !isLayer(node!, ctor, fields.length)) return false;
      for (let i = fields.length - 1; i >= 0; i--) stack.push(fields[i], layer.shapes[i], node!.field(i), -1);
      continue next;
    }
  }
  return true;
}

/** Whether recorded node `d` is a layer of constructor `ctor` with `arity` fields, as `sameLayer` has it. */
function isLayer(d: Forced, ctor: Layer['ctor'], arity: number): boolean {
  return d.ctor.style !== 'prim' && sameCtor(d.ctor, ctor) && d.arity === arity;
}
