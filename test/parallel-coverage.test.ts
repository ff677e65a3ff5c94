import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertSpecExhaustive, checkSpecExhaustive } from '../src/checks.ts';
import { ExhaustiveCheckFailure, type ExhaustiveOptions } from '../src/spec/exhaustive.ts';
import { takeCheck } from './fixtures/checks.ts';

/** The coverage and message of an exhaustive run of take, without workers and with 2. */
async function both(options: Omit<ExhaustiveOptions, 'workers'>) {
  const s = checkSpecExhaustive(takeCheck.spec, takeCheck.fn, { ...options, unicode: false });
  const p = await checkSpecExhaustive(takeCheck, { ...options, unicode: false, workers: 2 });
  return { s, p };
}

test('a passing exhaustive run with 2 workers has the coverage and the coverage line of the run without workers', { timeout: 120_000 }, async () => {
  const { s, p } = await both({ depth: 3 });
  assert.ok(p.passed && p.subtrees > 1, `the cases went to the workers in pieces: ${p.subtrees}`);
  assert.deepEqual(p.coverage, s.coverage);
  assert.equal(p.message, s.message);
  assert.match(p.message, /\nCoverage \(not forced\/partly\/fully\): result \d+\/\d+\/\d+%, args\[0\] /);
});

test('each shard with 2 workers has the coverage of the same shard without workers, the cases its main thread ran to find its part included', { timeout: 120_000 }, async () => {
  for (const depth of [2, 3]) {
    // One after the other: at once, they would start workers beside those the last run left idle.
    const runs = [];
    for (const i of [1, 2, 3]) runs.push(await both({ depth, shard: `${i}/3` }));
    for (const { s, p } of runs) {
      assert.deepEqual(p.coverage, s.coverage);
      assert.equal(p.message, s.message);
    }
    // The shards partition the cases, and so their counts.
    const whole = checkSpecExhaustive(takeCheck.spec, takeCheck.fn, { depth });
    const sum = runs.reduce((n, { p }) => n + p.coverage!.result.partial, 0);
    assert.equal(sum, whole.coverage!.result.partial);
  }
});

test('a coverage requirement not met fails the exhaustive run with workers with the message of the run without', { timeout: 120_000 }, async () => {
  // take forces n whenever its result is demanded, and every case demands it: n is never left unforced.
  const coverage = { 0: { none: 0.1 } };
  const { s, p } = await both({ depth: 3, coverage });
  assert.equal(s.passed, false);
  assert.equal(p.passed, false);
  assert.equal(p.counterexample, undefined);
  assert.equal(p.message, s.message);
  assert.match(p.message, /args\[0\] was not forced in 0% of the cases \(0 of \d+: never\)/);
  await assert.rejects(assertSpecExhaustive(takeCheck, { depth: 3, unicode: false, workers: 2, coverage }), (err: unknown) => err instanceof ExhaustiveCheckFailure && err.message === s.message);
});

test('a coverage requirement met passes the exhaustive run with workers', { timeout: 120_000 }, async () => {
  const { s, p } = await both({ depth: 3, coverage: { result: { partial: 0.5 }, 1: { partial: 0.5, full: 0.02 } } });
  assert.equal(s.passed, true);
  assert.equal(p.passed, true);
  assert.equal(p.message, s.message);
});
