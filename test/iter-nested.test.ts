/**
 * Iterables nested in a result under random contexts: a random context consumes the inner
 * iterables of an iterable of iterables too, each as a random consumer does (pull k then leave
 * or close it, throw into it, pull it to its end), so that what a function does when an inner
 * one is closed is seen.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { number } from '../src/demand/primitives.ts';
import { thunk } from '../src/lazy/lazy.ts';
import { Cons } from '../src/lazy/cell.ts';
import { spec } from '../src/spec/spec.ts';
import { checkSpec } from '../src/checks.ts';
import { closedAfter, endOf, iterable, pulls, pullsOf, untouched, type AnyIterDemand } from '../src/iter/index.ts';
import { take, takePullsOneMore, takeSource, takeWithoutClosing } from '../examples/iterators/take.ts';
import { readSource } from '../examples/iterators/read-source.ts';

const numbers = iterable(number);
const nested = iterable(numbers);

/** For each inner iterable of `xss`, its first element, as an iterable (`take(1, xs)`), made by `take1`. */
const headsWith = (take1: (n: number, xs: Iterable<number>) => Iterable<number>) =>
  function* heads(xss: Iterable<Iterable<number>>): Generator<Iterable<number>> {
    for (const xs of xss) yield take1(1, xs);
  };

/** heads' spec: the outer source pulled as the result (closed where it is), each inner one as take 1's spec says of the result's. */
const headsSpec = spec([nested], nested, (predict, d, xss) => {
  const results: AnyIterDemand<number>[] = [];
  for (let c = pullsOf(d); c !== thunk; ) {
    const cell = c.force();
    if (!(cell instanceof Cons)) break;
    // An element's demand is at a lazy position: the inner iteration's demand is inside it.
    results.push((cell.head === thunk ? thunk : cell.head.force()) as unknown as AnyIterDemand<number>);
    c = cell.tail;
  }
  const sources = readSource(xss, results.length).values;
  const inner = results.map((r, i) => (r === (thunk as unknown) ? untouched : takeSource(r, 1, sources[i]!)));
  const end = endOf(d);
  if ((end === 'return' || end === 'throw') && inner.length === 0) return predict(untouched);
  const outer = pulls(inner, 'open');
  predict(end === 'return' || end === 'throw' ? closedAfter(outer, xss) : end === 'open' ? outer : pulls(inner, end));
});

/** A take that closes its source when it has taken `n`, but not when its consumer closes it first (no `finally`). */
function* takeClosingOnlyAtItsEnd(n: number, xs: Iterable<number>): Generator<number> {
  const it = xs[Symbol.iterator]();
  for (let i = 0; i < n; i++) {
    const r = it.next();
    if (r.done) return;
    yield r.value;
  }
  it.return?.();
}

describe('iterables nested in a result, under random contexts', () => {
  test('inner iterables are consumed as random consumers do, closed too: heads meets its spec, and an inner take closing its source only at its own end fails', () => {
    const r = checkSpec(headsSpec, headsWith(take), { trials: 300, seed: 1 });
    assert.equal(r.passed, true, r.message);
    assert.equal(checkSpec(headsSpec, headsWith(takePullsOneMore), { trials: 300, seed: 1 }).passed, false);
    assert.equal(checkSpec(headsSpec, headsWith(takeWithoutClosing), { trials: 300, seed: 1 }).passed, false);
    // Not shrunk: the verdict is the trial's (the 7th), and its 21 shrinks cost nearly all of this test.
    const closingAtItsEnd = checkSpec(headsSpec, headsWith(takeClosingOnlyAtItsEnd), { trials: 300, seed: 1, maxShrinkAttempts: 0 });
    assert.equal(closingAtItsEnd.passed, false, 'the context closed no inner iterable');
    assert.match(closingAtItsEnd.message, /return\(\)/);
  });
});
