import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertSpec, checkSpec, spec, lazyOf, number, StrictCheckFailure, type Lazy } from '../src/index.ts';
import { take, takeSpec } from '../examples/take.ts';
import { and, andSpec } from '../examples/and-filter.ts';
import { takeCheck } from './fixtures/checks.ts';

test('a run counts, for the result and each argument, the trials that left it not forced, partly and fully forced', () => {
  const r = checkSpec(takeSpec, take, { seed: 1 });
  assert.equal(r.passed, true);
  const c = r.coverage!;
  const total = (k: { none: number; partial: number; full: number }) => k.none + k.partial + k.full;
  assert.deepEqual([total(c.result), ...c.inputs.map(total)], [100, 100, 100]);
  assert.equal(c.inputs[0]!.full, 100, 'take forces its count whenever its result is demanded, and the result always is');
  assert.ok(c.inputs[1]!.none > 0 && c.inputs[1]!.partial > 0 && c.inputs[1]!.full > 0, JSON.stringify(c.inputs[1]));
  assert.ok(c.result.partial > 0 && c.result.full > 0, JSON.stringify(c.result));
});

test('the report of a passing run mentions coverage in one line, naming the arguments', () => {
  const named = spec([lazyOf(number), takeSpec.args[1]], takeSpec.result, takeSpec.body, ['n', 'xs']);
  const lines = checkSpec(named, take, { seed: 1 }).message.split('\n');
  assert.equal(lines.length, 2);
  assert.match(lines[1]!, /^Coverage \(not forced\/partly\/fully\): result \d+\/\d+\/\d+%, n 0\/0\/100%, xs \d+\/\d+\/\d+%\.$/);
});

test('a run that never demanded a partial result fails when the check asks for some, saying so', () => {
  // and's result is a boolean: a demand on it is all of it or nothing
  const r = checkSpec(andSpec, and, { seed: 1, coverage: { result: { partial: 0.1 } } });
  assert.equal(r.passed, false);
  assert.equal(r.counterexample, undefined);
  assert.match(r.message, /^Failed: the coverage asked for was not reached \(all 100 trials passed; seed 1\):\n  the result was partly forced in 0% of the trials \(0 of 100: never\), under the 10% asked \(coverage\.result\.partial\)\./);
  assert.match(r.message, /Reproduce with the option \{ seed: 1 \}\.$/);
  assert.throws(() => assertSpec(andSpec, and, { seed: 1, coverage: { result: { partial: 0.1 } } }), StrictCheckFailure);
});

test('a coverage requirement that is met passes; arguments are named by index or by name', () => {
  assert.equal(checkSpec(takeSpec, take, { seed: 1, coverage: { result: { partial: 0.05, full: 0.5 }, 1: { none: 0.1 } } }).passed, true);
  const named = spec([lazyOf(number)], lazyOf(number), (predict, _d, x) => predict(x), ['x']);
  const id = (x: Lazy<number>) => x;
  assert.equal(checkSpec(named, id, { seed: 1, coverage: { x: { full: 0.9 } } }).passed, true);
  assert.equal(checkSpec(named, id, { seed: 1, coverage: { x: { none: 0.5 } } }).passed, false);
});

test('a coverage requirement naming no value, or a share out of 0 to 1, is refused before any trial', () => {
  assert.throws(() => checkSpec(takeSpec, take, { coverage: { reslut: { partial: 0.1 } } }), /coverage\.reslut: no such value \(did you mean result\?\); name 'result', an argument's index from 0 to 1/);
  assert.throws(() => checkSpec(takeSpec, take, { coverage: { result: { partial: 20 } } }), /coverage\.result\.partial must be a share from 0 to 1, got 20/);
  assert.throws(() => checkSpec(takeSpec, take, { coverage: { result: { partly: 0.2 } } as never }), /the shares are none, partial and full/);
});

test('a misspelt value or share of a coverage requirement is refused with the one meant, as a misspelt option is', () => {
  assert.throws(() => checkSpec(takeSpec, take, { coverage: { reslt: { partial: 0.1 } } }), { name: 'RangeError', message: "coverage.reslt: no such value (did you mean result?); name 'result', an argument's index from 0 to 1" });
  const named = spec([lazyOf(number)], lazyOf(number), (predict, d) => predict(d), ['count']);
  assert.throws(() => checkSpec(named, (x: Lazy<number>) => x, { coverage: { conut: { full: 0.5 } } }), /coverage\.conut: no such value \(did you mean count\?\)/);
  assert.throws(() => checkSpec(takeSpec, take, { coverage: { result: { partal: 0.2 } } as never }), { name: 'RangeError', message: 'coverage.result.partal (did you mean partial?): the shares are none, partial and full' });
});

test('a coverage requirement naming an index out of range, or a word near a short argument name, suggests no name: the closest is meant, and a name of one or two letters is meant by none', () => {
  const named = spec([lazyOf(number), lazyOf(number)], lazyOf(number), (predict, d) => predict(d, d), ['n', 'xs']);
  const id = (a: Lazy<number>, _: Lazy<number>) => a;
  for (const key of ['3', 'input', 'x']) {
    assert.throws(() => checkSpec(named, id, { coverage: { [key]: { full: 0.5 } } }), (e: Error) => e.message.startsWith(`coverage.${key}: no such value; name 'result'`), key);
  }
});

test('with workers, a run counts the same coverage as in this thread', { timeout: 60_000 }, async () => {
  const here = checkSpec(takeCheck.spec, takeCheck.fn, { seed: 5 });
  const there = await checkSpec(takeCheck, { seed: 5, workers: 2 });
  assert.deepEqual(there.coverage, here.coverage);
  assert.equal(there.message.split('\n')[1], here.message.split('\n')[1]);
});
