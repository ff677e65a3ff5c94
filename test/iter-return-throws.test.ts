/**
 * Sources whose `return` throws: generated, printed, shrunk; a function closing one passes its
 * error on (TC39's IteratorClose: an error from `return` propagates when the closing is not itself
 * caused by a throw), which observation records as the function's behaviour: the source closed
 * (`return()`), the result's pull ending in `⊥`, a consumer's `return()` passing the error on.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { number } from '../src/demand/primitives.ts';
import type { Shape } from '../src/demand/shape-types.ts';
import { spec } from '../src/spec/spec.ts';
import { normalize, observeDetailed, toContext } from '../src/demand/observe.ts';
import { toDemand } from '../src/demand/convert.ts';
import { prettyDemand, prettyValue } from '../src/demand/print.ts';
import { generateInputs } from '../src/engine/generate.ts';
import { withArbitrary } from '../src/engine/fast-check-bridge.ts';
import { shrinkValue } from '../src/engine/shrink.ts';
import { Seed } from '../src/engine/random.ts';
import { checkSpec } from '../src/checks.ts';
import { AsyncSource, pulls, Source, SourceError, type SourcePlan } from '../src/iter/index.ts';
import { numbers, take, takePullsOneMore, takeSource } from '../examples/iterators/take.ts';
import { observeDetailedAsync } from '../src/index.ts';
import { asyncNumbers, takeAsync } from '../examples/iterators/take-async.ts';

const throwingReturn = (elements: number[], more: Partial<SourcePlan<number>> = {}) => new Source({ elements, infinite: false, hasReturn: true, returnThrows: true, ...more });

function run(context: Parameters<typeof observeDetailed>[0], f: (...a: any[]) => unknown, ...inputs: unknown[]) {
  const o = observeDetailed(context, f, inputs, { inputs: inputs.map((x) => (typeof x === 'number' ? number : numbers)), result: numbers });
  return { result: prettyDemand(o.result), inputs: o.inputs.map((d) => prettyDemand(d)), error: o.error?.thrown };
}

describe('sources whose return throws', () => {
  test('are generated, printed so, and shrink to a return that does not throw', () => {
    let seen: Source<number> | undefined;
    for (let i = 0; i < 300 && seen === undefined; i++) {
      const [source] = generateInputs([numbers as Shape<unknown>], Seed.of(i).stream(), 10) as [Source<number>];
      if (source.plan.returnThrows) seen = source;
    }
    assert.ok(seen, 'a source whose return throws in 300');
    assert.ok(seen.plan.hasReturn);
    assert.equal(prettyValue(throwingReturn([1, 2]), numbers), 'iter [1, 2] return throws');
    const shown = [...shrinkValue(throwingReturn([1, 2]) as Iterable<number>, numbers)].map((s) => prettyValue(s, numbers));
    assert.equal(shown[0], 'iter [1, 2]');
    assert.ok(shown.includes('iter [1] return throws'), shown.join(' | '));
  });

  test('run their finally, then throw a SourceError naming the closing', () => {
    const it = throwingReturn([1, 2])[Symbol.iterator]();
    it.next();
    assert.throws(() => it.return!(), (err: unknown) => err instanceof SourceError && /return\(\) threw/.test(err.message));
    assert.deepEqual(it.next(), { done: true, value: undefined });
  });

  test('closed by a for-of that stops, record return() and pass the error on: to the result as ⊥, through the consumer\'s return()', () => {
    assert.deepEqual(run(normalize, take, 1, throwingReturn([7, 8])), { result: '7 : ⊥', inputs: ['1', '7 : return()'], error: undefined });
    assert.deepEqual(run(toContext(toDemand(pulls([7], 'return'), numbers)), take, 3, throwingReturn([7, 8])), { result: '7 : return()', inputs: ['3', '7 : return()'], error: undefined });
    // A throw() into the result closes the source with a throw: the error from return is dropped, as for-of does.
    assert.deepEqual(run(toContext(toDemand(pulls([7], 'throw'), numbers)), take, 3, throwingReturn([7, 8])), { result: '7 : throw()', inputs: ['3', '7 : return()'], error: undefined });
  });

  test('async: closed by a for await that stops, record return() and pass the rejection on as ⊥', async () => {
    const source = new AsyncSource({ elements: [7, 8], infinite: false, hasReturn: true, returnThrows: true, delays: [] });
    const o = await observeDetailedAsync(normalize, takeAsync, [1, source], { inputs: [number, asyncNumbers], result: asyncNumbers });
    assert.deepEqual([prettyDemand(o.result), prettyDemand(o.inputs[1]!), o.error], ['7 : ⊥', '7 : return()', undefined]);
  });

  test('take gets its verdict over them: the correct one passes, the one pulling n+1 fails', () => {
    const closingThrows = withArbitrary(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 4 }).map((xs) => throwingReturn(xs) as Iterable<number>), numbers);
    const s = spec([number, closingThrows], numbers, (predict, d, n, xs) => predict(n, takeSource(d, n, xs)));
    const ok = checkSpec(s, take, { trials: 300, seed: 1 });
    assert.equal(ok.passed, true, ok.message);
    const bad = checkSpec(s, takePullsOneMore, { trials: 300, seed: 1 });
    assert.equal(bad.passed, false);
    assert.match(bad.message, /return throws/);
  });
});
