import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertSameStrictness, checkSameStrictness, checkSpec, checkSpecExhaustive, lazy, lazyOf, list, number, prettyDemand, sameStrictnessAs, SpecError, StrictCheckFailure,
  type Lazy,
} from '../src/index.ts';
import { take, takePrime } from '../examples/take.ts';
import { checkOptimisedTakes, takeFast, takeShapes, takeShared } from '../examples/optimised-take.ts';
import { takeSharedCheck } from './fixtures/take-variant-checks.ts';
import { run as runFutureWork } from '../examples/future-work.ts';

const sameAsTake = sameStrictnessAs(takeShapes, list(number), take);
/** Each optimised take checked against take (seed 1): made once, as two tests read it. */
let optimisedTakes: ReturnType<typeof checkOptimisedTakes> | undefined;
const optimisedTakesChecked = () => (optimisedTakes ??= checkOptimisedTakes(1));

test('a function exactly as lazy as its reference passes, at random and exhaustively, with no spec written', () => {
  assert.equal(optimisedTakesChecked().fast.passed, true);
  assert.equal(checkSpecExhaustive(sameAsTake, takeFast, { depth: 4 }).passed, true);
  assertSameStrictness(takeShapes, list(number), take, takeFast, { trials: 300, seed: 2 });
});

test('an optimisation that measures the whole list fails against its reference, the diagram labelling the reference column', () => {
  const { shared } = optimisedTakesChecked();
  assert.equal(shared.passed, false);
  assert.match(shared.message, /^Failed: the function's demands differ from the reference's \(after/);
  assert.match(shared.message, /Reference's input demands/);
  assert.doesNotMatch(shared.message, /Spec's input demands/);
  const c = shared.counterexample!;
  assert.deepEqual([c.actual.map((d) => prettyDemand(d)), c.predicted.map((d) => prettyDemand(d))], [['0', '[]'], ['0', '_']]);
  assert.throws(() => assertSameStrictness(takeShapes, list(number), take, takeShared, { seed: 1 }), StrictCheckFailure);
  const exhaustive = checkSpecExhaustive(sameAsTake, takeShared, { depth: 3, unicode: false });
  assert.match(exhaustive.message, /Reference's input demands/);
});

test("noStricter and noLazier compare with the reference one way: take' is lazier in n, stricter in the list", () => {
  assert.equal(checkSameStrictness(takeShapes, list(number), take, takeFast, { compare: 'noStricter', seed: 1 }).passed, true);
  assert.equal(checkSameStrictness(takeShapes, list(number), takeShared, take, { compare: 'noStricter', seed: 1 }).passed, true);
  assert.equal(checkSameStrictness(takeShapes, list(number), take, takeShared, { compare: 'noStricter', seed: 1 }).passed, false);
  assert.equal(checkSameStrictness(takeShapes, list(number), take, takeShared, { compare: 'noLazier', seed: 1 }).passed, true);
  assert.equal(checkSameStrictness(takeShapes, list(number), take, takePrime, { compare: ['noStricter', 'noLazier'], trials: 500, seed: 1 }).passed, true);
});

test('a reference of any arity: three lazy numbers, the function forgetting to force the third', () => {
  const shapes = [lazyOf(number), lazyOf(number), lazyOf(number)] as const;
  const sum3 = (a: Lazy<number>, b: Lazy<number>, c: Lazy<number>) => lazy(() => a.force() + b.force() + c.force());
  const sum2 = (a: Lazy<number>, b: Lazy<number>, _c: Lazy<number>) => lazy(() => a.force() + b.force());
  const r = checkSameStrictness(shapes, lazyOf(number), sum3, sum2, { seed: 3 });
  assert.equal(r.passed, false);
  assert.deepEqual(r.counterexample!.actual.map((d) => prettyDemand(d)).at(-1), '_');
  assert.notEqual(prettyDemand(r.counterexample!.predicted[2]!), '_');
  assert.equal(checkSameStrictness(shapes, lazyOf(number), sum3, sum3, { seed: 3 }).passed, true);
});

test('a reference that computes another value is a spec error naming the reference, not a strictness failure', () => {
  const differs = (_n: Lazy<number>, xs: Lazy<import('../src/lazy/cell.ts').Cell<number>>) => lazy(() => {
    xs.force();
    throw new Error('reference broke');
  });
  assert.throws(() => checkSameStrictness(takeShapes, list(number), differs, take, { seed: 1 }), (e: unknown) => e instanceof SpecError && /the reference threw/.test(e.message));
});

test('a defined check against a reference runs in workers and reports the reference column', { timeout: 60_000 }, async () => {
  const r = await checkSpec(takeSharedCheck, { seed: 1, workers: 1 });
  assert.equal(r.passed, false);
  assert.match(r.message, /Reference's input demands/);
});

test("npm start's section of the paper's future work behaves as expected: an inferred spec, a reference, coverage", () => {
  const lines: string[] = [];
  const outcome = runFutureWork((line) => lines.push(line));
  assert.deepEqual(outcome, { passed: 8, failed: 0 }, lines.join('\n'));
  const text = lines.join('\n');
  assert.match(text, /asResult\(\{ stopsEarly: \(n, xs\) => n\.force\(\) <= List\.length\(xs\) \}\)/);
  assert.match(text, /Reference's input demands/);
  assert.match(text, /Coverage \(not forced\/partly\/fully\): result/);
  assert.match(text, /onlyWhen\(\(_d, n\) => n > 0, pulledAsResult\(\{ limit: \(n\) => n \}\)\)/);
  assert.match(text, /the result was partly forced in 0% of the cases \(0 of 7: never\)/);
});
