/**
 * Budgets and progress of the exhaustive mode: a run that would take hours stops at its case or
 * time budget, passing with what it checked said plainly, and tells how far it has got.
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSpecExhaustive, type ExhaustiveProgress } from '../src/index.ts';
import { take, takePrime, takeSpec } from '../examples/take.ts';
import { takeCheck } from './fixtures/checks.ts';

test('maxCases stops a run that finds no counterexample: it passes, saying where it stopped and that the rest was not checked', () => {
  const r = checkSpecExhaustive(takeSpec, take, { depth: 12, maxCases: 1000 });
  assert.equal(r.passed, true);
  assert.equal(r.stoppedBy, 'maxCases');
  assert.equal(r.totalCases, 1000);
  assert.ok(r.depth < 12);
  assert.match(r.message, new RegExp(`^\\+\\+\\+ OK, passed all 1000 cases run before maxCases \\(1000\\) stopped the run: depths 0 to ${r.depth - 1} in full, and ${r.cases} cases of depth ${r.depth}\\. Depths ${r.depth} to 12 were not checked in full\\.$`));
});

test('a run stopped in its last depth, after one depth in full, names each depth alone, not as a range of one', () => {
  const r = checkSpecExhaustive(takeSpec, take, { depth: 1, maxCases: 2 });
  assert.equal(r.message, '+++ OK, passed all 2 cases run before maxCases (2) stopped the run: depth 0 in full, and 1 case of depth 1. Depth 1 was not checked in full.');
});

test('a run of one depth, or of one case, says so in the singular, not as a range of one or "all 1 cases"', () => {
  assert.match(checkSpecExhaustive(takeSpec, take, { depth: 0 }).message, /^\+\+\+ OK, passed all 1 case of depth 0 \(1 case and \d+ runs over depth 0\)\./);
  assert.match(checkSpecExhaustive(takeSpec, take, { depth: 1, maxCases: 1 }).message, /^\+\+\+ OK, passed the 1 case run before maxCases \(1\) stopped the run: /);
});

test('a counterexample found before the budget runs out fails the run as without a budget', () => {
  const r = checkSpecExhaustive(takeSpec, takePrime, { depth: 12, maxCases: 1000 });
  assert.equal(r.passed, false);
  assert.equal(r.stoppedBy, undefined);
  assert.equal(r.message, checkSpecExhaustive(takeSpec, takePrime, { depth: 3 }).message);
});

test('timeLimit stops a run that would take hours, and a run within its budgets is not marked stopped', () => {
  const r = checkSpecExhaustive(takeSpec, take, { depth: 40, timeLimit: 200 });
  assert.equal(r.passed, true);
  assert.equal(r.stoppedBy, 'timeLimit');
  assert.match(r.message, /stopped the run: .*Depths \d+ to 40 were not checked in full\.$/);
  const full = checkSpecExhaustive(takeSpec, take, { depth: 3, maxCases: 1_000_000, timeLimit: 600_000 });
  assert.equal(full.stoppedBy, undefined);
  assert.match(full.message, /^\+\+\+ OK, passed all \d+ cases of depth 3/);
});

test('onProgress is told of each depth as it ends, with counts that add up', () => {
  const seen: ExhaustiveProgress[] = [];
  const r = checkSpecExhaustive(takeSpec, take, { depth: 4, onProgress: (p) => seen.push(p) });
  const ends = seen.filter((p, i) => i === seen.length - 1 || seen[i + 1]!.depth !== p.depth);
  assert.deepEqual(ends.map((p) => p.depth), [0, 1, 2, 3, 4]);
  assert.equal(ends.at(-1)!.totalCases, r.totalCases);
  assert.equal(ends.at(-1)!.cases, r.cases);
  assert.ok(seen.every((p, i) => i === 0 || p.totalCases >= seen[i - 1]!.totalCases));
});

test('with workers, maxCases stops the run too', async () => {
  const r = await checkSpecExhaustive(takeCheck, { depth: 12, maxCases: 2000, workers: 2 });
  assert.equal(r.passed, true);
  assert.equal(r.stoppedBy, 'maxCases');
  assert.ok(r.totalCases >= 2000);
});

test('budgets are checked as options are: a misspelt or bad one is refused', () => {
  assert.throws(() => checkSpecExhaustive(takeSpec, take, { depth: 2, maxCases: 0 }), /maxCases must be a positive integer or Infinity \(no limit\), got 0/);
  assert.throws(() => checkSpecExhaustive(takeSpec, take, { depth: 2, timelimit: 5 } as never), /unknown option "timelimit" \(did you mean timeLimit\?\)/);
});
