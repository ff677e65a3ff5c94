/**
 * Shared structure costs what it holds, not what it would unfold to: a value of 41 objects, each
 * holding the one below it twice, unfolds to 2^40 leaves. Copying, observing, reading its demand,
 * comparing, converting and printing it must cost its 41 objects (the old code took 2 to 4 times
 * longer per level: hours at these depths, so a regression hangs rather than fails; each test has
 * a timeout so that it fails instead).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Lazy, lazy, now, thunk } from '../src/lazy/lazy.ts';
import { data, type DataShape } from '../src/demand/declared-data.ts';
import { dynamic } from '../src/demand/dynamic.ts';
import { lazyOf } from '../src/demand/lazy-positions.ts';
import { number } from '../src/demand/primitives.ts';
import type { Shape } from '../src/demand/shape-types.ts';
import { cons, fromArray } from '../src/lazy/list.ts';
import type { List } from '../src/lazy/cell.ts';
import { evaluatedPart, fromDemand, toDemand } from '../src/demand/convert.ts';
import { demandEquals, demandSize, lessDefined } from '../src/demand/demand.ts';
import { prettyDemand, prettyValue } from '../src/demand/print.ts';
import { entangle, normalize, observe, observeDetailed, toContext, whnf } from '../src/demand/observe.ts';
import { withArbitrary } from '../src/engine/fast-check-bridge.ts';
import { spec } from '../src/spec/spec.ts';
import { checkSpec } from '../src/checks.ts';

const HANG = { timeout: 60_000 };
const DEPTH = 40;
/** The size of a demand on {@link sharedTree} unfolded, where the leaf's demand has `leaf` layers: 2^40 of them, and 2^40 - 1 objects. */
const unfolded = (leaf: number) => leaf * 2 ** DEPTH + 2 ** DEPTH - 1;

type Pair = { l: unknown; r: unknown };

/** `t_{k+1} = { l: t_k, r: t_k }`, strict fields, from `leaf`, `depth` levels. */
function sharedTree(leaf: unknown, depth = DEPTH): Pair {
  let t = leaf;
  for (let i = 0; i < depth; i++) t = { l: t, r: t };
  return t as Pair;
}

/** `t_{k+1} = now({ l: t_k, r: t_k })`: the same, each level in an evaluated Lazy shared by both fields. */
function sharedLazyTree(depth = DEPTH): Lazy<Pair> {
  let t: unknown = now(0);
  for (let i = 0; i < depth; i++) t = now({ l: t, r: t });
  return t as Lazy<Pair>;
}

type Tree = { tag: 'Leaf'; x: Lazy<number> } | { tag: 'Node'; left: Tree; right: Tree };
const Tree: DataShape<Tree> = data<Tree>('Tree', (T) => ({ Leaf: { x: lazyOf(number) }, Node: { left: T, right: T } }));

/** A tree of a declared type with strict fields, sharing each level's subtree, over a leaf with a lazy number. */
function sharedData(x: Lazy<number>, depth = DEPTH): Tree {
  let t: Tree = Tree.make.Leaf({ x });
  for (let i = 0; i < depth; i++) t = Tree.make.Node({ left: t, right: t });
  return t;
}

/** The leftmost leaf of a value of {@link sharedTree}. */
function leftmost(t: unknown): unknown {
  let v = t;
  while (typeof v === 'object' && v !== null && 'l' in v) v = (v as Pair).l;
  return v;
}

test('a copy of shared strict structure is made once per object: a function that ignores it is observed at once, and its copy shares as the input does', HANG, () => {
  const t = sharedTree(0);
  const [copy, demand] = entangle(t);
  assert.equal(copy.l, copy.r, 'the copy shares as the original does');
  assert.notEqual(copy, t);
  assert.equal(demandSize(demand()), unfolded(1));
  const o = observe(whnf, (_t: Pair) => 1, t);
  assert.equal(demandSize(o.inputs[0]!), unfolded(1));
  const declared = observeDetailed(whnf, (_t: Tree) => 1, [sharedData(now(1))], { inputs: [Tree], names: ['t'] });
  assert.equal(declared.error, undefined);
  assert.equal(demandSize(declared.inputs[0]!), unfolded(1)); // the leaf's number is not forced
});

test('a thunk inside an object that strict fields share, forced through one path, is forced at every path to it: its demand is one node, printed at each place', HANG, () => {
  // Each field holding a Lazy has a wrapper of its own: the leftmost is forced, not its sibling
  // that holds the same Lazy; but the object holding both is shared, so the demand on it is too.
  const o = observe(whnf, (t: Pair) => (leftmost(t) as Lazy<number>).force(), sharedTree(lazy(() => 7), 2));
  assert.equal(prettyDemand(o.inputs[0]!), '{ l: { l: 7, r: _ }, r: { l: 7, r: _ } }');
  const declared = observeDetailed(whnf, (t: Tree) => (t.tag === 'Node' && t.left.tag === 'Node' && t.left.left.tag === 'Leaf' ? t.left.left.x.force() : 0), [sharedData(lazy(() => 7), 2)], { inputs: [Tree], names: ['t'] });
  assert.equal(prettyDemand(declared.inputs[0]!), 'Node (Node (Leaf 7) (Leaf 7)) (Node (Leaf 7) (Leaf 7))');
  // At 40 levels, as fast.
  const deep = observe(whnf, (t: Pair) => (leftmost(t) as Lazy<number>).force(), sharedTree(lazy(() => 7)));
  assert.equal(demandSize(deep.inputs[0]!), unfolded(0) + 2 ** (DEPTH - 1)); // 7 at every other leaf
});

