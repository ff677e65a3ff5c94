/**
 * The demand lattice: least upper bounds and greatest lower bounds of demands in the order of
 * {@link lessDefined} ("evaluates no more than"), as ChasingBottoms has them for values (`\/!`,
 * `/\!`). Both walk with an explicit stack (demands on lists of 100,000 cells, as the tests walk,
 * are fine), share the subtrees they take whole, and keep the sharing of demands on shared structure: a pair of
 * nodes met again is not walked again, so they cost what the demands hold, not their unfolding.
 * @module
 */
import { checkDemand, demandHolder, endsClosed, forcedNode, isClose, isTaken, iterationAt, iterationField, markShared, PairMap, sameLayer, setField, unforced, type Demand, type Forced } from './demand.ts';
import type { Ctor } from './shape-types.ts';

/**
 * The least upper bound of two demands: what either evaluates, joined; `undefined` when they
 * evaluate some position differently (another constructor, another primitive), where no demand
 * is above both (ChasingBottoms' `\/!` returns `Nothing` there).
 *
 * @example
 * ```ts
 * prettyDemand(lub(toDemand(cons(1, thunk)), toDemand(cons(thunk, cons(2, thunk))))!); // '1 : 2 : _'
 * lub(toDemand(nil), toDemand(cons(thunk, thunk)));                                     // undefined: [] and _ : _
 * ```
 */
export function lub(a: Demand, b: Demand): Demand | undefined {
  checkDemand(a, 'lub', 'a');
  checkDemand(b, 'lub', 'b');
  return bound(a, b, true);
}

/**
 * The greatest lower bound of two demands: what both evaluate alike. Where they evaluate a
 * position differently, the nearest enclosing position that may be unevaluated (a lazy one, or
 * the root) is unevaluated: a strict field is evaluated with its layer, so `Node Leaf 1 _` and
 * `Node Leaf 2 _` (with a strict number) share only `_`, where `1 : _` and `2 : _` share `_ : _`.
 * Defined but where an iteration ends in a consumer's close in one and is `_` or otherwise
 * evaluated in the other: `return()` and `throw()` at that place are then both below the two, and
 * neither is above the other (`1 : _` and `1 : 2 : return()`), so `undefined`. On a re-iterable
 * source, where an iteration not begun is below any, so are iterations one lacks: `glb` has those
 * both have, and `_` for two closes not alike.
 *
 * @example
 * ```ts
 * prettyDemand(glb(toDemand(fromArray([1, 2])), toDemand(cons(1, cons(3, thunk))))!); // '1 : _ : _'
 * prettyDemand(glb(toDemand(nil), toDemand(cons(thunk, thunk)))!);                   // '_'
 * glb(toDemand(pulls([1], 'open'), iterable(number)), toDemand(pulls([1, 2], 'return'), iterable(number))); // undefined
 * ```
 */
export function glb(a: Demand, b: Demand): Demand | undefined {
  checkDemand(a, 'glb', 'a');
  checkDemand(b, 'glb', 'b');
  return bound(a, b, false);
}

const CONFLICT_CTOR: Ctor = { name: 'conflict', keys: [], style: 'atom', build: () => undefined };
/**
 * In {@link glb}, the result of a pair that no demand is: the two evaluate a position differently
 * on a strict path below it, so the nearest lazy position above (or the root) is unevaluated.
 */
const CONFLICT: Forced = forcedNode(CONFLICT_CTOR, 0, undefined, false);

/**
 * {@link lub} (`upper`) or {@link glb} of two demands. Each stack entry: the pair, the slot its
 * result goes in, whether a pair above it had a shared side (so that it may be met again), and
 * for glb, once its node is built, that node (the entry is then seen after the node's fields: a
 * conflict below goes up; only where one can, see {@link mayConflict}). A pair with a shared
 * side gets the result of its first meeting.
 */
