/**
 * What a person sees of a failure: an uncaught one prints its diagram, how to replay it and where
 * it was thrown, not the internals of its result, which a program still reads off the error.
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExhaustiveCheckFailure, StrictCheckFailure, assertSpecExhaustive, strictCheckSpecExact } from '../src/index.ts';
import { takePrime, takeSpec } from '../examples/take.ts';
import { runFixture } from './fixtures/run-fixture.ts';

/** What node prints when the script dies of its uncaught failure. */
function uncaught(mode: string): string {
  const r = runFixture('uncaught-failure.ts', [mode]);
  assert.equal(r.status, 1, r.stderr);
  return r.stderr;
}

for (const [mode, name] of [['random', 'StrictCheckFailure'], ['exhaustive', 'ExhaustiveCheckFailure']] as const) {
  test(`an uncaught ${name} prints its diagram and how to reproduce it, not its result's fields`, () => {
    const printed = uncaught(mode);
    assert.match(printed, new RegExp(`${name}: Failed`));
    assert.match(printed, /Actual input demands/);
    assert.match(printed, /Reproduce with/);
    assert.doesNotMatch(printed, /counterexample|passed: false|Lazy \{/);
  });
}

test('a failure still carries its result for programs, as a property that is not enumerable', () => {
  for (const err of [caught(() => strictCheckSpecExact(takeSpec, takePrime, { seed: 42 })), caught(() => assertSpecExhaustive(takeSpec, takePrime, { depth: 2 }))]) {
    assert.ok(err instanceof StrictCheckFailure || err instanceof ExhaustiveCheckFailure);
    assert.equal(err.result.passed, false);
    assert.ok(err.result.counterexample);
    assert.ok(!Object.keys(err).includes('result'));
  }
});

function caught(body: () => unknown): unknown {
  try {
    body();
  } catch (err) {
    return err;
  }
  assert.fail('expected a failure');
}