test('observing a function that returns shared strict structure as its result costs its objects, in any context', HANG, () => {
  for (const context of [whnf, normalize]) {
    const o = observe(context, (t: Pair) => t, sharedTree(0));
    assert.equal(demandSize(o.result), unfolded(1));
    assert.equal(demandSize(o.inputs[0]!), unfolded(1));
  }
  const d = toDemand(sharedTree(0));
  assert.ok(demandEquals(observe(toContext(d), (t: Pair) => t, sharedTree(0)).result, d));
});

test('toDemand and evaluatedPart of shared structure cost its objects, strict or in evaluated Lazies', HANG, () => {
  assert.equal(demandSize(toDemand(sharedTree(0))), unfolded(1));
  assert.equal(demandSize(evaluatedPart(sharedTree(0))), unfolded(1));
  assert.equal(demandSize(toDemand(sharedLazyTree())), unfolded(1));
  assert.equal(demandSize(evaluatedPart(sharedLazyTree())), unfolded(1));
  assert.equal(demandSize(toDemand(sharedData(now(1)), Tree)), unfolded(2));
  // A list shared as the head and as the tail of the cell that holds it: [1], [[1], 1], …
  let xs: List<unknown> = fromArray([1]);
  for (let i = 0; i < DEPTH; i++) xs = cons(xs, xs);
  assert.equal(demandSize(toDemand(xs)), unfolded(3));
  assert.equal(demandSize(evaluatedPart(xs)), unfolded(3));
});

test('demands on shared structure compare and count in what they hold', HANG, () => {
  const a = toDemand(sharedTree(0));
  const b = toDemand(sharedTree(0));
  const c = toDemand(sharedTree(thunk));
  assert.ok(demandEquals(a, b));
  assert.ok(lessDefined(a, b));
  assert.ok(!demandEquals(a, c));
  assert.ok(lessDefined(c, a));
  assert.ok(!lessDefined(a, c));
  assert.equal(demandSize(a), unfolded(1));
});

test('fromDemand of a demand on shared structure builds each shared node once, its value shared alike', HANG, () => {
  const d = toDemand(sharedTree(0));
  const v = fromDemand<Pair>(d);
  assert.equal(leftmost(v), 0);
  assert.ok(demandEquals(toDemand(v), d));
  const lazyTree = toDemand(sharedLazyTree());
  assert.ok(demandEquals(toDemand(fromDemand(lazyTree)), lazyTree));
  const declared = toDemand(sharedData(now(1)), Tree);
  assert.ok(demandEquals(toDemand(fromDemand(declared, Tree), Tree), declared));
});

test('a demand on shared structure prints as it unfolds, cut to its width, in time bounded by the width', HANG, () => {
  const d = toDemand(sharedTree(0));
  const text = prettyDemand(d, { maxWidth: 60 });
  // Its end is the closing braces of the 40 levels.
  assert.equal(text, '{ l: { l: { l: { l: { l: { … } } } } } } } } } } } } } } }');
  assert.equal(prettyDemand(toDemand(sharedTree(0, 2))), '{ l: { l: 0, r: 0 }, r: { l: 0, r: 0 } }');
  assert.match(String(d), /^\{ l: \{ l: .* \} \}$/);
  assert.match(prettyValue(sharedLazyTree()), /^\{ l: \{ l: .*…/);
});

test('a check whose function never looks at a shared input passes, and one that walks all its paths is stopped by the force budget', HANG, () => {
  const input = sharedLazyTree();
  const shape = dynamic as Shape<Lazy<Pair>>;
  const ignoring = spec([withArbitrary(fc.constant(input), shape)], dynamic, (predict) => predict(thunk));
  assert.equal(checkSpec(ignoring as never, (_t: unknown) => 1, { trials: 5, seed: 1 }).passed, true);
  const strict = sharedTree(0);
  const whole = spec([withArbitrary(fc.constant(strict), dynamic as Shape<Pair>)], dynamic, (predict, _d, t) => predict(t as Pair));
  assert.equal(checkSpec(whole as never, (_t: unknown) => 1, { trials: 5, seed: 1 }).passed, true);
  // Every path forced: 2^40 of them.
  const walk = (t: unknown): number => {
    let n = 0;
    const stack = [t];
    while (stack.length > 0) {
      let v = stack.pop();
      while (v instanceof Lazy) v = v.force();
      if (typeof v === 'object' && v !== null) stack.push((v as Pair).l, (v as Pair).r);
      else n++;
    }
    return n;
  };
  // A budget of 10,000 forces: the demand the report prints is the same (the 41 shared nodes, each forced at once), at a hundredth of the walk.
  const r = checkSpec(ignoring as never, walk, { trials: 5, seed: 1, maxShrinkAttempts: 3, forceBudget: 10_000 });
  assert.equal(r.passed, false);
  assert.match(r.message, /probably diverges/);
});
