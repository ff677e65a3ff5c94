/**
 * The order of demands on iterables, "pulls no more and closes no later": an iteration left open
 * (`_`) never closes, so it is below a demand only where that demand does not end in a
 * consumer's close, however many pulls come before it. So `noStricter` fails a function that
 * pulls less than an upper-bound spec and never closes its source, and passes one that pulls less
 * and closes. The order stays a partial order, and lub and glb stay its bounds.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { number } from '../src/demand/primitives.ts';
import { lessDefined, demandEquals, type Demand } from '../src/demand/demand.ts';
import { glb, lub } from '../src/demand/lattice.ts';
import { fromDemand, toDemand } from '../src/demand/convert.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { spec } from '../src/spec/spec.ts';
import { checkSpec } from '../src/checks.ts';
import { checkSpecAsync } from '../src/async-checks.ts';
import { closedAfter, endOf, iterable, iterations, iterator, pullCount, pulls, sourcePrefix, taken, untouched, type IterationEnd } from '../src/iter/index.ts';
import type { Shape } from '../src/demand/shape-types.ts';
import { asyncNumbers, mergeSpec } from '../examples/iterators/merge.ts';

const numbers = iterable(number);
const nested = iterable(iterable(number));
const d = (xs: readonly number[], end: IterationEnd) => toDemand(pulls(xs, end), numbers);
/** On a one-shot iterator, given to the function open: `_` there is an iteration left open. */
const once = (xs: readonly number[], end: IterationEnd) => toDemand(pulls(xs, end), iterator(number));
const below = (a: Demand, b: Demand) => lessDefined(a, b);

describe('the order of demands on iterables', () => {
  test('an iteration left open is below one pulled further only where that one is not closed by its consumer', () => {
    assert.equal(below(d([1], 'open'), d([1, 2], 'return')), false);
    assert.equal(below(once([], 'open'), once([1], 'return')), false, '_ is not below 1 : return(), as it is not below return()');
    assert.equal(below(once([], 'open'), once([1], 'throw')), false);
    assert.equal(below(once([], 'open'), once([], 'return')), false);
    // a re-iterable source never iterated has nothing to close (test/iter-unbegun-sources.test.ts)
    assert.equal(below(d([], 'open'), d([1], 'return')), true);
    // ended by the source, or left open too: below
    assert.equal(below(d([1], 'open'), d([1, 2], 'done')), true);
    assert.equal(below(d([1], 'open'), d([1, 2], 'threw')), true);
    assert.equal(below(d([1], 'open'), d([1, 2], 'open')), true);
    assert.equal(below(d([], 'open'), d([], 'done')), true);
  });

  test('closing earlier is below pulling further, and return() and throw() are not below each other', () => {
    assert.equal(below(d([1], 'return'), d([1, 2], 'return')), true);
    assert.equal(below(d([1], 'return'), d([1], 'open')), true);
    assert.equal(below(d([1], 'open'), d([1], 'return')), false);
    assert.equal(below(d([1], 'return'), d([1], 'throw')), false, 'two closes at one place: neither is below the other');
    assert.equal(below(d([1], 'throw'), d([1], 'return')), false);
  });

  test('nested and repeated iterations: none begun is below any iterations; an element never pulled is no iteration left open', () => {
    assert.equal(lessDefined(toDemand(untouched, numbers), toDemand(iterations(pulls([1], 'open'), pulls([], 'return')), numbers)), true);
    assert.equal(lessDefined(toDemand(untouched, numbers), toDemand(iterations(pulls([1], 'open'), pulls([], 'done')), numbers)), true);
    // an element never pulled leaves nothing open: only the iteration it is pulled from counts
    const inner = (xs: readonly number[], end: IterationEnd) => pulls(xs, end);
    // the outer source is left open where the spec pulls one element more, closes it, then sees the end
    assert.equal(lessDefined(toDemand(pulls([inner([1], 'return')], 'open'), nested), toDemand(pulls([inner([1], 'return'), inner([], 'return')], 'done'), nested)), true);
    // an element pulled and left open, where the spec closes it: an iterator given open; a re-iterable one never iterated closes nothing
    const iterators = iterable(iterator(number));
    assert.equal(lessDefined(toDemand(pulls([untouched], 'done'), iterators), toDemand(pulls([inner([], 'return')], 'done'), iterators)), false);
    assert.equal(lessDefined(toDemand(pulls([untouched], 'done'), nested), toDemand(pulls([inner([], 'return')], 'done'), nested)), true);
  });
});

/**
 * Random demands on iterations of iterables of numbers (elements 0 and 1, so that they often
 * agree), the outer and inner ones each re-iterable (`reiterable`) or one-shot: a re-iterable one
 * not iterated or its iterator taken and left now and then, and a second iteration, the first of
 * them begun or not.
 */
