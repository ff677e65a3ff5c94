/**
 * The demand lattice: least upper bounds and greatest lower bounds of demands in the order of
 * {@link lessDefined} ("evaluates no more than"), as ChasingBottoms has them for values (`\/!`,
 * `/\!`). Both walk with an explicit stack (demands on lists of a million cells are fine) and
 * share the subtrees they take whole.
 * @module
 */
import { checkDemand, demandHolder, forcedNode, sameLayer, setField, unforced, type Demand, type Forced } from './demand.ts';

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
  const root = demandHolder();
  const stack: unknown[] = [a, b, root, 0];
  while (stack.length > 0) {
    const index = stack.pop() as number;
    const parent = stack.pop() as Forced;
    const y = stack.pop() as Demand;
    const x = stack.pop() as Demand;
    if (x === y || !x.forced || !y.forced) {
      setField(parent, index, x.forced ? x : y);
      continue;
    }
    if (!sameLayer(x, y)) return undefined;
    const node = forcedNode(x.ctor, x.arity, x.value, x.lazy || y.lazy);
    setField(parent, index, node);
    for (let i = x.arity - 1; i >= 0; i--) stack.push(x.field(i), y.field(i), node, i);
  }
  return root.field(0);
}

/**
 * The greatest lower bound of two demands: what both evaluate alike. Where they evaluate a
 * position differently, the nearest enclosing position that may be unevaluated (a lazy one, or
 * the root) is unevaluated: a strict field is evaluated with its layer, so `Node Leaf 1 _` and
 * `Node Leaf 2 _` (with a strict number) share only `_`, where `1 : _` and `2 : _` share `_ : _`.
 * Always defined.
 *
 * @example
 * ```ts
 * prettyDemand(glb(toDemand(fromArray([1, 2])), toDemand(cons(1, cons(3, thunk))))); // '1 : _ : _'
 * prettyDemand(glb(toDemand(nil), toDemand(cons(thunk, thunk))));                   // '_'
 * ```
 */
export function glb(a: Demand, b: Demand): Demand {
  checkDemand(a, 'glb', 'a');
  checkDemand(b, 'glb', 'b');
  const root = demandHolder();
  // Each entry: the pair, the slot its result goes in, and the slot of the nearest lazy position at or above it.
  const stack: unknown[] = [a, b, root, 0, root, 0];
  while (stack.length > 0) {
    let anchorIndex = stack.pop() as number;
    let anchor = stack.pop() as Forced;
    const index = stack.pop() as number;
    const parent = stack.pop() as Forced;
    const y = stack.pop() as Demand;
    const x = stack.pop() as Demand;
    if (!x.forced || !y.forced) continue; // the slot stays unforced
    if (x === y) {
      setField(parent, index, x);
      continue;
    }
    if (x.lazy || y.lazy) [anchor, anchorIndex] = [parent, index];
    if (!sameLayer(x, y)) {
      setField(anchor, anchorIndex, unforced); // what is built below it is dropped
      continue;
    }
    const node = forcedNode(x.ctor, x.arity, x.value, x.lazy || y.lazy);
    setField(parent, index, node);
    for (let i = x.arity - 1; i >= 0; i--) stack.push(x.field(i), y.field(i), node, i, anchor, anchorIndex);
  }
  return root.field(0);
}
