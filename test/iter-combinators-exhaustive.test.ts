/**
 * The spec language over sync iterables, exhaustively: each sync iterator example's hand-written
 * spec and its twin in combinators (examples/iterators/combinators.ts), and the TC39 helpers'
 * model specs and theirs, predict the same demands on every case up to a depth (sources and
 * consumers of the series, pruned as the exhaustive mode prunes), and the exhaustive mode fails
 * the same buggy versions with the same report. The async examples' twins are compared on random
 * cases in test/iter-combinators.test.ts.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { observeDetailed } from '../src/demand/observe.ts';
import { number } from '../src/demand/primitives.ts';
import { showInput } from '../src/spec/report.ts';
import { specOf } from '../src/spec/combinators.ts';
import { enumerateCases } from '../src/engine/enumerate.ts';
import { checkSpecExhaustive } from '../src/index.ts';
import { iterable } from '../src/iter/index.ts';
import { iterExamples } from '../examples/iterators/catalog.ts';
import { chunkByCombinators, flatMapByCombinators, takeByCombinators, zipByCombinators } from '../examples/iterators/combinators.ts';
import { modelSpec, operators } from './fixtures/library-ops.ts';
import { difference, predicted, type AnySpec } from './fixtures/twin-predictions.ts';
import { generatorLike, tc39, type Model } from './fixtures/tc39-iterators.ts';

/**
 * Every case of `fn` up to `depth`: how many, and those where the two specs predict different
 * demands, drawn as `inputs | result demand => one's | other's`. The specs predict within the
 * case's run, so that what they read of a source is refined as what the function pulls is.
 */
function comparePredictions(one: AnySpec, other: AnySpec, fn: (...args: any[]) => unknown, depth: number): { cases: number; differ: string[] } {
  const differ: string[] = [];
  let cases = 0;
  const shapes = { inputs: one.args, result: one.result };
  const run = (inputs: unknown[], context: (v: unknown) => void) => {
    const obs = observeDetailed(context, fn, inputs, shapes);
    return { result: obs.result, a: predicted(one, obs.result, inputs), b: predicted(other, obs.result, inputs) };
  };
  for (const c of enumerateCases(one.args, depth, run, { result: one.result })) {
    cases++;
    const { result, a, b } = c.outcome;
    const d = difference(() => c.total().map((v, k) => showInput(one as never, v, k)).join(', '), result, a, b);
    if (d !== undefined) differ.push(d);
  }
  return { cases, differ };
}

/**
 * The depth of each comparison: 2 for two sources (zip's 287 cases, where depth 3 has 4,529 and
 * depth 4 some 150,000): each change to pulledInLockstep or zipSpec tried that depth 3 caught,
 * depth 2 catches too. 4 for take and flatMap (take's 2,997 cases): a source read short of a third
 * element left open, or one pull fewer where more than two are needed (changes to pulledAsResult),
 * are seen there only from depth 4. 3 for the others (drop, map, filter, chunks): each
 * change to pulledAsResult tried that depth 4 caught there, depth 3 catches too.
 */
const depthOf = (name: string) => (name.includes('zip') ? 2 : name.startsWith('take') || name.startsWith('flatMap') ? 4 : 3);

// firstEven's digits come from a fast-check arbitrary, with no series: its twin is compared on random cases.
const twins: Readonly<Record<string, AnySpec>> = {
  take: takeByCombinators,
  'take (closing)': takeByCombinators,
  zip: zipByCombinators,
  flatMap: flatMapByCombinators,
  'chunk 2': chunkByCombinators,
};

describe('the sync iterator examples in the spec language, exhaustively', () => {
  for (const e of iterExamples) {
    const twin = twins[e.name];
    if (twin === undefined) continue;
    const depth = depthOf(e.name);
    test(`${e.name}: the combinator spec predicts the hand-written spec's demands on every case up to depth ${depth} of the correct and the buggy version`, { timeout: 120_000 }, () => {
      for (const fn of [e.correct, e.buggy]) {
        const { cases, differ } = comparePredictions(e.spec, twin, fn, depth);
        assert.ok(cases > 20, `${cases} cases`);
        assert.deepEqual(differ.slice(0, 5), []);
      }
    });

    test(`${e.name}: under the combinator spec, the exhaustive mode passes the correct version and fails the buggy one with the hand-written spec's report`, { timeout: 120_000 }, () => {
      const good = checkSpecExhaustive(twin, e.correct as never, { depth });
      assert.equal(good.passed, true, good.message);
      const bad = checkSpecExhaustive(twin, e.buggy as never, { depth });
      assert.equal(bad.passed, false);
      assert.equal(bad.message, checkSpecExhaustive(e.spec, e.buggy as never, { depth }).message);
    });
  }
});

/** The twin of each operator's model spec, for a helper (closesUnstarted) or a generator. */
function helperTwins(closesUnstarted: boolean): Readonly<Record<string, AnySpec>> {
  const op = (name: string) => operators[name]!;
  const even = (x: number) => x % 2 === 0;
  return {
    take: specOf(op('take').args as [typeof number, typeof numbers], numbers, ({ whenDemanded, pulledAsResult }) => [whenDemanded, pulledAsResult({ limit: (n) => n, closesUnstarted })]),
    drop: specOf(op('drop').args as [typeof number, typeof numbers], numbers, ({ whenDemanded, pulledAsResult }) => [whenDemanded, pulledAsResult({ pulls: (k, n) => n + k, closesUnstarted })]),
    map: specOf([numbers], numbers, ({ pulledAsResult }) => [pulledAsResult({ closesUnstarted })]),
    filter: specOf(op('filter').args as [typeof numbers], numbers, ({ pulledAsResult }) => [pulledAsResult({ yields: (x) => (even(x) ? 1 : 0), closesUnstarted })]),
    flatMap: specOf([numbers], numbers, ({ pulledAsResult }) => [pulledAsResult({ yields: () => 2, closesUnstarted })]),
    zip: specOf([numbers, numbers], op('zip').result, ({ pulledInLockstep }) => [pulledInLockstep({ closesUnstarted }), pulledInLockstep({ closesUnstarted })]),
    'chunks of 2': specOf([numbers], op('chunks of 2').result, ({ pulledAsResult }) => [pulledAsResult({ pulls: (k) => 2 * k, closesUnstarted })]),
  };
}
const numbers = iterable(number);

for (const [model, name, closesUnstarted] of [[tc39, 'TC39 helper', true], [generatorLike, 'generator', false]] as [Model, string, boolean][]) {
  describe(`the ${name} models' specs in the spec language, exhaustively`, () => {
    for (const [op, twin] of Object.entries(helperTwins(closesUnstarted))) {
      test(`${op}: the combinator spec predicts what the ${name} model does on every case up to depth ${depthOf(op)}`, { timeout: 120_000 }, () => {
        const operator = operators[op]!;
        const { cases, differ } = comparePredictions(modelSpec(operator, model), twin, operator.model(model), depthOf(op));
        assert.ok(cases > 20, `${cases} cases`);
        assert.deepEqual(differ.slice(0, 5), []);
      });
    }
  });
}
