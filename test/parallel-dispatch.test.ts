/**
 * What a check with workers does in this thread before its workers run.
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { takeSpec } from '../examples/take.ts';
import { checkSpec, checkSpecExhaustive } from '../src/checks.ts';
import { countedTake, countedTakeCheck, lengthReads } from './fixtures/checks.ts';

/** How many times a run reads the length of its function (to check what it is called with), in this thread. */
async function lengthReadsOf(run: () => Promise<{ passed: boolean }>): Promise<number> {
  lengthReads.count = 0;
  assert.equal((await run()).passed, true);
  return lengthReads.count;
}

test('with workers, a spec and function given apart are checked once before the run, as a defined check is', { timeout: 60_000 }, async () => {
  const random = { trials: 1, workers: 1 };
  assert.equal(await lengthReadsOf(() => checkSpec(takeSpec, countedTake, random)), await lengthReadsOf(() => checkSpec(countedTakeCheck, random)));
  const exhaustive = { depth: 1, workers: 1 };
  assert.equal(
    await lengthReadsOf(() => checkSpecExhaustive(takeSpec, countedTake, exhaustive)),
    await lengthReadsOf(() => checkSpecExhaustive(countedTakeCheck, exhaustive)),
  );
});
