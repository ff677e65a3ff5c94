/**
 * Every iterator example is a test: its correct version passes its spec, and its buggy one fails
 * with the small counterexample docs/iterators.md shows (inputs, then actual and predicted
 * demands on each input).
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { iterExamples } from './catalog.ts';
import { offThread } from '../../test/fixtures/off-thread.ts';
import { EXAMPLE_RUNS, exampleRun, type ExampleRun } from '../../test/fixtures/iter-example-runs.ts';
import { firstEven, firstEvenLeaking, linesOf, Resource } from './resource.ts';

/** What the docs show of each buggy version's counterexample: inputs, demand on the result, then per input actual → predicted. */
const expected: Record<string, string> = {
  take: '0, iter [] | [] | 0 → 0, [] → _',
  'take (closing)': '0, iter [] | [] | 0 → 0, taken → _',
  zip: 'iter [], iter [] | [] | [] → [], taken → return()',
  flatMap: 'iter [0] | 0 : _ | 0 : [] → 0 : _',
  'chunk 2': 'iter [0, …] | (0, 0) : _ | 0 : 0 : 0 : _ → 0 : 0 : _',
  'firstEven (a source holding a resource)': 'iter [0] | 0 | 0 : _ → 0 : return()',
  'take over async iterables': '0, async iter [] | [] | 0 → 0, [] → _',
  'merge of two async iterables': 'async iter [0, …], async iter [] | 0 : return() | 0 : 0 : _ → 0 : 0 : return(), [] → []',
};

describe('the iterator examples', () => {
  for (const e of iterExamples) {
    test(`${e.name}: the correct version passes, the one that ${e.bug} fails with a small counterexample`, { timeout: 60_000 }, async () => {
      // The async ones run off this thread, where node:test follows every promise (test/fixtures/off-thread.ts).
      const { good, bad } = e.async ? await offThread<ExampleRun>(EXAMPLE_RUNS, 'exampleRun', e.name) : await exampleRun(e.name);
      assert.equal(good.passed, true, good.message);
      assert.equal(bad.passed, false);
      assert.equal(bad.shown, expected[e.name], bad.message);
    });
  }

  test("a source's finally runs when firstEven closes it, and never when the leaking one stops", () => {
    const r = new Resource();
    assert.equal(firstEven(linesOf(r, [1, 2, 3])), 2);
    assert.deepEqual([r.opened, r.released], [1, 1]);
    const leak = new Resource();
    assert.equal(firstEvenLeaking(linesOf(leak, [1, 2, 3])), 2);
    assert.deepEqual([leak.opened, leak.released], [1, 0]);
  });
});
