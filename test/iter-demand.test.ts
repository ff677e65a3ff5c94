/**
 * Demands on iterables: the list notation of pulls with the protocol's events at the end of an
 * iteration (`return()`, `throw()`, `⊥`), their value form for specs, printing and comparison.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { thunk } from '../src/lazy/lazy.ts';
import { number } from '../src/demand/primitives.ts';
import { demandEquals, lessDefined } from '../src/demand/demand.ts';
import { fromDemand, toDemand } from '../src/demand/convert.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { closedAfter, endOf, iterable, iterations, iterator, pullCount, pulls, untouched } from '../src/iter/index.ts';

const xs = iterable(number);
const d = (text: Parameters<typeof pulls>[1], ...elements: number[]) => toDemand(pulls(elements, text), xs);

describe('the demand on an iterable', () => {
  test('prints its pulls in the list notation, with how the iteration ended', () => {
    assert.equal(prettyDemand(d('open', 1, 2)), '1 : 2 : _');
    assert.equal(prettyDemand(d('done', 1, 2)), '1 : 2 : []');
    assert.equal(prettyDemand(d('return', 1, 2)), '1 : 2 : return()');
    assert.equal(prettyDemand(d('throw')), 'throw()');
    assert.equal(prettyDemand(d('threw', 7)), '7 : ⊥');
    assert.equal(prettyDemand(toDemand(untouched, xs)), '_');
  });

  test('of several iterations of one source prints each', () => {
    const two = toDemand(iterations(pulls([1], 'open'), pulls([1, 2], 'done')), xs);
    assert.equal(prettyDemand(two), 'Iterations (1 : _) (1 : 2 : [])');
  });

  test('comes back to the same value form from its explicit form', () => {
    const back = fromDemand(d('return', 1, 2), xs);
    assert.equal(pullCount(back), 2);
    assert.equal(endOf(back), 'return');
    assert.ok(demandEquals(toDemand(back, xs), d('return', 1, 2)));
    assert.equal(endOf(fromDemand(d('open'), xs)), 'open');
  });

  test('closedAfter keeps the pulls and closes after them', () => {
    assert.equal(prettyDemand(toDemand(closedAfter(pulls([1, 2], 'done')), xs)), '1 : 2 : return()');
    assert.equal(prettyDemand(toDemand(closedAfter(pulls([1], 'open')), iterator(number))), '1 : return()');
  });

  test('is less defined when it pulls no more and closes no later', () => {
    assert.ok(lessDefined(d('return', 1), d('return', 1, 2)), 'closing earlier');
    assert.ok(lessDefined(d('return', 1), d('open', 1)), 'closing where the other never closes');
    assert.ok(lessDefined(d('open', 1), d('done', 1)));
    assert.ok(!lessDefined(d('open', 1), d('return', 1)), 'never closing is later than closing');
    assert.ok(!lessDefined(d('open', 1, 2), d('return', 1)), 'pulling more');
    assert.ok(!lessDefined(d('return', 1, 2), d('return', 1)), 'closing later');
    assert.ok(!demandEquals(d('return', 1), d('throw', 1)));
    assert.ok(demandEquals(d('return', 1), d('return', 1)));
    assert.ok(lessDefined(toDemand(thunk, xs), d('open', 1)));
    assert.ok(lessDefined(toDemand(thunk, xs), d('return')), 'a re-iterable source never iterated has nothing to close');
    assert.ok(!lessDefined(toDemand(untouched, iterator(number)), toDemand(pulls([], 'return'), iterator(number))), 'an iterator, given open, left open counts as left open');
  });
});
