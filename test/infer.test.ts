import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  boolean, checkSpec, inferSpec, lazy, lazyOf, list, List, number, specOf, tuple,
  type Inference, type InferOptions, type Lazy, type LazyList, type Spec,
} from '../src/index.ts';
import { take, takePrime } from '../examples/take.ts';
import { append, elementFn, map, mapStrict, zip, type Pair } from '../examples/list-specs.ts';
import { and, andStrict, filter, predicate } from '../examples/and-filter.ts';
import { rot, rotNaive } from '../examples/okasaki-queue/rot.ts';

const numbers = list(number);
// 500 exhaustive cases tell the candidates apart as 1,500 did: the same proposals (rot's closest candidates ranked otherwise).
const quick = { trials: 200, maxCases: 500 } satisfies InferOptions;

// Twins stricter than the functions of the examples that have none: each measures a list first.
const appendStrict = (xs: LazyList<number>, ys: LazyList<number>): LazyList<number> => lazy(() => (List.length(ys), append(xs, ys).force()));
const zipStrict = (xs: LazyList<number>, ys: LazyList<number>): LazyList<Pair<number, number>> => lazy(() => (List.length(xs), zip(xs, ys).force()));
const filterStrict = (p: (x: number) => boolean, xs: LazyList<number>): LazyList<number> => lazy(() => (List.length(xs), filter(p, xs).force()));

/** take's inference, made once: three tests read it. */
let takeInference: Inference<[Lazy<number>, LazyList<number>], LazyList<number>> | undefined;
const takeInferred = () => (takeInference ??= inferSpec([lazyOf(number), numbers], numbers, take, quick));

/** The first proposal inferred for `f` (take's, made once): it passes `f` and fails `twin`, on random trials. */
function inferredPassesAndCatches<A extends readonly unknown[], R>(s: { args: Spec<A, R>['args']; result: Spec<A, R>['result'] }, f: (...args: A) => R, twin: (...args: A) => R): string {
  const inferred = (f === (take as unknown) ? takeInferred() : inferSpec(s.args, s.result, f as never, quick)) as Inference<A, R>;
  assert.ok(inferred.proposals.length > 0, inferred.message);
  const proposed = inferred.proposals[0]!.spec;
  const own = checkSpec(proposed, f, { seed: 1, trials: 300 });
  assert.equal(own.passed, true, own.message);
  assert.equal(checkSpec(proposed, twin, { seed: 1, trials: 300 }).passed, false, `the twin passes ${inferred.proposals[0]!.code}`);
  return inferred.message;
}

test("take's inferred spec is its spec in the spec language, said in a sentence per argument", () => {
  const inferred = takeInferred();
  // The random trials, then the exhaustive cases.
  assert.equal(inferred.observations, quick.trials + quick.maxCases);
  const best = inferred.proposals[0]!;
  assert.equal(best.code, "specOf(args, result, ({ whenDemanded, asResult }) => [\n  whenDemanded,\n  asResult({ stopsEarly: (n, xs) => n.force() <= List.length(xs) }),\n], ['n', 'xs'])");
  assert.deepEqual(best.sentences, ['n is forced whenever the result is demanded', "xs as far as the result, but an unevaluated tail in place of the result's [] when n is at most its length"]);
  assert.match(inferred.message, /^Observed \d+ cases\.\nProposal 1:\nspecOf\(args, result/);
});

test('the proposed code, pasted, is a spec that passes the function', () => {
  const code = takeInferred().proposals[0]!.code;
  const args = [lazyOf(number), numbers];
  const pasted = new Function('specOf', 'List', 'args', 'result', `return ${code};`)(specOf, List, args, numbers) as Spec<[never, LazyList<number>], LazyList<number>>;
  assert.equal(checkSpec(pasted, take as never, { seed: 3 }).passed, true);
  assert.equal(checkSpec(pasted, takePrime as never, { seed: 3 }).passed, false);
});

test("the inferred specs of take, take', map, and, append, zip, filter and rot_naive pass their functions and catch their twins", { timeout: 120_000 }, () => {
  inferredPassesAndCatches({ args: [lazyOf(number), numbers], result: numbers }, take, takePrime);
  inferredPassesAndCatches({ args: [lazyOf(number), numbers], result: numbers }, takePrime, take);
  assert.match(inferredPassesAndCatches({ args: [elementFn, numbers], result: numbers }, map, mapStrict), /forcedWhen\(anyElementDemanded\),\n  asResult\(\{ elements: \(dy, x, f\) => specify1\(f, dy, x\) \}\)/);
  assert.match(inferredPassesAndCatches({ args: [list(boolean)], result: boolean }, and, andStrict), /shortCircuits\(false\)/);
  assert.match(inferredPassesAndCatches({ args: [numbers, numbers], result: numbers }, append, appendStrict), /resultFrom\(\(xs\) => List\.length\(xs\)\)/);
  assert.match(inferredPassesAndCatches({ args: [numbers, numbers], result: list(tuple(lazyOf(number), lazyOf(number))) }, zip, zipStrict), /atMost: \(xs\) => List\.length\(xs\)/);
  assert.match(inferredPassesAndCatches({ args: [predicate, numbers], result: numbers }, filter, filterStrict), /untilFound/);
  // rot_naive's inferred spec is rot_simple_spec, which the lazier rot fails (paper, figure 5)
  assert.match(inferredPassesAndCatches({ args: [numbers, numbers], result: numbers }, rotNaive, rot), /resultFrom\(\(fs\) => List\.length\(fs\), \{ reversed: true \}\)/);
});

test('when no combinator spec fits (rot, which reverses its second list a cell at a time), it says so with two cases that rule out the closest candidates', () => {
  const inferred = inferSpec([numbers, numbers], numbers, rot, quick);
  assert.deepEqual(inferred.proposals, []);
  const lines = inferred.message.split('\n');
  assert.match(lines[1]!, /^No combinator spec fits: nothing predicts what rot forces of bs in every case\. Its closest candidates, and a case that rules each out:$/);
  assert.equal(lines.length, 4);
  for (const line of lines.slice(2)) assert.match(line, /^  [a-zA-Z]+.*: on inputs .* under the result demand .*, it forced .* where this predicts .*$/);
});

test('without names, a one-parameter arrow without parentheses, as esbuild prints it, is named by its parameter as a parenthesised one is', () => {
  // Made from source text, so that the arrow is written as esbuild (tsx, vitest) emits it, whatever this file's transform prints.
  const bare = new Function('return xs=>xs')() as (xs: LazyList<number>) => LazyList<number>;
  const parenthesised = new Function('return (xs) => xs')() as (xs: LazyList<number>) => LazyList<number>;
  for (const id of [bare, parenthesised]) {
    const inferred = inferSpec([numbers], numbers, id, quick);
    assert.match(inferred.proposals[0]!.sentences[0]!, /^xs /, String(id));
  }
});

test('names given are used in the code and the sentences; a misspelt option or a wrong number of names is refused', () => {
  const inferred = inferSpec([lazyOf(number), numbers], numbers, take, { ...quick, names: ['count', 'items'] });
  assert.match(inferred.proposals[0]!.sentences[1]!, /^items as far as the result, .* when count is at most its length$/);
  assert.throws(() => inferSpec([lazyOf(number), numbers], numbers, take, { names: ['n'] }), /names: 1 names given for 2 arguments/);
  assert.throws(() => inferSpec([lazyOf(number), numbers], numbers, take, { trails: 3 } as never), /unknown option "trails" \(did you mean trials\?\)/);
});

