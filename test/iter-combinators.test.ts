/**
 * The spec language over iterables: each async iterator example's hand-written spec and its twin
 * in combinators (examples/iterators/combinators.ts), and firstEven's (whose digits have no
 * series), predict the same demands on thousands of random cases (inputs and consumers as a check
 * generates them, under the correct and the buggy function's result demands), and fail the same
 * buggy versions with the same report. The other sync examples, and the TC39 helpers' specs of
 * test/iter-libraries.test.ts with their twins, are compared on every case up to a depth in
 * test/iter-combinators-exhaustive.test.ts.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { observeDetailed, observeDetailedAsync } from '../src/demand/observe.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { toDemand } from '../src/demand/convert.ts';
import { number } from '../src/demand/primitives.ts';
import { showInput } from '../src/spec/report.ts';
import { sizeOf, trialCase } from '../src/spec/trial-case.ts';
import { predictDemands } from '../src/spec/spec.ts';
import { specOf } from '../src/spec/combinators.ts';
import { checkSpec, inferSpec } from '../src/index.ts';
import { iterable, pulls, Source } from '../src/iter/index.ts';
import { checkExample, iterExamples, type IterExample } from '../examples/iterators/catalog.ts';
import { firstEvenByCombinators, takeAsyncByCombinators } from '../examples/iterators/combinators.ts';
import { operators } from './fixtures/library-ops.ts';
import { difference, predicted, type AnySpec } from './fixtures/twin-predictions.ts';
import { tc39 } from './fixtures/tc39-iterators.ts';
import { digitSources } from '../examples/iterators/resource.ts';
import { take, takePullsOneMore, takeWithoutClosing } from '../examples/iterators/take.ts';
import { pairs, zip } from '../examples/iterators/zip.ts';

/**
 * `trials` random cases of `fn` (inputs and consumer as a check makes them, sizes cycling up to
 * 30): how many, and those where the two specs predict different demands, drawn as
 * `inputs | result demand => one's | other's`.
 */
async function comparePredictions(one: AnySpec, other: AnySpec, fn: (...args: any[]) => unknown, trials: number, async = false): Promise<{ cases: number; differ: string[] }> {
  const differ: string[] = [];
  for (let i = 0; i < trials; i++) {
    const { inputs, context } = trialCase(one as never, 7, i, sizeOf(i, trials, 30));
    const shapes = { inputs: one.args, result: one.result };
    const obs = async ? await observeDetailedAsync(context, fn, inputs, shapes) : observeDetailed(context, fn, inputs, shapes);
    const a = predicted(one, obs.result, inputs);
    const b = predicted(other, obs.result, inputs);
    const d = difference(() => inputs.map((v, k) => showInput(one as never, v, k)).join(', '), obs.result, a, b);
    if (d !== undefined) differ.push(d);
  }
  return { cases: trials, differ };
}

const twins: Readonly<Record<string, AnySpec>> = {
  'firstEven (a source holding a resource)': firstEvenByCombinators,
  'take over async iterables': takeAsyncByCombinators,
};

describe('the iterator examples in the spec language', () => {
  for (const e of iterExamples) {
    const twin = twins[e.name];
    if (twin === undefined) continue;
    // 1,000 cases, 500 async, where 4,000 and 1,500: every change to pulledAsResult and pulledUntil tried that those caught, these catch too.
    const trials = e.async ? 500 : 1000;
    test(`${e.name}: the combinator spec predicts the hand-written spec's demands on ${trials} random cases of the correct and the buggy version`, { timeout: 120_000 }, async () => {
      for (const fn of [e.correct, e.buggy]) {
        const { differ } = await comparePredictions(e.spec, twin, fn, trials, e.async);
        assert.deepEqual(differ.slice(0, 5), []);
      }
    });

    test(`${e.name}: under the combinator spec, the correct version passes and the buggy one fails with the hand-written spec's report`, { timeout: 120_000 }, async () => {
      const asTwin: IterExample = { ...e, spec: twin };
      const [good, bad, badByHand] = await Promise.all([checkExample(asTwin, e.correct), checkExample(asTwin, e.buggy), checkExample(e, e.buggy)]);
      assert.equal(good.passed, true, good.message);
      assert.equal(bad.passed, false);
      assert.equal(bad.message, badByHand.message);
    });
  }
});

const numbers = iterable(number);

test('a spec reads the elements of a generated source off its plan, and of an array from a fresh iteration; a one-shot iterator of its own is refused, saying why', () => {
  const firstTwo = specOf([numbers], numbers, ({ pulledAsResult }) => [pulledAsResult()]);
  const d = pulls([10, 20], 'open');
  for (const xs of [new Source({ elements: [1, 2, 3], infinite: false, hasReturn: true }), new Source({ elements: [1, 2, 3], infinite: false, hasReturn: true }).iterator(), [1, 2, 3]]) {
    assert.equal(prettyDemand(predictDemands(firstTwo, toDemand(d, numbers), [xs as never])[0]!), '1 : 2 : _');
  }
  assert.throws(() => predictDemands(firstTwo, toDemand(d, numbers), [[1, 2, 3].values() as never]), /a one-shot iterator not generated by strictcheck has none to give/);
});

