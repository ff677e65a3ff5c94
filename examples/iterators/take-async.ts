/**
 * `take` over async iterables: the same spec as over sync ones (examples/iterators/take.ts), an
 * `async function*` that meets it, and the same bug, pulling element n+1, in async form.
 * Checked with checkSpecAsync / assertSpecAsync, which return promises.
 * @module
 */
import { number } from '../../src/demand/primitives.ts';
import { spec } from '../../src/spec/spec.ts';
import { asyncIterable } from '../../src/iter/index.ts';
import { takeSource } from './take.ts';

/** Re-iterable async sources of numbers. */
export const asyncNumbers = asyncIterable(number);

/** take's spec over async iterables: takeSource, as over sync ones. */
export const takeAsyncSpec = spec([number, asyncNumbers], asyncNumbers, (predict, d, n, xs) => predict(n, takeSource(d, n, xs)));

/** An async generator `take`: `for await` closes the source when it returns. */
export async function* takeAsync<T>(n: number, it: AsyncIterable<T>): AsyncGenerator<T> {
  if (n <= 0) return;
  for await (const x of it) {
    yield x;
    if (--n <= 0) return;
  }
}

/** Pulls element n+1 before it sees it has n. */
export async function* takeAsyncPullsOneMore<T>(n: number, it: AsyncIterable<T>): AsyncGenerator<T> {
  let i = 0;
  for await (const x of it) {
    if (i++ >= n) return;
    yield x;
  }
}
