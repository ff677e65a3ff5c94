/**
 * Options of the checks: bad values fail up front, naming the option; and what a counterexample
 * report shows of the functions inside its inputs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { thunk, type Lazy } from '../src/lazy/lazy.ts';
import { lazyOf } from '../src/demand/lazy-positions.ts';
import { fn, number } from '../src/demand/primitives.ts';
import { tuple } from '../src/demand/tuples.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { spec } from '../src/spec/spec.ts';
import type { CheckOptions } from '../src/spec/options.ts';
import { strictProperty } from '../src/spec/property.ts';
import { defineCheck } from '../src/spec/registry.ts';
import type { ParallelOptions } from '../src/spec/options.ts';
import { enumerateCases } from '../src/engine/enumerate.ts';
import { take, takePrime, takeSpec } from '../examples/take.ts';
import { takeCheck, takePrimeCheck } from './fixtures/checks.ts';
import { checkSpec, checkSpecExhaustive } from '../src/checks.ts';
import { configureGlobal } from '../src/config.ts';

test('a bad option fails before any trial, naming the option and its value', async () => {
  const bad: [CheckOptions, RegExp][] = [
    [{ trials: NaN }, /^trials must be a positive integer, got NaN$/],
    [{ trials: -1 }, /^trials must be a positive integer, got -1$/],
    [{ trials: 0 }, /^trials must be a positive integer, got 0$/],
    [{ maxSize: 2.5 }, /^maxSize must be a non-negative integer, got 2.5$/],
    [{ seed: Infinity }, /^seed must be an integer, got Infinity$/],
    [{ forceBudget: 0 }, /^forceBudget must be a positive integer or Infinity \(no limit\), got 0$/],
    [{ maxShrinkAttempts: -3 }, /^maxShrinkAttempts must be a non-negative integer or Infinity \(no limit\), got -3$/],
    [{ compare: 'noStrictr' as never }, /^compare must be 'exact', 'noStricter', 'noLazier' or a function .*, got "noStrictr"$/],
    [{ compare: ['exact', 'lazier' as never] }, /^compare must be .*, got "lazier"$/],
  ];
  // takePrime is wrong for takeSpec: a run that ran no trial would pass it.
  for (const [options, message] of bad) assert.throws(() => checkSpec(takeSpec, takePrime, options), { name: 'RangeError', message });
  // With workers, before any worker starts; and the options only runs with workers take.
  const badParallel: [ParallelOptions, RegExp][] = [
    [{ trials: NaN }, /^trials must be/],
    [{ timeout: 0 }, /^timeout must be an integer from 1 to 2147483647, got 0$/],
    [{ maxShrinkTimeouts: NaN }, /^maxShrinkTimeouts must be a non-negative integer or Infinity \(no limit\), got NaN$/],
    [{ shrinking: 'greedier' as never }, /^shrinking must be 'deterministic' or 'greedy', got "greedier"$/],
  ];
  for (const [options, message] of badParallel) await assert.rejects(checkSpec(takeCheck, { ...options, workers: 2 }), { name: 'RangeError', message });
  // The other entry points check the options they share.
  assert.throws(() => checkSpecExhaustive(takeSpec, take, { depth: 2, forceBudget: NaN }), /^RangeError: forceBudget must be a positive integer or Infinity \(no limit\), got NaN$/);
  assert.throws(() => checkSpecExhaustive(takeSpec, take, { depth: 2, compare: 'lazy' as never }), /^RangeError: compare must be .*, got "lazy"$/);
  assert.throws(() => strictProperty(takeSpec, take, { maxSize: -1 }), /^RangeError: maxSize must be a non-negative integer, got -1$/);
  // The smallest good values run.
  assert.equal(checkSpec(takeSpec, take, { trials: 1, maxSize: 0, maxShrinkAttempts: 0, forceBudget: 1000, seed: -5 }).passed, true);
});

test('Infinity is no limit for the options that are limits, and no count or time for the others', async () => {
  const sequential = checkSpec(takeSpec, takePrime, { seed: 1, unicode: false });
  const unlimited = { forceBudget: Infinity, maxShrinkAttempts: Infinity };
  // The same run; the report's last line names the budget given, to run it again.
  const run = (message: string) => message.replace(/\nReproduce with .*$/, '');
  const limitless = checkSpec(takeSpec, takePrime, { seed: 1, unicode: false, ...unlimited }).message;
  assert.equal(run(limitless), run(sequential.message));
  assert.match(limitless, /Reproduce with the option \{ seed: 1, forceBudget: Infinity \}\.$/);
  assert.equal(checkSpec(takeSpec, take, { seed: 1, ...unlimited }).passed, true);
  assert.equal(checkSpecExhaustive(takeSpec, take, { depth: 3, forceBudget: Infinity }).passed, true);
  assert.doesNotThrow(() => strictProperty(takeSpec, take, { forceBudget: Infinity }));
  const parallel = await checkSpec(takePrimeCheck, { seed: 1, unicode: false, workers: 1, maxShrinkTimeouts: Infinity, ...unlimited });
  assert.equal(parallel.message, limitless);
  for (const name of ['trials', 'maxSize', 'seed'] as const) assert.throws(() => checkSpec(takeSpec, take, { [name]: Infinity }), { name: 'RangeError', message: new RegExp(`^${name} must be .*integer, got Infinity$`) });
  await assert.rejects(checkSpec(takeCheck, { workers: 1, timeout: Infinity }), { name: 'RangeError', message: /^timeout must be an integer from 1 to 2147483647, got Infinity$/ });
});

test("an option under another tool's name (fast-check's numRuns, QuickCheck's maxSuccess) is refused naming strictcheck's", () => {
  assert.throws(() => checkSpec(takeSpec, take, { numRuns: 5 } as never), { name: 'RangeError', message: /^unknown option "numRuns" \(fast-check's name: here it is trials\); the options here are trials, / });
  assert.throws(() => checkSpec(takeSpec, take, { maxSuccess: 5 } as never), /unknown option "maxSuccess" \(QuickCheck's name: here it is trials\)/);
  assert.throws(() => checkSpec(takeSpec, take, { maxTrials: 5 } as never), /unknown option "maxTrials" \(did you mean trials\?\)/);
  // Where the mode has no such option, none is named.
  assert.throws(() => strictProperty(takeSpec, take, { numRuns: 5 } as never), { message: /^unknown option "numRuns"; the options here are / });
});

test('a misspelt option, an option only workers use in a run without them, and a bad onTrial fail up front, naming them', () => {
  assert.throws(() => checkSpec(takeSpec, takePrime, { trails: 5 } as never), { name: 'RangeError', message: /^unknown option "trails" \(did you mean trials\?\); the options here are trials, seed, / });
  assert.throws(() => strictProperty(takeSpec, take, { trails: 5 } as never), { name: 'RangeError', message: /^unknown option "trails"; the options here are compare, forceBudget, maxSize, unicode$/ });
  assert.throws(() => checkSpecExhaustive(takeSpec, take, { depth: 2, dpeth: 3 } as never), /unknown option "dpeth" \(did you mean depth\?\)/);
  // A timeout in this thread would stop nothing: a function that loops would hang the run it was meant to stop.
  assert.throws(() => checkSpec(takeSpec, take, { timeout: 500 } as never), { name: 'RangeError', message: /^timeout applies only with workers: a trial running in this thread cannot be stopped/ });
  assert.throws(() => checkSpec(takeSpec, take, { shrinking: 'greedy' } as never), { name: 'RangeError', message: /^shrinking applies only with workers\. Add workers/ });
  assert.throws(() => checkSpecExhaustive(takeSpec, take, { depth: 2, timeout: 500 }), /^RangeError: timeout applies only with workers/);
  assert.throws(() => checkSpec(takeSpec, take, { onTrial: 5 as never }), { name: 'TypeError', message: 'onTrial must be a function, got 5' });
  assert.throws(() => checkSpecExhaustive(takeSpec, take, { depth: '3' as never }), { name: 'RangeError', message: 'depth must be a non-negative integer, got "3"' });
});

test("an option of another mode is refused naming the checks it belongs to: depth to a random check, trials to an exhaustive one or to fast-check's property", () => {
  assert.throws(() => checkSpec(takeSpec, take, { depth: 3 } as never), {
    name: 'RangeError',
    message: 'depth is not an option of the random checks (checkSpec, assertSpec): it is one of the exhaustive checks (checkSpecExhaustive, assertSpecExhaustive)',
  });
  assert.throws(() => checkSpecExhaustive(takeSpec, take, { depth: 2, trials: 5 } as never), {
    name: 'RangeError',
    message: 'trials is not an option of the exhaustive checks (checkSpecExhaustive, assertSpecExhaustive): it is one of the random checks (checkSpec, assertSpec) and configureGlobal',
  });
  assert.throws(() => strictProperty(takeSpec, take, { trials: 5 } as never), {
    name: 'RangeError',
    message: "trials is not an option of strictProperty (fast-check's runner runs it: give fc.assert numRuns and seed): it is one of the random checks (checkSpec, assertSpec) and configureGlobal",
  });
  assert.throws(() => configureGlobal({ depth: 3 } as never), {
    name: 'RangeError',
    message: 'depth is not an option of configureGlobal: it is one of the exhaustive checks (checkSpecExhaustive, assertSpecExhaustive)',
  });
});

test('the report of a failure names every option that decides its trials, so that they run again', () => {
  // The size of a trial depends on the number of trials and the largest size, not only on the seed.
  const options = { seed: 7, trials: 300, maxSize: 100 };
  const r = checkSpec(takeSpec, takePrime, options);
  assert.match(r.message!, /Reproduce with the option \{ seed: 7, trials: 300, maxSize: 100 \}\.$/);
  assert.equal(checkSpec(takeSpec, takePrime, options).message, r.message);
  // Defaults are left out.
  assert.match(checkSpec(takeSpec, takePrime, { seed: 7, trials: 100 }).message!, /Reproduce with the option \{ seed: 7 \}\.$/);
});

type Pair = readonly [(x: Lazy<number>) => number, Lazy<number>];
/** A wrong spec: it says that the function inside the pair never evaluates the number beside it. */
const pairSpec = spec([tuple<Pair>(fn([lazyOf(number)], number), lazyOf(number))], number, (predict, _d, p) => predict([p[0], thunk]));
const applyPair = (p: Pair): number => p[0](p[1]);

