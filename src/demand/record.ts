/**
 * Reading demands off values, in one walk: `freeze` reads what was forced of an instrumented copy
 * (see `observe`), and the built-in contexts (`normalize`, `whnf`, `toContext`, `fitContext`)
 * record the demand they exert while they force a value, so that observing under them needs no
 * instrumented copy of the result: a copy costs more than the evaluation it watches.
 * @module
 */
import { Lazy, peek } from '../lazy/lazy.ts';
import { Cons } from '../lazy/cell.ts';
import { Forced, forcedNode, setField, unforced, type Demand } from './demand.ts';
import { child, CONS_CTOR, dynamic, FN_CTOR, primitiveCtor, showPath, type Path, type Shape } from './shape.ts';

/** Marks an instrumented function; the property holds whether it has been called. @internal */
export const CALLED = Symbol('strictcheck.called');

/**
 * How a walk treats the lazy positions it meets, from one position down: force all of them
 * (`normalize`), force this one and none below (`whnf`), force none, read what is evaluated
 * already (freezing an instrumented copy), or force as far as a demand says.
 * @internal
 */
export type Guide = typeof ALL | typeof WHNF | typeof NONE | typeof EVALUATED | Demand;
export const ALL = 0;
export const WHNF = 1;
export const NONE = 2;
export const EVALUATED = 3;

/** The guide for field `i` of a layer walked under `g`. */
function below(g: Guide, i: number): Guide {
  return typeof g === 'number' ? (g === WHNF ? NONE : g) : (g as Forced).field(i);
}

/** The `typeof` of each kind of primitive, to check primitives against their shapes without projecting them. */
const PRIM_TYPES: Record<string, string> = { number: 'number', string: 'string', boolean: 'boolean', bigint: 'bigint', unit: 'undefined' };

/** Throws the mismatch if primitive `v` does not have shape `s` (cheaply: without projecting it). @internal */
export function checkPrimitive(v: unknown, s: Shape<unknown>, p: Path): void {
  if (s.kind !== 'dynamic' && !(s.kind === 'prim' && PRIM_TYPES[s.prim] === typeof v)) s.project(v, p);
}

/**
 * Walks `value` under `guide`, forcing what the guide says, and sets field `index` of `parent` to
 * the demand found: the part of the value that is evaluated and that the guide reached. Strict
 * fields are always part of it; functions are part of it only when an instrumented copy records
 * a call (a context never calls them). Checks the value against `shape`, naming the path of a
 * mismatch. Under a demand, a value whose constructor differs from the demand's is an error, or
 * with `fit` where the walk stops forcing. Stack-safe: an explicit stack of (value, parent, index,
 * shape, path, guide) entries, following the first field of each layer in place.
 * A walk that throws leaves in `parent` what it recorded until then.
 * @internal
 */
export function record(value: unknown, shape: Shape<unknown>, path: Path, guide: Guide, parent: Forced, index: number, fit = false): void {
  const stack: unknown[] = [];
  // After a layer that does not fit the demand, the walk forces nothing more but records the rest
  // of what is evaluated, as it would have been recorded in a copy, then throws.
  const misfit: Misfit = { fit, error: undefined };
  let v = value;
  let s = shape;
  let p = path;
  let g = guide;
  for (;;) {
    walk: for (;;) {
      if (typeof g === 'object' && !g.forced) break;
      let atLazy = false;
      while (v instanceof Lazy) {
        if (s.kind === 'lazy') s = s.inner();
        else if (s.kind !== 'dynamic') s.project(v, p); // throws the mismatch
        if (g === EVALUATED ? !v.isEvaluated : g === NONE) break walk;
        v = g === EVALUATED ? peek(v) : v.force();
        atLazy = true;
      }
      if (s.kind === 'lazy') s.project(v, p); // throws the mismatch
      if (g === WHNF) g = NONE;
      if (typeof v === 'function') {
        if (s.kind !== 'dynamic') s.project(v, p); // throws a mismatch
        if (g !== EVALUATED || (v as unknown as Record<symbol, boolean | undefined>)[CALLED] === false) break;
        setField(parent, index, forcedNode(FN_CTOR, 0, v, atLazy));
        break;
      }
      const prim = typeof v === 'object' ? undefined : primitiveCtor(typeof v);
      if (prim !== undefined) {
        checkPrimitive(v, s, p);
        setField(parent, index, (atLazy ? new LazyPrimNode(v) : new StrictPrimNode(v)) as unknown as Forced);
        if (typeof g === 'object') along(g, prim.name, 0, p, misfit);
        break;
      }
      // Paths are built only where a message may need them: declared shapes, and walks along a demand.
      const paths = s.kind !== 'dynamic' || typeof g === 'object';
      // List cells are the common case: no generic layer.
      if (v instanceof Cons) {
        let shapes = CONS_DYNAMIC;
        if (s.kind !== 'dynamic') {
          const cons = s.kind === 'data' ? s.alternatives()[1] : undefined;
          shapes = cons?.ctor === CONS_CTOR ? cons.shapes : s.project(v, p).shapes;
        }
        const node = atLazy ? (new ConsNode() as unknown as Forced) : forcedNode(CONS_CTOR, 2, undefined, false);
        setField(parent, index, node);
        if (typeof g === 'object') g = along(g, CONS_CTOR.name, 2, p, misfit);
        stack.push(v.tail, node, 1, shapes[1], paths ? child(p, 'tail') : null, below(g, 1));
        v = v.head;
        parent = node;
        index = 0;
        s = shapes[0]!;
        p = paths ? child(p, 'head') : null;
        g = below(g, 0);
        continue;
      }
      const layer = s.project(v, p);
      const n = layer.fields.length;
      const node = forcedNode(layer.ctor, n, layer.value, atLazy);
      setField(parent, index, node);
      if (typeof g === 'object') g = along(g, layer.ctor.name, n, p, misfit);
      if (n === 0) break;
      for (let i = n - 1; i > 0; i--) stack.push(layer.fields[i], node, i, layer.shapes[i], paths ? child(p, layer.ctor.keys[i]!) : null, below(g, i));
      v = layer.fields[0];
      parent = node;
      index = 0;
      s = layer.shapes[0]!;
      p = paths ? child(p, layer.ctor.keys[0]!) : null;
      g = below(g, 0);
    }
    if (stack.length === 0) break;
    g = misfit.error ? (stack.pop(), NONE) : (stack.pop() as Guide);
    p = stack.pop() as Path;
    s = stack.pop() as Shape<unknown>;
    index = stack.pop() as number;
    parent = stack.pop() as Forced;
    v = stack.pop();
  }
  if (misfit.error) throw misfit.error;
}

const CONS_DYNAMIC: readonly Shape<unknown>[] = [dynamic, dynamic];

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

// Compact nodes for the layers a demand on a long list is made of, two per cell: a list cell at a
// lazy position, and a primitive. They are `Forced` nodes whose constant parts sit on their
// prototypes (40 and 32 bytes instead of 64): observing a large value allocates little else.
class ConsNode {
  f0: Demand = unforced;
  f1: Demand = unforced;
}
class LazyPrimNode {
  constructor(readonly value: unknown) {}
}
class StrictPrimNode {
  constructor(readonly value: unknown) {}
}
Object.setPrototypeOf(ConsNode.prototype, Forced.prototype);
Object.defineProperties(ConsNode.prototype, { ctor: { value: CONS_CTOR }, value: { value: undefined }, lazy: { value: true } });
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
