/**
 * The checks users call (src/checks.ts): a throwing and a result-returning form of each mode,
 * named alike; the comparison of a call is the call's; the global configuration and the seed of
 * the environment fill in what a call does not give.
 * @module
 */
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertSpec, assertSpecExhaustive, checkSpec, checkSpecExhaustive, configureGlobal, ExhaustiveCheckFailure, readConfigureGlobal, resetConfigureGlobal,
  SEED_VARIABLE, StrictCheckFailure, strictCheckSpecExact,
} from '../src/index.ts';
import { take, takePrime, takeSpec, takeSpecFirstAttempt } from '../examples/take.ts';
import { takeCheck, takePrimeCheck } from './fixtures/checks.ts';

afterEach(() => {
  resetConfigureGlobal();
  delete process.env[SEED_VARIABLE];
});

test('checkSpec returns a failure as a result, and assertSpec throws the same report', () => {
  const result = checkSpec(takeSpec, takePrime, { seed: 42 });
  assert.equal(result.passed, false);
  assert.throws(() => assertSpec(takeSpec, takePrime, { seed: 42 }), (err: unknown) => err instanceof StrictCheckFailure && err.message === result.message);
  assert.equal(assertSpec(takeSpec, take, { seed: 42 }), undefined);
});

test('assertSpec honours the comparison of its call', () => {
  // take evaluates less than the paper's first attempt says (not the end of xs when n runs out first):
  // it fails exactly and noLazier, and passes noStricter.
  assert.throws(() => assertSpec(takeSpecFirstAttempt, take, { seed: 1 }), StrictCheckFailure);
  assert.throws(() => assertSpec(takeSpecFirstAttempt, take, { seed: 1, compare: 'noLazier' }), StrictCheckFailure);
  assertSpec(takeSpecFirstAttempt, take, { seed: 1, compare: 'noStricter' });
});

test('strictCheckSpecExact refuses a comparison given at run time, naming the check that takes one', () => {
  const options = { compare: 'noStricter' } as object;
  assert.throws(() => strictCheckSpecExact(takeSpecFirstAttempt, take, options), /strictCheckSpecExact compares exactly[^]*assertSpec\(spec, fn, \{ compare \}\)/);
});

test('checkSpecExhaustive returns a failure as a result, and assertSpecExhaustive throws it', () => {
  const result = checkSpecExhaustive(takeSpec, takePrime, { depth: 3 });
  assert.equal(result.passed, false);
  assert.throws(() => assertSpecExhaustive(takeSpec, takePrime, { depth: 3 }), (err: unknown) => err instanceof ExhaustiveCheckFailure && err.message === result.message);
  assertSpecExhaustive(takeSpec, take, { depth: 3 });
});

test('a defined check is checked from the check itself, always as a promise, in this thread unless workers are asked for', async () => {
  const run = assertSpec(takeCheck, { seed: 3 });
  assert.ok(run instanceof Promise);
  await run;
  await assert.rejects(assertSpec(takePrimeCheck, { seed: 42 }), StrictCheckFailure);
  assert.equal((await checkSpec(takePrimeCheck, { seed: 42 })).passed, false);
  await assert.rejects(assertSpecExhaustive(takePrimeCheck, { depth: 2 }), ExhaustiveCheckFailure);
});

test('the global configuration gives the defaults of the options a call does not give', () => {
  configureGlobal({ trials: 7, seed: 99 });
  assert.deepEqual(readConfigureGlobal(), { trials: 7, seed: 99 });
  const r = checkSpec(takeSpec, take);
  assert.equal(r.trials, 7);
  assert.equal(r.seed, 99);
  assert.equal(checkSpec(takeSpec, take, { trials: 3 }).trials, 3); // the call wins
  resetConfigureGlobal();
  assert.equal(checkSpec(takeSpec, take).trials, 100);
});

test('the seed of STRICTCHECK_SEED replays a run without editing the test, and a bad one is named', () => {
  const failure = checkSpec(takeSpec, takePrime);
  process.env[SEED_VARIABLE] = String(failure.seed);
  assert.equal(checkSpec(takeSpec, takePrime).message, failure.message);
  configureGlobal({ seed: failure.seed + 1 });
  assert.equal(checkSpec(takeSpec, takePrime).seed, failure.seed); // the environment wins over the configuration
  process.env[SEED_VARIABLE] = 'forty-two';
  assert.throws(() => checkSpec(takeSpec, take), /STRICTCHECK_SEED must be an integer[^]*"forty-two"/);
});

test('configureGlobal refuses a misspelt or out-of-range setting where it is made', () => {
  assert.throws(() => configureGlobal({ trails: 10 } as object), /unknown option "trails" \(did you mean trials\?\)/);
  assert.throws(() => configureGlobal({ trials: 0 }), /trials must be a positive integer, got 0/);
  assert.throws(() => configureGlobal({ workers: 0 }), /workers must be a positive integer or 'all', got 0/);
});

test('a throwing check names itself in what it says, not the check returning a result that it runs', async () => {
  const unregistered: typeof take = (n, xs) => take(n, xs);
  await assert.rejects(assertSpec(takeSpec, unregistered, { workers: 2 }), /^TypeError: assertSpec with workers: [^]*assertSpec\(myCheck, options\)/);
  await assert.rejects(assertSpecExhaustive(takeSpec, unregistered, { depth: 1, workers: 2 }), /^TypeError: assertSpecExhaustive with workers: /);
  await assert.rejects(strictCheckSpecExact(takeSpec, unregistered, { workers: 2 }), /^TypeError: strictCheckSpecExact with workers: [^]*strictCheckSpecExact\(myCheck, options\)/);
});