const ends = fc.constantFrom<IterationEnd>('open', 'done', 'return', 'throw', 'threw');
const demandsOf = (outerReiterable: boolean, innerReiterable: boolean) => {
  const pulled = fc.tuple(fc.array(fc.integer({ min: 0, max: 1 }), { maxLength: 3 }), ends).map(([xs, end]) => pulls(xs, end));
  // A re-iterable one: not begun (untouched), or its iterator taken and left (taken), now and then.
  const unpulled = fc.constantFrom(untouched, taken);
  const iteration = innerReiterable ? fc.oneof(pulled, unpulled) : pulled;
  const outer = fc.tuple(fc.array(iteration, { maxLength: 3 }), ends).map(([xs, end]) => pulls(xs, end));
  const inner: Shape<any> = innerReiterable ? iterable(number) : iterator(number);
  const shape: Shape<any> = outerReiterable ? iterable(inner) : iterator(inner);
  const several = fc.tuple(fc.oneof(outer, unpulled), outer).map(([a, b]) => iterations(a, b));
  return (outerReiterable ? fc.oneof(outer, several, unpulled) : outer).map((v) => toDemand(v, shape));
};
const KINDS = [
  ['iterables of iterables', demandsOf(true, true)],
  ['iterators of iterators', demandsOf(false, false)],
  ['iterables of iterators', demandsOf(true, false)],
  ['iterators of iterables', demandsOf(false, true)],
] as const;
const pd = (x: Demand | undefined) => (x === undefined ? 'none' : prettyDemand(x));
/** Asserts `ok`, its message made only where it fails: one given to assert.ok is made on every run, printing up to four demands each time. */
const holds = (ok: boolean, message: () => string) => {
  if (!ok) assert.fail(message());
};

for (const [kind, demands] of KINDS)
describe(`laws of the order on random demands on ${kind}`, () => {
  test('it is a partial order: reflexive, antisymmetric, transitive', () => {
    fc.assert(
      fc.property(demands, demands, demands, (a, b, c) => {
        holds(below(a, a), () => pd(a));
        if (below(a, b) && below(b, a)) holds(demandEquals(a, b), () => `${pd(a)} and ${pd(b)}`);
        if (below(a, b) && below(b, c)) holds(below(a, c), () => `${pd(a)} ⊑ ${pd(b)} ⊑ ${pd(c)}`);
      }),
      { numRuns: 1500 },
    );
  });

  test('lub is an upper bound of both, below every upper bound among the demands tried; defined where one is below the other', () => {
    fc.assert(
      fc.property(demands, demands, demands, (a, b, c) => {
        const j = lub(a, b);
        if (j === undefined) return;
        holds(below(a, j) && below(b, j), () => `lub(${pd(a)}, ${pd(b)}) = ${pd(j)}`);
        if (below(a, c) && below(b, c)) holds(below(j, c), () => `lub(${pd(a)}, ${pd(b)}) = ${pd(j)}, not below ${pd(c)}`);
      }),
      { numRuns: 1500 },
    );
    // a pair and its upper bound, to meet one often
    fc.assert(
      fc.property(demands, demands, (a, b) => {
        const j = lub(a, b);
        holds(j !== undefined || !below(a, b), () => `lub(${pd(a)}, ${pd(b)}) is none, yet the first is below the second`);
        if (below(a, b)) holds(demandEquals(j!, b), () => `lub(${pd(a)}, ${pd(b)}) = ${pd(j)}`);
      }),
      { numRuns: 1500 },
    );
  });

  test('glb is a lower bound of both, above every lower bound among the demands tried; undefined only where no greatest is', () => {
    fc.assert(
      fc.property(demands, demands, demands, (a, b, c) => {
        const m = glb(a, b);
        if (m !== undefined) {
          holds(below(m, a) && below(m, b), () => `glb(${pd(a)}, ${pd(b)}) = ${pd(m)}`);
          if (below(c, a) && below(c, b)) holds(below(c, m), () => `glb(${pd(a)}, ${pd(b)}) = ${pd(m)}, ${pd(c)} is a lower bound not below it`);
        }
        if (below(a, b)) holds(m !== undefined && demandEquals(m, a), () => `glb(${pd(a)}, ${pd(b)}) = ${pd(m)}`);
      }),
      { numRuns: 1500 },
    );
  });

});

