/**
 * The iterable combinators over sources whose elements have lazy parts (`iterable(list(number))`,
 * `iterable(lazyOf(number))`): an element is delivered with its pull, and what of it is
 * evaluated is what the consumer forced. `pulledAsResult`, its result's pulls the source's, says
 * each element is demanded as the result's element at its place, not whole.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { number } from '../src/demand/primitives.ts';
import { lazyOf, list } from '../src/demand/lazy-positions.ts';
import { toDemand } from '../src/demand/convert.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { now, thunk } from '../src/lazy/lazy.ts';
import { Cons, NIL, type List } from '../src/lazy/cell.ts';
import { toArray } from '../src/lazy/list.ts';
import { specOf } from '../src/spec/combinators.ts';
import { checkSpec } from '../src/checks.ts';
import { iterable, pulls } from '../src/iter/index.ts';

const lists = iterable(list(number));
const lazies = iterable(lazyOf(number));

/** A pass-through: each element of its source, as it is, as far as its consumer pulls. */
function* passOn<T>(xs: Iterable<T>): Generator<T> {
  for (const x of xs) yield x;
}

describe('pulledAsResult over elements with lazy parts', () => {
  test('predicts each element pulled as the result demanded it, not whole', () => {
    const s = specOf([lists], lists, ({ pulledAsResult }) => [pulledAsResult()]);
    // the result's first element forced to its first cell, its head not; the source [[1, 2]]
    const d = pulls([now(new Cons(thunk, thunk))], 'open');
    let predicted: unknown;
    s.body((p) => (predicted = p), d as never, [now(new Cons(now(1), now(new Cons(now(2), now(NIL)))))]);
    assert.equal(prettyDemand(toDemand(predicted as never, lists)), '(_ : _) : _');
  });

  test('a correct pass-through passes over lists and lazy numbers, exactly', () => {
    const overLists = specOf([lists], lists, ({ pulledAsResult }) => [pulledAsResult()]);
    const r = checkSpec(overLists, passOn, { trials: 300, seed: 1 });
    assert.equal(r.passed, true, r.message);
    const overLazies = specOf([lazies], lazies, ({ pulledAsResult }) => [pulledAsResult()]);
    const z = checkSpec(overLazies, passOn, { trials: 300, seed: 1 });
    assert.equal(z.passed, true, z.message);
  });

  test('a pass-through that evaluates each element whole before passing it on fails', () => {
    function* passEvaluated(xs: Iterable<List<number>>): Generator<List<number>> {
      for (const x of xs) {
        toArray(x);
        yield x;
      }
    }
    const r = checkSpec(specOf([lists], lists, ({ pulledAsResult }) => [pulledAsResult()]), passEvaluated, { trials: 300, seed: 1 });
    assert.equal(r.passed, false, r.message);
  });
});
