/**
 * One strictness case inside a property of your own (assertStrictCase), and cases you write
 * yourself (strictExample), for fast-check's examples.
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { assertStrictCase, nil, now, strictCases, strictExample, strictProperty, fromArray } from '../src/index.ts';
import { take, takePrime, takeSpec } from '../examples/take.ts';

test('assertStrictCase checks one case inside fc.property: a correct function passes, a wrong one fails with the diagram', () => {
  fc.assert(fc.property(strictCases(takeSpec, take), fc.nat(3), (c, k) => {
    assertStrictCase(takeSpec, take, c);
    return k >= 0;
  }), { seed: 1 });
  const r = fc.check(fc.property(strictCases(takeSpec, takePrime), (c) => assertStrictCase(takeSpec, takePrime, c)), { seed: 1 });
  assert.equal(r.failed, true);
  assert.match(String(r.errorInstance), /strictness check failed:\nFailed: the spec does not match the function[^]*Actual input demands/);
});

test('a case written as an example prints its inputs, its result demand and its diagram, and is tried first', () => {
  const example = strictExample(takeSpec, takePrime, [now(0), nil], nil);
  assert.match(String(example), /^inputs 0, \[\]; result demand \[\]\nFailed: the spec does not match the function[^]*Actual input demands/);
  const r = fc.check(strictProperty(takeSpec, takePrime), { examples: [[example]], seed: 5 });
  assert.equal(r.failed, true);
  assert.equal(r.numRuns, 1, 'the example failed first');
  assert.match(fc.defaultReportMessage(r) ?? '', /Counterexample: \[inputs 0, \[\]; result demand \[\]\n/);
  assert.throws(() => assertStrictCase(takeSpec, takePrime, example), /Actual input demands/);
  assertStrictCase(takeSpec, take, strictExample(takeSpec, take, [now(2), fromArray([1, 2, 3])], fromArray([1, 2])));
});