test('a report shows a function inside an input by the calls of its own run, as λ{…} in every column', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    const r = checkSpec(pairSpec, applyPair, { seed, unicode: false });
    assert.equal(r.passed, false);
    assert.doesNotMatch(r.message, /<function>/);
    // The pair's function is called once per run, with the number beside it (evaluated or not): shrink runs and the first trial add no calls.
    const x = (r.counterexample!.inputs[0] as Pair)[1].force();
    const shown = r.message.match(/λ\{[^}]*\}/g)!;
    assert.equal(shown.length, 3, r.message); // the input, the demand on it, the spec's demand on it
    assert.ok(shown.every((s) => s === shown[0]), r.message);
    assert.match(shown[0]!, new RegExp(`^λ\\{(_|${x}) ↦ -?\\d+\\}$`), r.message);
    assert.match(prettyDemand(r.counterexample!.actual[0]!), /^\(λ\{/);
  }
});

test('defineCheck and enumerateCases refuse a misspelt option too, and a misspelt depth is named as such', () => {
  assert.throws(() => defineCheck(import.meta.url, 'misspelt', takeSpec, take, { comapre: 'noStricter' } as never), /unknown option "comapre" \(did you mean compare\?\)/);
  assert.throws(() => [...enumerateCases([number], 1, () => 0, { prun: false } as never)], /unknown option "prun" \(did you mean prune\?\)/);
  assert.throws(() => checkSpecExhaustive(takeSpec, take, { dept: 2 } as never), /unknown option "dept" \(did you mean depth\?\)/);
});

