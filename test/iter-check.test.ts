/**
 * Checking specs of functions over iterables: take's spec reads like take's over lists; a take
 * that pulls one element too many, or does not close its source when it stops early, fails with
 * a small counterexample drawn with the pulls and the closing; one that pulls an infinite source
 * for ever is reported as divergent. Sources and consumers are generated and shrunk.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { number } from '../src/demand/primitives.ts';
import type { Shape } from '../src/demand/shape-types.ts';
import { spec } from '../src/spec/spec.ts';
import fc from 'fast-check';
import { generateInputs } from '../src/engine/generate.ts';
import { withArbitrary } from '../src/engine/fast-check-bridge.ts';
import { fromDemand } from '../src/demand/convert.ts';
import { shrinkValue } from '../src/engine/shrink.ts';
import { Seed } from '../src/engine/random.ts';
import { prettyValue } from '../src/demand/print.ts';
import { asyncIterable, endOf, iterator, pullCount, Source, untouched, type SourcePlan } from '../src/iter/index.ts';
import { finiteMapSpec, mapNoReturn, mapNoReturnCheck, takeCheck, takeWithoutClosingCheck } from './fixtures/iter-checks.ts';
import { numbers, take, takePullsOneMore, takeSource, takeSpec, takeWithoutClosing } from '../examples/iterators/take.ts';
import { assertSpecExhaustive, checkSpec, strictCheckSpecExact } from '../src/checks.ts';

describe('checking take over iterables', () => {
  test('a generator take meets its spec', () => {
    strictCheckSpecExact(takeSpec, take, { trials: 300 });
  });

  test('a take that pulls n+1 fails with a small counterexample showing the extra pull', () => {
    const r = checkSpec(takeSpec, takePullsOneMore, { seed: 1, trials: 300 });
    assert.equal(r.passed, false);
    const c = r.counterexample!;
    assert.ok((c.inputs[0] as number) <= 1, `n shrunk: ${String(c.inputs[0])}`);
    assert.ok(pullCount(fromDemand(c.actual[1]!, numbers)) + (endOf(fromDemand(c.actual[1]!, numbers)) === 'open' ? 0 : 1) > pullCount(fromDemand(c.predicted[1]!, numbers)), r.message);
    assert.ok(r.shrinks < 50, `${r.shrinks} shrinks: each should make the case smaller`);
  });

  test('a take that does not close its source when it stops early fails, the closing shown in the diagram', () => {
    const r = checkSpec(takeSpec, takeWithoutClosing, { seed: 2, trials: 300 });
    assert.equal(r.passed, false);
    assert.match(r.message, /Spec's input demands/);
    // Its smallest case: take 0 takes its source's iterator and leaves it open (taken), where take takes none.
    assert.match(r.message, /taken/);
    assert.ok((r.counterexample!.inputs[0] as number) <= 2);
  });

  test('a function pulling an infinite source for ever is reported as divergent', { timeout: 60_000 }, () => {
    const endless = withArbitrary(fc.constant(new Source({ elements: [1, 2], infinite: true, hasReturn: true }) as Iterable<number>), numbers);
    const s = spec([number, endless], numbers, (predict, d, n, xs) => predict(n, takeSource(d, n, xs)));
    const r = checkSpec(s, (n: number, it: Iterable<number>) => take(n, [...it]), { seed: 3, trials: 20, forceBudget: 20_000 });
    assert.equal(r.passed, false);
    assert.match(r.message, /probably diverges/);
  });

  test('with workers, take passes and a take not closing its source fails, showing the iterator it took and left open', { timeout: 120_000 }, async () => {
    assert.equal((await checkSpec(takeCheck, { workers: 2, trials: 100 })).passed, true);
    const r = await checkSpec(takeWithoutClosingCheck, { workers: 2, trials: 200, seed: 1 });
    assert.equal(r.passed, false);
    assert.match(r.message, /taken/);
  });

  test('with workers, a shrink that runs back to the case it shrinks is no shrink, as without: a map not closing its source shrinks as in this thread, and stops', { timeout: 120_000 }, async () => {
    // Its smallest case pulls the result once, an element coming with the pull (see mapNoReturn): a take's, at n = 0, pulls none.
    const r = await checkSpec(mapNoReturnCheck, { workers: 2, trials: 100, seed: 2 });
    const here = checkSpec(finiteMapSpec, mapNoReturn, { trials: 100, seed: 2 });
    assert.equal(r.passed, false);
    assert.equal(r.shrinks, here.shrinks, r.message);
    assert.ok(here.shrinks < 50, `${here.shrinks} shrinks: each should make the case smaller`);
  });

  test('the synchronous exhaustive mode refuses an async iterable, pointing to its asynchronous form', () => {
    const countSpec = spec([asyncIterable(number)], number, (predict) => predict(untouched));
    assert.throws(() => assertSpecExhaustive(countSpec, (_xs: AsyncIterable<number>) => 0, { depth: 2 }), (err: Error) => err.name === 'TypeError' && /AsyncIterable<number> is async.*checkSpecExhaustiveAsync/.test(err.message));
  });

  test('takes over one-shot iterators check alike', () => {
    const takeIterSpec = spec([number, iterator(number)], numbers, (predict, d, n, xs) => predict(n, takeSource(d, n, xs)));
    strictCheckSpecExact(takeIterSpec, (n: number, it: Iterator<number>) => take(n, { [Symbol.iterator]: () => it }), { trials: 200 });
  });
});

describe('random sources', () => {
  test('are finite and infinite, throw at a position, and may have no return', () => {
    const kinds = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const [source] = generateInputs([numbers as Shape<unknown>], Seed.of(i).stream(), 10) as [Source<number>];
      assert.ok(source instanceof Source);
      const { infinite, throwAt, hasReturn } = source.plan;
      kinds.add(infinite ? 'infinite' : 'finite').add(throwAt === undefined ? 'no throw' : 'throws').add(hasReturn ? 'return' : 'no return');
    }
    assert.deepEqual([...kinds].sort(), ['finite', 'infinite', 'no return', 'no throw', 'return', 'throws']);
  });

  test('shrink to no throw or an earlier one, with return, finite, fewer and smaller elements', () => {
    const shrinks = (plan: SourcePlan<number>) => [...shrinkValue(new Source(plan) as Iterable<number>, numbers)].map((s) => prettyValue(s, numbers));
    const throwing = { elements: [5, 6, 7], infinite: false, throwAt: 2, hasReturn: false };
    assert.equal(prettyValue(new Source(throwing), numbers), 'iter [5, 6, throw] without return');
    const shown = shrinks(throwing);
    for (const smaller of ['iter [5, 6] without return', 'iter [5, 6, throw]', 'iter [throw] without return', 'iter [5, throw] without return', 'iter [6, throw] without return', 'iter [0, 6, throw] without return']) {
      assert.ok(shown.includes(smaller), `${smaller} in ${shown.join(' | ')}`);
    }
    assert.equal(new Set(shown).size, shown.length, `no candidate twice: ${shown.join(' | ')}`);
    assert.deepEqual(shrinks({ elements: [5], infinite: true, hasReturn: true }).slice(0, 2), ['iter [5]', 'iter [0, …]']);
  });

  test('that throw are written in full up to their throw: an infinite one never throws past its elements', () => {
    for (let i = 0; i < 300; i++) {
      const [source] = generateInputs([numbers as Shape<unknown>], Seed.of(i).stream(), 10) as [Source<number>];
      const { elements, infinite, throwAt } = source.plan;
      if (throwAt !== undefined) assert.ok(!infinite && throwAt <= elements.length, prettyValue(source, numbers));
    }
  });
});
