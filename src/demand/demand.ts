/**
 * Demands in explicit form: what part of a value was evaluated. A demand mirrors the value's
 * structure; at a lazy position it is either {@link unforced} (printed `_`) or the demand on
 * what was forced there. Fields that are not lazy are always evaluated.
 * @module
 */
import type { Ctor } from './shape.ts';

/** The demand "not evaluated" (printed `_`). There is one: {@link unforced}. */
export class Unforced {
  declare readonly forced: false;
}

/** An evaluated layer: its constructor, the demands on its fields, and for primitives and functions the value. */
export class Forced {
  declare readonly forced: true;
  constructor(
    readonly ctor: Ctor,
    readonly fields: readonly Demand[],
    /** The primitive or function, for those constructors. */
    readonly value: unknown,
    /** Whether this layer sat at a lazy position (so converting back to a value wraps it in a `Lazy`). */
    readonly lazy: boolean,
  ) {}
}

// On the prototypes: demands on large values have a node per evaluated layer, so nodes hold only their fields.
Object.defineProperty(Unforced.prototype, 'forced', { value: false });
Object.defineProperty(Forced.prototype, 'forced', { value: true });

/** A demand: {@link unforced}, or a {@link Forced} layer with demands on its fields. */
export type Demand = Unforced | Forced;

/** The demand "not evaluated". */
export const unforced: Unforced = new Unforced();

/** Whether a demand evaluated anything at all. */
export function isForced(d: Demand): d is Forced {
  return d.forced;
}

function sameLayer(a: Forced, b: Forced): boolean {
  if (a.ctor !== b.ctor && (a.ctor.name !== b.ctor.name || a.ctor.style !== b.ctor.style)) return false;
  if (a.ctor.style === 'prim') return Object.is(a.value, b.value);
  return a.fields.length === b.fields.length;
}

/**
 * Compares two demands position by position without recursion (demands on lists of a million
 * cells are fine): `relation` decides each pair where at least one side is unforced.
 */
function compareDemands(a: Demand, b: Demand, whenUnforced: (a: Demand, b: Demand) => boolean): boolean {
  const stack: Demand[] = [a, b];
  while (stack.length > 0) {
    const y = stack.pop()!;
    const x = stack.pop()!;
    if (!x.forced || !y.forced) {
      if (!whenUnforced(x, y)) return false;
      continue;
    }
    if (!sameLayer(x, y)) return false;
    for (let i = 0; i < x.fields.length; i++) stack.push(x.fields[i]!, y.fields[i]!);
  }
  return true;
}

/** Whether two demands are equal: the same positions evaluated, the same constructors and primitives. */
export function demandEquals(a: Demand, b: Demand): boolean {
  return compareDemands(a, b, (x, y) => x.forced === y.forced);
}

/**
 * Whether `a` is less defined than (or equal to) `b`: a prefix of it, evaluating nothing that `b`
 * does not. "No stricter than" in the checker.
 */
export function lessDefined(a: Demand, b: Demand): boolean {
  return compareDemands(a, b, (x) => !x.forced);
}

/** Counts the evaluated layers of a demand (its size). */
export function demandSize(d: Demand): number {
  let n = 0;
  const stack: Demand[] = [d];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (!x.forced) continue;
    n++;
    for (const f of x.fields) stack.push(f);
  }
  return n;
}
