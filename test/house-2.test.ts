/**
 * What the second round of mends of the house (issue 19, "a house that reads in one look") changed
 * where a caller can see it: a fast-check property of a spec whose shapes are async is refused as the
 * synchronous checks refuse it, not run to blame the function.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { strictCases, strictProperty } from '../src/spec/property.ts';
import { takeAsyncSpec } from '../examples/iterators/take-async.ts';

test('a fast-check property of a spec whose shapes are async is refused, pointing to the asynchronous checks, as checkSpec refuses it', () => {
  const plain = ((_n: number, xs: unknown) => xs) as never;
  const refused = { name: 'TypeError', message: /^the spec's shape AsyncIterable<number> is async: its check is asynchronous\. Use checkSpecAsync or assertSpecAsync/ };
  assert.throws(() => strictProperty(takeAsyncSpec, plain), refused);
  assert.throws(() => strictCases(takeAsyncSpec, plain), refused);
});