test('exhausted: a sum that pulls its source to its end passes, one that stops at its first odd element fails', () => {
  // Finite sources (which may throw, a failure a sum passes on as ⊥): a sum of an endless one never returns.
  const sumSpec = specOf([digitSources], number, ({ exhausted }) => [exhausted]);
  const sum = (xs: Iterable<number>) => {
    let total = 0;
    for (const x of xs) total += x;
    return total;
  };
  const sumUntilOdd = (xs: Iterable<number>) => {
    let total = 0;
    for (const x of xs) {
      if (x % 2 === 1) break;
      total += x;
    }
    return total;
  };
  assert.equal(checkSpec(sumSpec, sum, { seed: 1 }).passed, true);
  const r = checkSpec(sumSpec, sumUntilOdd, { seed: 1 });
  assert.equal(r.passed, false);
  assert.equal(`${prettyDemand(r.counterexample!.actual[0]!)} → ${prettyDemand(r.counterexample!.predicted[0]!)}`, '7 : return() → 7 : []');
});

test('pulledAsResult: a generator that yields before it opens its source leaves it untouched when its result is closed before it pulls the source, and closesUnstarted closes it there', () => {
  // scan yields its seed first: the result's first pull takes no pull of the source.
  function* scan(xs: Iterable<number>) {
    let sum = 0;
    yield sum;
    for (const x of xs) yield (sum += x);
  }
  const scanned = (k: number) => Math.max(0, k - 1);
  const scanSpec = specOf([numbers], numbers, ({ pulledAsResult }) => [pulledAsResult({ pulls: scanned })]);
  const r = checkSpec(scanSpec, scan, { seed: 1, trials: 500 });
  assert.equal(r.passed, true, r.passed ? '' : r.message);
  // A scan that opens its source at once (as a TC39 helper holds it) has it to close whenever its result is closed.
  const eager = (xs: Iterable<number>): IterableIterator<number> => {
    const it = xs[Symbol.iterator]();
    let sum: number | undefined;
    let ended = false;
    const done = (): IteratorResult<number> => ((ended = true), { value: undefined, done: true });
    return {
      [Symbol.iterator]() {
        return this;
      },
      next() {
        if (ended) return done();
        if (sum === undefined) return { value: (sum = 0), done: false };
        const n = it.next();
        return n.done ? done() : { value: (sum += n.value), done: false };
      },
      return() {
        if (!ended) it.return?.();
        return done();
      },
    };
  };
  const closing = specOf([numbers], numbers, ({ pulledAsResult }) => [pulledAsResult({ pulls: scanned, closesUnstarted: true })]);
  assert.equal(checkSpec(closing, eager, { seed: 1, trials: 500 }).passed, true);
  assert.equal(checkSpec(scanSpec, eager, { seed: 1, trials: 500 }).passed, false);
});

// Depth 2 (the default is 4, to 3,000 cases): the proposals are the same there.
describe('inferSpec over iterables', () => {
  test("take's inferred spec over iterables is its twin in combinators, which take passes and its buggy versions fail", { timeout: 120_000 }, () => {
    const inferred = inferSpec([number, numbers], numbers, take, { trials: 400, depth: 2 });
    assert.ok(inferred.proposals.length > 0, inferred.message);
    const best = inferred.proposals[0]!;
    assert.equal(best.code, "specOf(args, result, ({ whenDemanded, onlyWhen, pulledAsResult }) => [\n  whenDemanded,\n  onlyWhen((_d, n) => n > 0, pulledAsResult({ limit: (n) => n })),\n], ['n', 'it'])");
    assert.deepEqual(best.sentences, ['n is forced whenever the result is demanded', 'it only when n > 0: pulled as many times as the result, closed when the result is closed or has taken n, to its end when the result ended sooner']);
    assert.equal(checkSpec(best.spec, take, { seed: 1 }).passed, true);
    assert.equal(checkSpec(best.spec, takePullsOneMore, { seed: 1 }).passed, false);
    assert.equal(checkSpec(best.spec, takeWithoutClosing, { seed: 2 }).passed, false);
  });

  test('zip over iterables is inferred in lockstep, and a TC39 helper closes its source when closed before its first pull', { timeout: 120_000 }, () => {
    assert.match(inferSpec([numbers, numbers], pairs, zip, { trials: 400, depth: 2 }).proposals[0]!.code, /\[\n {2}pulledInLockstep\(\),\n {2}pulledInLockstep\(\),\n\]/);
    const map = inferSpec([numbers], numbers, operators.map!.model(tc39) as never, { trials: 400, depth: 2, names: ['xs'] });
    assert.match(map.proposals[0]!.code, /\[\n {2}pulledAsResult\(\{ closesUnstarted: true \}\),\n\]/);
  });
});
