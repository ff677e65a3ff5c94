/**
 * The exhaustive mode over iterables: sources are enumerated up to a depth (a source of k pulls
 * has depth k, as a list of k cells; its pulls are holes refined only when the function pulls
 * them), and the contexts consume an iterable result pull by pull, then leave it or close it.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { number } from '../src/demand/primitives.ts';
import { prettyDemand, prettyValue } from '../src/demand/print.ts';
import { series } from '../src/engine/series.ts';
import { checkSpecExhaustive } from '../src/checks.ts';
import { numbers, take, takePullsOneMore, takeSpec, takeWithoutClosing } from '../examples/iterators/take.ts';

describe('the exhaustive mode over iterables', () => {
  test('enumerates sources by depth: their pulls, ending done or throwing, closable or not', () => {
    const shown = series(numbers, 1).map((s) => prettyValue(s, numbers));
    for (const s of ['iter []', 'iter [throw]', 'iter [0]', 'iter [0, throw]', 'iter [] without return', 'iter [] return throws']) assert.ok(shown.includes(s), `${s} in ${shown.join(' | ')}`);
    assert.equal(new Set(shown).size, shown.length, shown.join(' | '));
    const deeper = series(numbers, 2).map((s) => prettyValue(s, numbers));
    for (const s of ['iter [1, throw]', 'iter [-1, 0]', 'iter [0] without return']) assert.ok(deeper.includes(s), `${s} in ${deeper.join(' | ')}`);
    assert.ok(!series(numbers, 0).some((s) => prettyValue(s, numbers).includes('without')), 'a source without return is one level deeper');
  });

  // Depth 3: 598 runs pruned, 2,664 without (depth 4: 3,302 and 25,516).
  test('passes the correct take, refining only the pulls it makes', () => {
    const r = checkSpecExhaustive(takeSpec, take, { depth: 3 });
    assert.equal(r.passed, true, r.message);
    assert.ok(r.totalCases > 50, `${r.totalCases} cases`);
    const unpruned = checkSpecExhaustive(takeSpec, take, { depth: 3, prune: false });
    assert.equal(unpruned.passed, true);
    assert.ok(r.runs * 3 < unpruned.runs, `${r.runs} runs pruned, ${unpruned.runs} without`);
  });

  test('finds take pulling n+1 at depth 0 with the minimal case', () => {
    const r = checkSpecExhaustive(takeSpec, takePullsOneMore, { depth: 4 });
    assert.equal(r.passed, false);
    assert.equal(r.depth, 0);
    const c = r.counterexample!;
    assert.deepEqual(c.inputs.map((v, i) => prettyValue(v, takeSpec.args[i] as never)), ['0', 'iter []']);
    assert.deepEqual([prettyDemand(c.resultDemand), prettyDemand(c.actual[1]!), prettyDemand(c.predicted[1]!)], ['[]', '[]', '_']);
  });

  test('finds take not closing its source, the context closing or pulling the result to n', () => {
    const r = checkSpecExhaustive(takeSpec, takeWithoutClosing, { depth: 4 });
    assert.equal(r.passed, false);
    const c = r.counterexample!;
    assert.deepEqual([prettyValue(c.inputs[0], number), prettyDemand(c.actual[1]!), prettyDemand(c.predicted[1]!)], ['0', 'taken', '_']);
  });
});
