/**
 * strictcheck reaches a verdict on one question by several roads, which must agree: a spec
 * inferred for a function and the checks of it (at random, exhaustively); a function against
 * itself or a mutant as its reference; a random counterexample and its replay alone, by its seed
 * or as a fast-check example; the exhaustive check beside the random one; a check with workers
 * and without; a check and its fast-check property. Each property runs over the corpus of
 * test/fixtures/verdict-agreement-corpus.ts (lists, a tree, numbers, a sync iterable).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  assertStrictCase, checkSpec, checkSpecExhaustive, demandEquals, fromDemand, inferSpec, lazy, lessDefined, observeDetailed, prettyDemand,
  strictExample, strictProperty, toContext, type CheckResult, type Counterexample, type Demand, type ExhaustiveResult, type Spec,
} from '../src/index.ts';
import { showInputs } from '../src/spec/report.ts';
import { sizeOf, trialCase } from '../src/spec/trial-case.ts';
import { defaultOf } from '../src/spec/options.ts';
import { corpus, referenceChecks, sameAs, PAIRS, type Entry, type Pair } from './fixtures/verdict-agreement-corpus.ts';

/** The inference's settings: depth 3 and fewer random cases than its default, to stay cheap. */
const INFER = { depth: 3, trials: 20 } as const;
/** The random checks' settings. */
const RANDOM = { trials: 100, seed: 2, unicode: false } as const;
/** The random checks' maxSize, the default, which their trials' sizes grow to. */
const MAX_SIZE = defaultOf('maxSize');
/** The exhaustive checks' depth: that of the inference. */
const DEPTH = INFER.depth;

type AnyFn = (...args: any[]) => unknown;
/** A question with a verdict: a spec and a function, and what the verdict must be. */
interface Question {
  readonly label: string;
  readonly entry: Entry;
  readonly spec: Spec<any[], any>;
  readonly fn: AnyFn;
  readonly passes: boolean;
  /** For a question of a function against a reference, which pair of the entry it is. */
  readonly pair?: Pair;
}

// Made on first use, as several tests read them: strictcheck's own memoising thunks.
const inferences = lazy(() => new Map(corpus.map((e) => [e.name, inferSpec(e.args as never, e.result, e.fn as never, INFER)])));

/** Each pair of each entry, the function against its reference. */
const referenceQuestions = lazy((): Question[] =>
  corpus.flatMap((entry) =>
    (Object.keys(PAIRS) as Pair[]).map((pair) => ({ label: `${entry.name} ${pair}`, entry, pair, spec: sameAs(entry, entry[PAIRS[pair].reference]), fn: entry[PAIRS[pair].fn], passes: pair === 'self' })),
  ),
);

/** Each entry's first inferred spec against the function and both mutants. */
const inferredQuestions = lazy((): Question[] =>
  corpus.flatMap((entry) => {
    const p = inferences.force().get(entry.name)!.proposals[0];
    if (!p) return [];
    return (['fn', 'overStrict', 'overLazy'] as const).map((which) => ({ label: `${entry.name}'s inferred spec, ${which}`, entry, spec: p.spec, fn: entry[which], passes: which === 'fn' }));
  }),
);

const randomRuns = new Map<Question, CheckResult>();
const exhaustiveRuns = new Map<Question, ExhaustiveResult>();
const randomRun = (q: Question) => randomRuns.get(q) ?? randomRuns.set(q, checkSpec(q.spec as never, q.fn as never, RANDOM)).get(q)!;
const exhaustiveRun = (q: Question) => exhaustiveRuns.get(q) ?? exhaustiveRuns.set(q, checkSpecExhaustive(q.spec as never, q.fn as never, { depth: DEPTH, unicode: false })).get(q)!;

const allQuestions = () => [...referenceQuestions.force(), ...inferredQuestions.force()];
const failing = () => allQuestions().filter((q) => !q.passes);

/** Observes `f` on a counterexample's inputs under its result demand, alone. */
const observeAgain = (e: Entry, f: AnyFn, c: Counterexample): readonly Demand[] => {
  const o = observeDetailed(toContext(c.resultDemand), f, c.inputs, { inputs: e.args, result: e.result });
  assert.equal(o.error, undefined, `${e.name}: observed again, it threw ${String(o.error?.thrown)}`);
  return o.inputs;
};
const shown = (ds: readonly Demand[]) => ds.map((d) => prettyDemand(d)).join(', ');

/** The counterexamples of a failing question, the random check's and the exhaustive check's: failing where the verdicts' agreement says so. */
const counterexamples = (q: Question): [Counterexample, Counterexample] => {
  const r = randomRun(q);
  const x = exhaustiveRun(q);
  assert.ok(r.counterexample && x.counterexample, `${q.label}: no counterexample, ${r.message}\n${x.message}`);
  return [r.counterexample, x.counterexample];
};