describe('the bounds of the order', () => {
  test('examples of the bounds: an open tail against a closed one, two closes', () => {
    assert.equal(pd(lub(once([], 'open'), once([1], 'return'))), '1 : _');
    assert.equal(pd(lub(d([], 'open'), d([1], 'return'))), '1 : return()', 'a re-iterable source never iterated is below it');
    assert.equal(pd(lub(d([1], 'return'), d([1, 2], 'done'))), '1 : 2 : []');
    assert.equal(pd(lub(once([], 'return'), once([], 'throw'))), 'none', '_ and 1 : return() are above both, and neither is below the other');
    assert.equal(pd(lub(d([], 'return'), d([], 'throw'))), 'none', 'a re-iterable source: 1 : return() and 1 : throw() are');
    assert.equal(pd(glb(d([], 'return'), d([], 'throw'))), '_');
    assert.equal(pd(glb(d([1], 'return'), d([1, 2], 'return'))), '1 : return()');
    assert.equal(pd(glb(d([1], 'return'), d([1], 'open'))), '1 : return()');
    assert.equal(pd(glb(d([1], 'open'), d([1, 2], 'done'))), '1 : _');
    assert.equal(pd(glb(d([1], 'open'), d([1, 2], 'return'))), 'none', 'return() and throw() after 1 are both below the two: no greatest');
  });
});

/**
 * An upper bound on a pass-through: at most one pull more than the result's, then the source
 * closed where the result is (left open where it is); untouched by a result not pulled (a
 * generator closed before it starts runs nothing).
 */
const passThroughBound = spec([numbers], numbers, (predict, r, xs) => {
  const k = pullCount(r);
  const end = endOf(r);
  if (k === 0 && end !== 'done' && end !== 'threw') return predict(untouched);
  const read = sourcePrefix(xs, end === 'done' || end === 'threw' ? Infinity : k + 1);
  if (read.then !== 'more') return predict(pulls(read.values, read.then === 'threw' ? 'threw' : 'done'));
  predict(end === 'open' ? pulls(read.values, 'open') : closedAfter(pulls(read.values, 'open'), xs));
});

/** A pass-through pulling by hand: it never closes its source when its own consumer stops. */
function* passLeaving(it: Iterable<number>): Generator<number> {
  const i = it[Symbol.iterator]();
  for (let r = i.next(); !r.done; r = i.next()) yield r.value;
}

/** A pass-through with `for…of`, which closes its source when its consumer closes it. */
function* passClosing(it: Iterable<number>): Generator<number> {
  for (const x of it) yield x;
}

describe('noStricter over iterables', () => {
  test('a pass-through that never closes its source fails against an upper bound that closes one pull later, its counterexample showing the return() missing; one that closes passes', () => {
    const r = checkSpec(passThroughBound, passLeaving, { compare: 'noStricter', trials: 500, seed: 1 });
    assert.equal(r.passed, false, r.message);
    const [actual, predicted] = [prettyDemand(r.counterexample!.actual[0]!), prettyDemand(r.counterexample!.predicted[0]!)];
    assert.match(predicted, /return\(\)$/, r.message);
    assert.doesNotMatch(actual, /return\(\)/, r.message);
    assert.match(r.message, /return\(\)/);
    // one that pulls as little and closes its source passes
    const closing = checkSpec(passThroughBound, passClosing, { compare: 'noStricter', trials: 500, seed: 1 });
    assert.equal(closing.passed, true, closing.message);
  });

  test('a merge without its finally, pulling again only once its consumer asks, fails against the upper bound of the docs', { timeout: 60_000 }, async () => {
    /** One pull pending per source, made again only after the element it answered is taken: never more than the bound, never closed. */
    async function* mergeAfterYield(xs: AsyncIterable<number>, ys: AsyncIterable<number>): AsyncGenerator<number> {
      const its = [xs[Symbol.asyncIterator](), ys[Symbol.asyncIterator]()];
      const pending = new Map<number, Promise<{ i: number; r: IteratorResult<number> }>>();
      const pull = (i: number) => pending.set(i, its[i]!.next().then((r) => ({ i, r })));
      its.forEach((_, i) => pull(i));
      while (pending.size > 0) {
        const { i, r } = await Promise.race(pending.values());
        pending.delete(i);
        if (r.done) continue;
        yield r.value;
        pull(i);
      }
    }
    const r = await checkSpecAsync(mergeSpec, mergeAfterYield, { compare: 'noStricter', trials: 500, seed: 1 });
    assert.equal(r.passed, false, r.message);
    // shrunk to a source it pulled less than the bound and left open, where the bound closes it
    const { actual, predicted } = r.counterexample!;
    const read = (x: Demand) => fromDemand(x, asyncNumbers) as AsyncIterable<number>;
    const leftOpen = actual.some((a, i) => endOf(read(a)) === 'open' && endOf(read(predicted[i]!)) === 'return' && pullCount(read(a)) < pullCount(read(predicted[i]!)));
    assert.ok(leftOpen, r.message);
  });
});
