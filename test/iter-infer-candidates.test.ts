/**
 * What `inferSpec` tries for an iterable argument makes sense of the function's arguments and
 * result: `pulledInLockstep`, a notion of several sources pulled in turn, only where there are
 * several; the combinators that read the result's pulls only where the result is an iterable;
 * and `pulledUntil` for a search, its match a comparison with a number argument or a predicate
 * argument.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { boolean, fn, number } from '../src/demand/primitives.ts';
import { iterable } from '../src/iter/index.ts';
import { inferSpec } from '../src/spec/infer.ts';
import { checkSpec } from '../src/checks.ts';

const numbers = iterable(number);
const finiteNumbers = iterable(number, { finite: true });

/** The elements of `xs` before its first negative one, which it pulls and then closes `xs`. */
function* takeWhileNonNegative(xs: Iterable<number>): Generator<number> {
  for (const x of xs) {
    if (x < 0) return;
    yield x;
  }
}

/** The first element of `xs` at least `k`, pulling until it finds it (then closing `xs`), or -1. */
function firstAtLeast(k: number, xs: Iterable<number>): number {
  for (const x of xs) if (x >= k) return x;
  return -1;
}

/** The first element of `xs` that `p` keeps, or -1. */
function find(p: (x: number) => boolean, xs: Iterable<number>): number {
  for (const x of xs) if (p(x)) return x;
  return -1;
}

// Depth 2 (the default is 4, to 3,000 cases): which candidates are tried, and which fits, shows there.
describe('the candidates inferSpec tries for an iterable argument', () => {
  test('a function of one source is not proposed pulledInLockstep, a notion of several sources', () => {
    const inferred = inferSpec([numbers], numbers, takeWhileNonNegative, { trials: 300, depth: 2 });
    for (const p of inferred.proposals) assert.doesNotMatch(p.code, /pulledInLockstep/, inferred.message);
    assert.doesNotMatch(inferred.message, /pulledInLockstep/);
  });

  test('a search through a source for an element at least a number argument is proposed pulledUntil, which then passes its check', () => {
    const inferred = inferSpec([number, finiteNumbers], number, firstAtLeast, { trials: 300, depth: 2 });
    assert.ok(inferred.proposals.length > 0, inferred.message);
    assert.match(inferred.proposals[0]!.code, /pulledUntil\(\(x, k\) => x >= k\)/, inferred.message);
    const r = checkSpec(inferred.proposals[0]!.spec, firstAtLeast, { trials: 300 });
    assert.equal(r.passed, true, r.message);
  });

  test('a search by a predicate argument fits pulledUntil with it (the predicate itself has no combinator over iterables)', () => {
    const inferred = inferSpec([fn([number], boolean), finiteNumbers], number, find, { trials: 300, depth: 2 });
    assert.match(inferred.message, /nothing predicts what find forces of p\b/);
    assert.doesNotMatch(inferred.message, /forces of xs/, 'pulledUntil((x, p) => p(x)) fits xs, where nothing did');
  });

  test('a function whose result is no iterable is not tried with what reads the result as one', () => {
    const inferred = inferSpec([number, finiteNumbers], number, (k: number, xs: Iterable<number>) => (k > 0 ? [...xs].length : 0), { trials: 200, depth: 2 });
    assert.doesNotMatch(inferred.message, /pulledAsResult|pulledInLockstep/, inferred.message);
  });
});