test('every spec inferSpec proposes passes checkSpec and the exhaustive check to the depth it was inferred at', () => {
  for (const e of corpus) {
    for (const p of inferences.force().get(e.name)!.proposals) {
      const r = checkSpec(p.spec as never, e.fn as never, RANDOM);
      assert.ok(r.passed, `${e.name}, ${p.code}:\n${r.message}`);
      const x = checkSpecExhaustive(p.spec as never, e.fn as never, { depth: DEPTH, unicode: false });
      assert.ok(x.passed && x.stoppedBy === undefined && x.depth === DEPTH, `${e.name}, ${p.code}:\n${x.message}`);
    }
  }
  const proposed = corpus.filter((e) => inferences.force().get(e.name)!.proposals.length > 0).map((e) => e.name);
  // map (+1) gets none (asResult's element demands are the result's own, and where its result has 1
  // map forced 0), nor leftmost (no combinator walks a tree), nor ifPositive (its y is forced on a
  // condition no combinator names): the property holds of the others.
  assert.deepEqual(proposed, ['take', 'length', 'and', 'doubled', 'append', 'first']);
});

test('the random and the exhaustive check agree on every question of the corpus: a function passes against itself and its inferred spec, each mutant fails both', () => {
  for (const q of allQuestions()) {
    const r = randomRun(q);
    const x = exhaustiveRun(q);
    assert.equal(r.passed, q.passes, `${q.label}, at random:\n${r.message}`);
    assert.equal(x.passed, q.passes, `${q.label}, exhaustively:\n${x.message}`);
  }
});

test('a counterexample against a reference shows a real difference: run again alone, the mutant forces more than the function, or the function less than the mutant, as reported', () => {
  for (const q of referenceQuestions.force().filter((q) => !q.passes)) {
    const pair = PAIRS[q.pair!];
    for (const c of counterexamples(q)) {
      const actual = observeAgain(q.entry, q.entry[pair.fn], c);
      const predicted = observeAgain(q.entry, q.entry[pair.reference], c);
      const where = `${q.label}: inputs ${showInputs(q.spec, c.inputs)} under ${prettyDemand(c.resultDemand)}`;
      assert.ok(actual.every((d, i) => demandEquals(d, c.actual[i]!)), `${where}: reported ${shown(c.actual)}, observed again ${shown(actual)}`);
      assert.ok(predicted.every((d, i) => demandEquals(d, c.predicted[i]!)), `${where}: reported ${shown(c.predicted)}, the reference observed again ${shown(predicted)}`);
      assert.ok(!actual.every((d, i) => demandEquals(d, predicted[i]!)), `${where}: the function and the reference force alike, ${shown(actual)}`);
      // The over-strict mutant is the stricter of the two in both pairs.
      const [lazier, stricter] = pair.fn === 'fn' ? [actual, predicted] : [predicted, actual];
      assert.ok(lazier.every((d, i) => lessDefined(d, stricter[i]!)), `${where}: ${shown(lazier)} is not below ${shown(stricter)}`);
    }
  }
});

test("each pair of the corpus passes the comparison that allows its difference: the over-strict mutant is no lazier than the function, the function no stricter than it", () => {
  for (const q of referenceQuestions.force().filter((q) => !q.passes)) {
    const compare = q.fn === q.entry.fn ? 'noStricter' : 'noLazier';
    const r = checkSpec(q.spec as never, q.fn as never, { ...RANDOM, compare });
    assert.ok(r.passed, `${q.label}, ${compare}:\n${r.message}`);
    const x = checkSpecExhaustive(q.spec as never, q.fn as never, { depth: DEPTH, compare, unicode: false });
    assert.ok(x.passed, `${q.label}, ${compare}:\n${x.message}`);
  }
});

test('a counterexample fails again alone: by its seed, as a strictExample, and as a fast-check example, while the function passes it against itself', () => {
  for (const q of failing()) {
    const r = randomRun(q);
    assert.equal(checkSpec(q.spec as never, q.fn as never, { ...RANDOM, seed: r.seed }).message, r.message, `${q.label}: run again by its seed`);
    for (const c of counterexamples(q)) {
      const example = strictExample(q.spec as never, q.fn as never, c.inputs as never, fromDemand(c.resultDemand) as never);
      assert.throws(() => assertStrictCase(q.spec as never, q.fn as never, example), /strictness check failed/, `${q.label}: replayed alone`);
      const property = fc.check(strictProperty(q.spec as never, q.fn as never), { examples: [[example]], numRuns: 1 });
      assert.ok(property.failed && property.numRuns === 1, `${q.label}: as fast-check's example`);
      // The over-lazy mutant computes other values: its result demand may not fit the function's.
      if (q.fn === q.entry.overLazy) continue;
      const self = sameAs(q.entry, q.entry.fn);
      assertStrictCase(self as never, q.entry.fn as never, strictExample(self as never, q.entry.fn as never, c.inputs as never, fromDemand(c.resultDemand) as never));
    }
  }
});

