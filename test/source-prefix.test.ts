import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Source } from '../src/iter/index.ts';
import { sourcePrefix } from '../src/iter/read.ts';

test('a spec reads as many elements of a generated source that never ends as it asks, past 10,000; only a read to its end stops there', () => {
  const endless = new Source({ elements: [0, 1], infinite: true, hasReturn: true });
  const far = sourcePrefix(endless, 20_000);
  assert.equal(far.values.length, 20_000);
  assert.equal(far.then, 'more');
  assert.equal(far.values[19_999], 1);
  // "To its end", which never comes: a bounded read, a mismatch to report rather than a spec that never returns.
  assert.equal(sourcePrefix(endless, Infinity).values.length, 10_000);
  assert.equal(sourcePrefix(endless, Infinity, () => false).then, 'more');
});

test("sourcePrefix passes on what the spec's enough throws, over any source, where over one not generated it read it as the source's throw", () => {
  const broken = () => {
    throw new RangeError('the spec is broken');
  };
  for (const xs of [[1, 2, 3], new Source({ elements: [1, 2, 3], infinite: false, hasReturn: true })]) assert.throws(() => sourcePrefix(xs, Infinity, broken), /the spec is broken/);
  assert.deepEqual(sourcePrefix(new Source({ elements: [1, 2], infinite: false, hasReturn: true, throwAt: 1 }), Infinity), { values: [1], then: 'threw' });
});