function bound(a: Demand, b: Demand, upper: boolean): Demand | undefined {
  const root = demandHolder();
  const stack: unknown[] = [a, b, root, 0, false, undefined];
  let memo: PairMap<Demand> | undefined;
  // What was taken whole below a pair with a shared side: a node placed twice is shared in the result.
  let placed: Set<Forced> | undefined;
  while (stack.length > 0) {
    const built = stack.pop() as Forced | undefined;
    const below = stack.pop() as boolean;
    const index = stack.pop() as number;
    const parent = stack.pop() as Forced;
    const y = stack.pop() as Demand;
    const x = stack.pop() as Demand;
    // The pair is an iteration of a re-iterable source, begun or not: there `_` is below any.
    const atStart = parent.ctor.iterations !== undefined;
    if (built !== undefined) {
      if (built.ctor.iterations !== undefined) {
        const r = begun(built);
        setField(parent, index, r);
        if ((x as Forced).shared || (y as Forced).shared) memo!.set(x as Forced, y as Forced, r);
        continue;
      }
      if (!holdsConflict(built)) continue;
      const r = clash(x, y, built.lazy, atStart);
      if (r === undefined) return undefined;
      setField(parent, index, r);
      if ((x as Forced).shared || (y as Forced).shared) memo!.set(x as Forced, y as Forced, r);
      continue;
    }
    if (x === y || !x.forced || !y.forced || isClose(x) || isClose(y) || isTaken(x) || isTaken(y)) {
      const r = x === y ? x : atStart ? (upper ? joinAtStart(x, y) : meetAtStart(x, y)) : upper ? joinApart(x, y) : meetApart(x, y);
      if (r === undefined) return undefined;
      if (below && r.forced && !r.shared && r !== CONFLICT) {
        placed ??= new Set();
        if (placed.has(r)) markShared(r);
        else placed.add(r);
      }
      setField(parent, index, r);
      continue;
    }
    const shared = x.shared || y.shared;
    const known = shared ? (memo ??= new PairMap()).get(x, y) : undefined;
    if (known !== undefined) {
      if (known.forced && known !== CONFLICT) markShared(known);
      setField(parent, index, known);
      continue;
    }
    let r: Demand;
    if (x.ctor.iterations !== undefined && y.ctor.iterations !== undefined) {
      // Iterations one lacks are not begun: below the other's. Those glb leaves not begun at the end go, once its fields are done.
      const node = (r = iterationsNode(x, y, upper));
      if (!upper) stack.push(x, y, parent, index, below, node);
      for (let i = node.arity - 1; i >= 0; i--) stack.push(iterationAt(x, i), iterationAt(y, i), node, i, below || shared, undefined);
    } else if (!sameLayer(x, y)) {
      if (upper) return undefined;
      const met = clash(x, y, x.lazy || y.lazy, atStart);
      if (met === undefined) return undefined;
      r = met;
    } else {
      const node = forcedNode(x.ctor, x.arity, x.value, x.lazy || y.lazy);
      if (!upper && mayConflict(x, y)) stack.push(x, y, parent, index, below, node);
      for (let i = x.arity - 1; i >= 0; i--) stack.push(x.field(i), y.field(i), node, i, below || shared, undefined);
      r = node;
    }
    setField(parent, index, r);
    if (shared) memo!.set(x, y, r);
  }
  const r = root.field(0);
  return r === CONFLICT ? openBelow(a, b) : r;
}

/**
 * The glb of two demands that clash (layers not alike, here or below): `_` where either was
 * `lazy`, the conflict otherwise; none at an iteration's start, where return() and throw() are
 * both below two layers not alike and neither is above the other.
 */
function clash(x: Demand, y: Demand, lazy: boolean, atStart: boolean): Demand | undefined {
  return atStart ? undefined : lazy ? openBelow(x, y) : CONFLICT;
}

/** The node of {@link lub} (`upper`, as many iterations as the longer) or {@link glb} (as the shorter) of two `Iterations`, its fields to set. */
function iterationsNode(x: Forced, y: Forced, upper: boolean): Forced {
  const from = x.arity >= y.arity === upper ? x : y;
  return forcedNode(from.ctor, from.arity, undefined, x.lazy || y.lazy);
}

/** `Iterations` node `node` without the iterations not begun after its last begun (glb leaves some): `_` for none begun. */
function begun(node: Forced): Demand {
  let n = node.arity;
  while (n > 0 && !node.field(n - 1).forced) n--;
  if (n === node.arity) return node;
  if (n === 0) return unforced;
  const r = forcedNode(node.ctor.iterations!(n), n, undefined, node.lazy);
  for (let i = 0; i < n; i++) setField(r, i, node.field(i));
  return r;
}


/** {@link lub} at an iteration of a re-iterable source where one is `_`, `taken` or a close: `_` is below any there, and `taken` is `_` left open after 0 pulls. */
function joinAtStart(x: Demand, y: Demand): Demand | undefined {
  if (!x.forced) return y;
  if (!y.forced) return x;
  if (isTaken(x)) return takenJoin(x, y);
  return isTaken(y) ? takenJoin(y, x) : joinApart(x, y);
}