test('the exhaustive check fails first at the depth of its counterexample, with pruning or without: one depth less passes', () => {
  for (const q of failing()) {
    const x = exhaustiveRun(q);
    assert.ok(!x.passed && x.depth <= DEPTH, `${q.label}:\n${x.message}`);
    if (x.depth > 0) assert.ok(checkSpecExhaustive(q.spec as never, q.fn as never, { depth: x.depth - 1 }).passed, `${q.label}: fails at depth ${x.depth - 1} too`);
    const unpruned = checkSpecExhaustive(q.spec as never, q.fn as never, { depth: DEPTH, prune: false, unicode: false });
    assert.deepEqual([unpruned.passed, unpruned.depth], [false, x.depth], `${q.label}, without pruning:\n${unpruned.message}`);
  }
});

test("assertStrictCase, run on a random check's own cases one by one, fails first at the trial the check reports, and passes them all where it passes, over seeds", () => {
  fc.assert(
    fc.property(fc.constantFrom(...allQuestions()), fc.integer({ min: 1, max: 1_000 }), (q, seed) => {
      const r = checkSpec(q.spec as never, q.fn as never, { ...RANDOM, seed });
      const failsAt = (i: number) => {
        const c = trialCase(q.spec as never, seed, i, sizeOf(i, RANDOM.trials, MAX_SIZE));
        try {
          assertStrictCase(q.spec as never, q.fn as never, c);
          return false;
        } catch (err) {
          if (/^strictness check failed/.test((err as Error).message)) return true;
          throw err;
        }
      };
      const first = Array.from({ length: RANDOM.trials }, (_, i) => i).find(failsAt);
      assert.equal(first === undefined ? 'passed' : `failed at trial ${first + 1}`, r.passed ? 'passed' : `failed at trial ${r.trials}`, `${q.label}, seed ${seed}`);
    }),
    { seed: 1, numRuns: 30 },
  );
});

test("as a fast-check property, a check passes where the function passes, and a failure it finds is the mutant's, failing again alone", () => {
  fc.assert(
    fc.property(fc.constantFrom(...allQuestions()), fc.integer({ min: 1, max: 1_000 }), (q, seed) => {
      const property = fc.check(strictProperty(q.spec as never, q.fn as never), { seed, numRuns: RANDOM.trials });
      assert.ok(!property.failed || !q.passes, `${q.label}, fast-check's seed ${seed}: ${property.errorInstance}`);
      if (!property.failed) return;
      // Alone: a case of its inputs and result demand, not fast-check's (a shrunk case is judged as the shrinker judges it).
      const [c] = property.counterexample!;
      const alone = c.shrunk ? strictExample(q.spec as never, q.fn as never, c.inputs as never, fromDemand(c.shrunk.demand) as never) : c;
      assert.throws(() => assertStrictCase(q.spec as never, q.fn as never, alone), /strictness check failed/, q.label);
    }),
    { seed: 1, numRuns: 30 },
  );
});

test('with workers, a check reaches the verdict, trials, shrinks and report it reaches in this thread, at random and exhaustively', { timeout: 60_000 }, async () => {
  // take's mutants fail at its first trial, length's at its fourth: the workers' stripes then race to it.
  for (const q of referenceQuestions.force().filter((q) => q.entry.name === 'take' || q.entry.name === 'length')) {
    const check = referenceChecks[q.entry.name]![q.pair!];
    const here = randomRun(q);
    const there = await checkSpec(check, { ...RANDOM, workers: 2 });
    assert.deepEqual([there.passed, there.trials, there.shrinks, there.message], [here.passed, here.trials, here.shrinks, here.message], q.label);
    // Exhaustively, take's pairs but one: a failure may stop the other worker, which the next run replaces (a worker's start, 0.5 s of CPU).
    if (q.entry.name !== 'take' || q.pair === 'overLazy') continue;
    const x = exhaustiveRun(q);
    const xThere = await checkSpecExhaustive(check, { depth: DEPTH, unicode: false, workers: 2 });
    assert.deepEqual([xThere.passed, xThere.depth, xThere.message], [x.passed, x.depth, x.message], q.label);
  }
});
