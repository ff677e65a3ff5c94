/**
 * The layers a walk has recorded, so that a value met again through another path (shared
 * structure) is recorded as one shared node rather than walked again, and a value met below itself
 * is left to cycle detection (`cycles.ts`).
 * @module
 */
import { markShared, type Forced } from './demand.ts';
import type { SpineCell } from './compact-demand.ts';
import type { Shape } from './shape-types.ts';

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
export class Walked {
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
export const UNREMEMBERED = 1024;

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
