/**
 * A failure holds its result for programs, where a real test runner does not copy it: a runner
 * copies a thrown error's properties (vitest serialises them to send them between its processes,
 * jest copies them deeply), and a demand tens of thousands of pulls deep overflowed their stacks,
 * losing the diagram and the seed. The package test runs such a failure under vitest and jest
 * (test/fixtures/consumer/deep.mjs), from the installed package, as users do.
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertSpec, assertSpecExhaustive, CheckFailure, checkSpec, ExhaustiveCheckFailure, iterable, number, specOf, StrictCheckFailure } from '../src/index.ts';

const numbers = iterable(number);
const idSpec = specOf([numbers], numbers, ({ pulledAsResult }) => [pulledAsResult()]);
function* skipsOne(xs: Iterable<number>) {
  let first = true;
  for (const x of xs) if (!first) yield x; else first = false;
}

/** What `run` threw. */
function thrown<E>(run: () => void): E {
  try {
    run();
  } catch (e) {
    return e as E;
  }
  return assert.fail('a failing check passed');
}

test('a failure, random or exhaustive, holds its result for programs, but not as a property of its own, and turns to JSON as its name and message', () => {
  const result = checkSpec(idSpec, skipsOne, { seed: 1 });
  assert.equal(result.passed, false);
  const failure = thrown<StrictCheckFailure>(() => assertSpec(idSpec, skipsOne, { seed: 1 }));
  const exhaustive = thrown<ExhaustiveCheckFailure>(() => assertSpecExhaustive(idSpec, skipsOne, { depth: 2 }));
  assert.equal(failure.result.message, result.message);
  assert.equal(failure.result.counterexample?.inputs.length, 1);
  assert.equal(exhaustive.result.passed, false);
  for (const f of [failure, exhaustive]) {
    assert.ok(f instanceof CheckFailure);
    assert.ok(!Object.getOwnPropertyNames(f).includes('result'));
    assert.deepEqual(JSON.parse(JSON.stringify(f)), { name: f.name, message: f.result.message });
  }
});