test('the options that decide whether a trial fails are in the report: forceBudget, and compare given by name', () => {
  const r = checkSpec(takeSpec, takePrime, { seed: 7, forceBudget: 500, compare: ['exact', 'noLazier'] });
  assert.match(r.message!, /Reproduce with the option \{ seed: 7, forceBudget: 500, compare: \['exact','noLazier'\] \}\.$/);
});

test('a result printed by console.log shows its fields, then its report drawn on lines of its own', async () => {
  const lines = (r: unknown) => inspect(r).split('\n');
  const failed = checkSpec(takeSpec, takePrime, { seed: 42, unicode: false });
  assert.ok(lines(failed).includes('Reproduce with the option { seed: 42 }.'), inspect(failed));
  assert.match(inspect(failed), /^\{\n  passed: false,[^]*\}\nFailed: the spec does not match the function/);
  assert.equal(inspect(checkSpec(takeSpec, take, { seed: 42 })), '{ passed: true, trials: 100, seed: 42, shrinks: 0 }\n+++ OK, passed 100 trials (seed 42).\nCoverage (not forced/partly/fully): result 0/19/81%, args[0] 0/0/100%, args[1] 56/30/14%.');
  assert.ok(lines(checkSpecExhaustive(takeSpec, takePrime, { depth: 1, unicode: false })).some((l) => l.startsWith('Failed: the spec does not match the function (exhaustive')));
  assert.match(inspect(await checkSpec(takePrimeCheck, { seed: 42, workers: 1, unicode: false })), /\}\nFailed: the spec does not match the function/);
  // the exhaustive mode with workers too, from either entry point
  assert.match(inspect(await checkSpecExhaustive(takeSpec, takePrime, { depth: 1, workers: 1, unicode: false })), /\}\nFailed: the spec does not match the function \(exhaustive/);
  assert.match(inspect(await checkSpecExhaustive(takeSpec, take, { depth: 1, workers: 1 })), /\}\n\+\+\+ OK, passed all/);
  // The fields are the result's as they were: nothing added to compare or spread.
  assert.deepEqual(Object.keys(failed), ['passed', 'trials', 'seed', 'shrinks', 'counterexample', 'message']);
});

