import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertSpecExhaustive, checkSpecExhaustive, ExhaustiveCheckFailure } from '../src/index.ts';
import { take, takeSpec } from '../examples/take.ts';
import { and, andSpec } from '../examples/and-filter.ts';

const total = (k: { none: number; partial: number; full: number }) => k.none + k.partial + k.full;

test('an exhaustive run counts, over the cases of its deepest depth, how far the result and each argument were forced', () => {
  const r = checkSpecExhaustive(takeSpec, take, { depth: 3 });
  assert.equal(r.passed, true);
  const c = r.coverage!;
  assert.deepEqual([total(c.result), ...c.inputs.map(total)], [r.cases, r.cases, r.cases]);
  // A context that demands nothing is no case: the enumeration starts at the result's head.
  assert.ok(c.result.none === 0 && c.result.partial > 0 && c.result.full > 0, JSON.stringify(c.result));
  assert.ok(c.inputs[1]!.none > 0 && c.inputs[1]!.partial > 0 && c.inputs[1]!.full > 0, JSON.stringify(c.inputs[1]));
});

test('the report of a passing exhaustive run mentions coverage in one line', () => {
  const lines = checkSpecExhaustive(takeSpec, take, { depth: 3 }).message.split('\n');
  assert.equal(lines.length, 2);
  assert.match(lines[0]!, /^\+\+\+ OK, passed all \d+ cases of depth 3/);
  assert.match(lines[1]!, /^Coverage \(not forced\/partly\/fully\): result \d+\/\d+\/\d+%, args\[0\] \d+\/\d+\/\d+%, args\[1\] \d+\/\d+\/\d+%\.$/);
});

test('an exhaustive run that never demanded part of the result fails when a share of partial demands is asked for, saying so', () => {
  // and's result is a boolean: forced whole or not at all.
  const r = checkSpecExhaustive(andSpec, and, { depth: 3, coverage: { result: { partial: 0.1 } } });
  assert.equal(r.passed, false);
  assert.equal(r.counterexample, undefined);
  assert.match(
    r.message,
    /^Failed: the coverage asked for was not reached \(all \d+ cases of depth 3 passed\):\n {2}the result was partly forced in 0% of the cases \(0 of \d+: never\), under the 10% asked \(coverage\.result\.partial\)\.\nCoverage \(not forced\/partly\/fully\): result /,
  );
  assert.match(r.message, /A larger depth may reach it\. Reproduce with the options \{ depth: 3 \}\.$/);
  assert.throws(() => assertSpecExhaustive(andSpec, and, { depth: 3, coverage: { result: { partial: 0.1 } } }), ExhaustiveCheckFailure);
});

test('a coverage requirement met in the exhaustive mode passes; one naming no value is refused before any case', () => {
  assert.equal(checkSpecExhaustive(takeSpec, take, { depth: 3, coverage: { result: { partial: 0.5 }, 1: { partial: 0.5, full: 0.02 } } }).passed, true);
  assert.throws(() => checkSpecExhaustive(takeSpec, take, { depth: 3, coverage: { reslut: { partial: 0.1 } } }), /coverage\.reslut: no such value/);
});
