/**
 * iter-ops reads ahead, as run: its `waitRace(n)` pulls elements of its source beyond
 * those its result gave, where an operator passing elements on one by one (a map) pulls as many
 * as its result gave. Checked against that spec ("pulls no more"): the shrunk counterexample is
 * the one docs/iterators.md reports.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { offThread } from './fixtures/off-thread.ts';
import { ITER_OPS_RUNS, type oneByOneCheck } from './fixtures/iter-ops-runs.ts';

type Run = Awaited<ReturnType<typeof oneByOneCheck>>;

// The checks run off this thread, where node:test follows every promise (test/fixtures/off-thread.ts); the spec is in test/fixtures/iter-ops-runs.ts.
test('iter-ops waitRace(3) pulls elements of its source its result has not given', { timeout: 120_000 }, async () => {
  const map = await offThread<Run>(ITER_OPS_RUNS, 'oneByOneCheck', 'map');
  assert.equal(map.passed, true, map.message);
  const r = await offThread<Run>(ITER_OPS_RUNS, 'oneByOneCheck', 'waitRace');
  assert.equal(r.passed, false);
  assert.deepEqual(r.shown, ['async iter [0]', '0 : _', '0 : []', '0 : _']);
});