test('a shard that holds none of the run\'s trials passes, saying so', () => {
  const r = checkSpec(takeSpec, takePrime, { seed: 1, trials: 2, shard: '3/3' });
  assert.equal(r.passed, true);
  assert.equal(r.message, "+++ OK, passed 0 trials (seed 1, shard 3/3, which holds none of the run's trials).");
  assert.equal(checkSpec(takeSpec, take, { seed: 1, trials: 1 }).message, '+++ OK, passed 1 trial (seed 1).\nCoverage (not forced/partly/fully): result 0/100/0%, args[0] 0/0/100%, args[1] 0/100/0%.');
});

test('a shard written with spaces is named as i/n by a random run, as an exhaustive run names it', () => {
  assert.match(checkSpec(takeSpec, take, { seed: 1, trials: 9, shard: ' 2 / 3 ' }).message, /^\+\+\+ OK, passed 3 trials \(seed 1, shard 2\/3\)\./);
  assert.match(checkSpec(takeSpec, takePrime, { seed: 1, shard: ' 1 / 3 ' }).message, /Reproduce with the option \{ seed: 1, shard: '1\/3' \}\.$/);
  assert.match(checkSpecExhaustive(takeSpec, take, { depth: 2, shard: ' 1 / 3 ' }).message, /of depth 2, shard 1\/3 \(/);
});

test('an exhaustive check called without options is refused for the depth it lacks', () => {
  assert.throws(() => (checkSpecExhaustive as (...args: unknown[]) => unknown)(takeSpec, take), { name: 'RangeError', message: /^depth must be a non-negative integer, got undefined$/ });
});
