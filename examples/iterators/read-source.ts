/**
 * What a spec reads of a source to predict a function's demand on it: its first elements, from a
 * fresh iteration of its own (closed afterwards), and how it went on. Specs run on the inputs
 * themselves, not on instrumented copies, so this reading is not recorded.
 * @module
 */
import { AsyncSource, pulls, SourceError, type IterDemand } from '../../src/iter/index.ts';

/** The first elements of a source, at most `max` of them, and what its next pull did: answered another (`more`), done, or threw a source's failure. */
export interface SourcePrefix<T> {
  readonly values: T[];
  readonly then: 'more' | 'done' | 'threw';
}

/** The first `max` elements of `xs` (re-iterable) and how it went on. */
export function readSource<T>(xs: Iterable<T>, max: number): SourcePrefix<T> {
  const it = xs[Symbol.iterator]();
  const values: T[] = [];
  try {
    for (;;) {
      const r = it.next();
      if (r.done) return { values, then: 'done' };
      if (values.length >= max) return { values, then: 'more' };
      values.push(r.value);
    }
  } catch (err) {
    if (err instanceof SourceError) return { values, then: 'threw' };
    throw err;
  } finally {
    closeQuietly(it);
  }
}

/** Closes an iteration of the spec's own: a source whose `return` throws says nothing the spec needs. */
function closeQuietly(it: Iterator<unknown>): void {
  try {
    it.return?.();
  } catch (err) {
    if (!(err instanceof SourceError)) throw err;
  }
}

/** The first `max` elements of a generated async source and how it goes on, read off its plan (a spec runs synchronously). */
export function readAsyncSource<T>(xs: AsyncIterable<T>, max: number): SourcePrefix<T> {
  if (!(xs instanceof AsyncSource)) throw new TypeError('readAsyncSource reads generated async sources (AsyncSource) only');
  const { elements, infinite, throwAt } = (xs as AsyncSource<T>).plan;
  const values: T[] = [];
  for (let i = 0; ; i++) {
    if (i === throwAt) return { values, then: 'threw' };
    if (i >= elements.length && (!infinite || elements.length === 0)) return { values, then: 'done' };
    if (values.length >= max) return { values, then: 'more' };
    values.push(elements[i % elements.length]!);
  }
}

/** The demand of an iteration that read `read` and then its source's end: `[]`, or `⊥` where it threw. */
export function toItsEnd<T>(read: SourcePrefix<T>): IterDemand<T> {
  return pulls(read.values, read.then === 'threw' ? 'threw' : 'done');
}
