import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  cons, demandEquals, fromArray, fromDemand, glb, lazyOf, lessDefined, list, lub, nil, now, number, prettyDemand, thunk, toDemand, List,
  type Demand, type Lazy,
} from '../src/index.ts';
import { Tree } from './fixtures/shapes.ts';

const trees = lazyOf(Tree);
const tree = (t: Lazy<Tree>) => toDemand(t, trees);
const numbers = (l: List.List<number>) => toDemand(l, list(number));
const pd = (d: Demand | undefined) => (d === undefined ? 'none' : prettyDemand(d));
/** Equal, both undefined (no bound) included. */
const same = (a: Demand | undefined, b: Demand | undefined) => (a === undefined || b === undefined ? a === b : demandEquals(a, b));

const leaf = (): Lazy<Tree> => now(Tree.make.Leaf());
const node = (left: Lazy<Tree>, value: number, right: Lazy<Tree>): Lazy<Tree> => now(Tree.make.Node({ left, value, right }));

// ---------------------------------------------------------------------------------------------
// Examples

test('lub joins what two demands evaluate, and is undefined for different constructors', () => {
  assert.equal(pd(lub(numbers(cons(1, thunk)), numbers(cons(thunk, cons(2, thunk))))), '1 : 2 : _');
  assert.equal(pd(lub(numbers(thunk), numbers(cons(thunk, nil)))), '_ : []');
  assert.equal(pd(lub(numbers(nil), numbers(cons(thunk, thunk)))), 'none', '[] and _ : _ have no upper bound');
  assert.equal(pd(lub(numbers(cons(1, thunk)), numbers(cons(2, thunk)))), 'none', '1 : _ and 2 : _ neither');
  assert.equal(pd(lub(tree(node(leaf(), 1, thunk)), tree(node(thunk, 1, leaf())))), 'Node Leaf 1 Leaf');
});

test('glb keeps what both demands evaluate alike; where they differ, the nearest position that may be unevaluated is', () => {
  assert.equal(pd(glb(numbers(fromArray([1, 2])), numbers(cons(1, cons(3, thunk))))), '1 : _ : _');
  assert.equal(pd(glb(numbers(nil), numbers(cons(thunk, thunk)))), '_');
  assert.equal(pd(glb(tree(node(leaf(), 1, leaf())), tree(node(leaf(), 1, thunk)))), 'Node Leaf 1 _');
  // value is a strict field: a Node is never evaluated without it, so Node Leaf 1 _ and Node Leaf 2 _ share only _
  assert.equal(pd(glb(tree(node(leaf(), 1, thunk)), tree(node(leaf(), 2, thunk)))), '_');
  assert.equal(pd(glb(tree(node(node(leaf(), 1, thunk), 0, leaf())), tree(node(node(leaf(), 2, thunk), 0, thunk)))), 'Node _ 0 _');
});

test('lub and glb walk demands on lists of 30,000 cells without overflowing the stack', { timeout: 60_000 }, () => {
  const n = 30_000; // twice the deepest a recursion of one frame a level goes on the default stack (15,400 frames): a recursive walk overflows
  const spine = numbers(List.fromLazyArray(Array.from({ length: n }, () => thunk)));
  const elements = numbers(List.append(List.replicate(n, 7), thunk));
  const joined = lub(spine, elements)!;
  assert.equal(List.length(List.cap(fromDemand(joined, list(number)))), n);
  assert.ok(lessDefined(spine, joined) && lessDefined(elements, joined) && !demandEquals(joined, spine));
  const met = glb(spine, elements)!;
  assert.ok(lessDefined(met, spine) && lessDefined(met, elements));
  assert.equal(List.numCtrForced(fromDemand(met, list(number))), n);
});

// ---------------------------------------------------------------------------------------------
// Laws, on random demands on trees (lazy subtrees, a strict number at each node: values 0 and 1, so that demands often agree)

const { lazyTree } = fc.letrec<{ tree: Lazy<Tree>; lazyTree: Lazy<Tree> }>((tie) => ({
  tree: fc.oneof({ depthSize: 'small' }, fc.constant(null).map(leaf), fc.tuple(tie('lazyTree'), fc.integer({ min: 0, max: 1 }), tie('lazyTree')).map(([l, v, r]) => node(l, v, r))),
  lazyTree: fc.oneof({ depthSize: 'small' }, fc.constant<Lazy<Tree>>(thunk), tie('tree')),
}));
const demands = lazyTree.map(tree);

/** `t` with some evaluated subtrees cut (each lazy position kept or cut by the next bit): a demand below `t`. */
function restrict(t: Lazy<Tree>, bits: boolean[], at = { i: 0 }): Lazy<Tree> {
  if (t === thunk || !bits[at.i++ % bits.length]) return thunk;
  const v = t.force();
  return v.tag === 'Leaf' ? leaf() : node(restrict(v.left, bits, at), v.value, restrict(v.right, bits, at));
}
/** `t` with its unevaluated subtrees filled from `fills` in turn: a demand above `t`. */
function extend(t: Lazy<Tree>, fills: Lazy<Tree>[], at = { i: 0 }): Lazy<Tree> {
  if (t === thunk) return fills[at.i++ % fills.length]!;
  const v = t.force();
  return v.tag === 'Leaf' ? leaf() : node(extend(v.left, fills, at), v.value, extend(v.right, fills, at));
}
const bits = fc.array(fc.boolean(), { minLength: 1, maxLength: 20 });
const fills = fc.array(lazyTree, { minLength: 1, maxLength: 5 });
/** A demand a check can hold: its value form converts back (no strict field left unevaluated). */
const valid = (d: Demand) => demandEquals(toDemand(fromDemand(d, trees), trees), d);

test('lub is an upper bound of both demands, and below every other upper bound: defined whenever one exists', () => {
  fc.assert(
    fc.property(demands, demands, (a, b) => {
      const j = lub(a, b);
      return j === undefined || (lessDefined(a, j) && lessDefined(b, j) && valid(j));
    }),
  );
  fc.assert(
    fc.property(lazyTree, bits, bits, (c, b1, b2) => {
      const j = lub(tree(restrict(c, b1)), tree(restrict(c, b2)));
      return j !== undefined && lessDefined(j, tree(c));
    }),
  );
});

test('glb is a lower bound of both demands, above every other lower bound, and a demand a check can hold', () => {
  fc.assert(
    fc.property(demands, demands, (a, b) => {
      const m = glb(a, b)!;
      return lessDefined(m, a) && lessDefined(m, b) && valid(m);
    }),
  );
  fc.assert(fc.property(lazyTree, fills, fills, (c, f1, f2) => lessDefined(tree(c), glb(tree(extend(c, f1)), tree(extend(c, f2)))!)));
});

test('lub and glb are commutative, associative and idempotent, and absorb each other (where lub is defined)', () => {
  fc.assert(
    fc.property(demands, demands, demands, (a, b, c) => {
      const lub3 = (x: Demand | undefined, y: Demand | undefined) => (x === undefined || y === undefined ? undefined : lub(x, y));
      assert.ok(same(lub(a, b), lub(b, a)) && same(glb(a, b), glb(b, a)), 'commutative');
      assert.ok(same(lub3(lub(a, b), c), lub3(a, lub(b, c))), 'lub associative');
      assert.ok(same(glb(glb(a, b)!, c), glb(a, glb(b, c)!)), 'glb associative');
      assert.ok(same(lub(a, a), a) && same(glb(a, a), a), 'idempotent');
      const j = lub(a, b);
      assert.ok(same(lub(a, glb(a, b)!), a) && (j === undefined || same(glb(a, j), a)), 'absorption');
    }),
  );
});
