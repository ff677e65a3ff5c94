/**
 * `merge(xs, ys)` of two async iterables: their elements in the order they arrive. It keeps one
 * `next()` pending on each source, so which source answers first depends on timing: its spec
 * gives the most it may pull from each (one element more than its result's pulls) and where it
 * must close, and is checked with `compare: 'noStricter'` ("pulls no more and closes no later").
 * A `merge` without the `finally` that closes its sources leaves them open when its consumer
 * stops with `break` (vercel/ai #8220: streams not cancelled).
 * @module
 */
import { number } from '../../src/demand/primitives.ts';
import { spec } from '../../src/spec/spec.ts';
import { asyncIterable, closedAfter, endOf, pullCount, pulls, untouched } from '../../src/iter/index.ts';
import { readAsyncSource } from './read-source.ts';

/** Re-iterable async sources of numbers. */
export const asyncNumbers = asyncIterable(number);

/**
 * merge's spec, an upper bound: each source gives at most one element more than the result's k
 * pulls (the one its pending `next()` answered), or runs to its end if shorter; then, unless it
 * ended, it is left open if the result is, and closed otherwise (untouched if the result was
 * closed before its first pull: an async generator closed before it starts runs nothing).
 */
export const mergeSpec = spec([asyncNumbers, asyncNumbers], asyncNumbers, (predict, d, xs, ys) => {
  const k = pullCount(d);
  const end = endOf(d);
  if (k === 0 && (end === 'return' || end === 'throw')) return predict(untouched, untouched);
  const most = (source: AsyncIterable<number>) => {
    const read = readAsyncSource(source, end === 'done' ? Infinity : k + 1);
    if (read.then !== 'more') return pulls(read.values, read.then);
    return end === 'open' ? pulls(read.values, 'open') : closedAfter(pulls(read.values, 'open'), source);
  };
  predict(most(xs), most(ys));
});

/** One `next()` pending on each source, the first to settle yielded (the merge itself, without closing). */
async function* race<T>(its: readonly AsyncIterator<T>[], pending: Map<number, Promise<{ i: number; r: IteratorResult<T> }>>): AsyncGenerator<T> {
  const pull = (i: number) => {
    const answer = its[i]!.next().then((r) => ({ i, r }));
    answer.catch(() => {}); // a pull still pending when merge stops is not awaited: its rejection is not unhandled
    pending.set(i, answer);
  };
  its.forEach((_, i) => pull(i));
  while (pending.size > 0) {
    const { i, r } = await Promise.race(pending.values());
    if (r.done) {
      pending.delete(i);
      continue;
    }
    pull(i);
    yield r.value;
  }
}

/** `merge`: its `finally` closes the sources not ended (`pending` holds those), and passes on an error their `return` gives, as `for await` would. */
export async function* merge<T>(xs: AsyncIterable<T>, ys: AsyncIterable<T>): AsyncGenerator<T> {
  const its = [xs[Symbol.asyncIterator](), ys[Symbol.asyncIterator]()];
  const pending = new Map<number, Promise<{ i: number; r: IteratorResult<T> }>>();
  try {
    yield* race(its, pending);
  } finally {
    await Promise.all([...pending.keys()].map((i) => its[i]!.return?.()));
  }
}

/** The same without the `finally`: a consumer's `break` leaves both sources open. */
export async function* mergeLeaving<T>(xs: AsyncIterable<T>, ys: AsyncIterable<T>): AsyncGenerator<T> {
  yield* race([xs[Symbol.asyncIterator](), ys[Symbol.asyncIterator]()], new Map());
}