/** {@link lub} of `taken` and `d`, begun: `d` with its close left open (see {@link opened}), `taken` where nothing of it is left. */
function takenJoin(taken: Forced, d: Forced): Demand {
  const r = opened(d);
  return r.forced ? r : taken;
}

/**
 * {@link glb} at an iteration of a re-iterable source where one is `_`, `taken` or a close: `_`,
 * a close below the other, or `_` for two closes not alike (only it is below both); `taken` and
 * one that ends in a close after a pull have both closes below them (`undefined`).
 */
function meetAtStart(x: Demand, y: Demand): Demand | undefined {
  if (!x.forced || !y.forced) return unforced;
  const taken = isTaken(x) ? x : isTaken(y) ? y : undefined;
  if (taken !== undefined) {
    const other = taken === x ? y : x;
    return isClose(other) || isTaken(other) ? other : endsClosed(other) ? undefined : taken;
  }
  if (isClose(x) && isClose(y)) return sameLayer(x, y) ? x : unforced;
  return isClose(x) ? x : y;
}

/**
 * {@link lub} of two demands not alike at their root (one `_`, or one a close): a close is below
 * what the other holds there but the other close; `_` is below `d` opened (see {@link opened}),
 * the least demand above both.
 */
function joinApart(x: Demand, y: Demand): Demand | undefined {
  if (!x.forced) return opened(y);
  if (!y.forced) return opened(x);
  if (isClose(x) && isClose(y)) return sameLayer(x, y) ? x : undefined;
  return isClose(x) ? y : x;
}

/**
 * {@link glb} of two demands not alike at their root (one `_`, or one a close): a close, where it
 * is below the other; {@link CONFLICT} for two closes, below which nothing is (a position above
 * decides, as for two primitives); else see {@link openBelow}.
 */
function meetApart(x: Demand, y: Demand): Demand | undefined {
  if (x.forced && isClose(x)) return y.forced && isClose(y) && !sameLayer(x, y) ? CONFLICT : x;
  if (y.forced && isClose(y)) return y;
  return openBelow(x, y);
}

/**
 * {@link glb} at a lazy position of two demands nothing evaluated is below both: `_`, unless either
 * ends in a close (see {@link endsClosed}). Then `return()` and `throw()` are below both, and
 * neither above the other, at this place and at each above it: no greatest lower bound (`undefined`).
 */
function openBelow(x: Demand, y: Demand): Demand | undefined {
  return endsClosed(x) || endsClosed(y) ? undefined : unforced;
}

/**
 * Demand `d` with the close that ends it (see {@link endsClosed}) left open, `_`: the least demand
 * above both `d` and `_`. Copies the nodes its iterations go through, the elements shared.
 */
function opened(d: Demand): Demand {
  const root = demandHolder();
  let [parent, index, x] = [root, 0, d];
  while (x.forced && endsClosed(x)) {
    if (isClose(x)) {
      x = unforced;
      break;
    }
    // Ending in a close, and not one: it goes on in its iteration field.
    const along = iterationField(x)!;
    const node = forcedNode(x.ctor, x.arity, x.value, x.lazy);
    for (let i = 0; i < x.arity; i++) setField(node, i, x.field(i));
    setField(parent, index, node);
    [parent, index, x] = [node, along, x.field(along)];
  }
  setField(parent, index, x);
  return root.field(0);
}

/**
 * Whether a conflict may come up to node `x` (or `y`) from its fields: through a strict field
 * evaluated by both, not alike (a lazy field is `_` instead), or a lazy one holding two closes
 * (see {@link meetApart}). Only then does glb look at the node again once its fields are done.
 */
function mayConflict(x: Forced, y: Forced): boolean {
  for (let i = 0; i < x.arity; i++) {
    const [a, b] = [x.field(i), y.field(i)];
    if (a !== b && a.forced && b.forced && ((!a.lazy && !b.lazy) || (isClose(a) && isClose(b)))) return true;
  }
  return false;
}

/** Whether a node's fields hold a {@link CONFLICT}. */
function holdsConflict(node: Forced): boolean {
  for (let i = 0; i < node.arity; i++) if (node.field(i) === CONFLICT) return true;
  return false;
}
