/**
 * Whom a force budget that ran out blames: the function, where it forced that much itself before
 * it returned, or under the default budget, which is scaled to its inputs; where a budget the user
 * set ran out while the context forced the result, the report says so and to raise the budget, not
 * that the function diverges.
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSpec, checkSpecExhaustive } from '../src/checks.ts';
import { list } from '../src/demand/lazy-positions.ts';
import { number } from '../src/demand/primitives.ts';
import { spec } from '../src/spec/spec.ts';
import type { List } from '../src/lazy/list.ts';

const numbers = list(number);
const identitySpec = spec([numbers], numbers, (predict, d) => predict(d));
const identity = (xs: List<number>): List<number> => xs;

test('the identity under forceBudget 5 is not said to diverge: the budget ran out while the context forced its result, and the report says to raise forceBudget', { timeout: 60_000 }, () => {
  for (const r of [checkSpec(identitySpec, identity, { forceBudget: 5, seed: 1 }), checkSpecExhaustive(identitySpec, identity, { forceBudget: 5, depth: 4 })]) {
    assert.equal(r.passed, false, r.message);
    assert.doesNotMatch(r.message, /probably diverges/);
    assert.match(r.message, /^Failed: the force budget ran out while the context forced the result/);
    assert.match(r.message, /\nThe force budget ran out: the context forced the result to \S.*, which made more than 5 forces of thunks and pulls of iterators: raise forceBudget/);
  }
});
