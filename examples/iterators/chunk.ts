/**
 * `chunk(size, xs)`: arrays of `size` elements of `xs` (the last one shorter). It pulls `size`
 * elements per chunk pulled, and no more: a chunk is yielded as soon as it is full. A `chunk`
 * that looks at the next element before yielding a full chunk (to know whether it is the last)
 * pulls one element ahead of its consumer, and never closes its source.
 * @module
 */
import { dynamic } from '../../src/demand/dynamic.ts';
import { number } from '../../src/demand/primitives.ts';
import { spec } from '../../src/spec/spec.ts';
import { closedAfter, endOf, iterable, pullCount, pulls, untouched } from '../../src/iter/index.ts';
import { readSource, toItsEnd } from './read-source.ts';

const numbers = iterable(number);
/** Chunks: arrays, read by the dynamic shape. */
export const chunks = iterable(dynamic as typeof number);

/** The size of chunks checked. */
export const SIZE = 2;

/**
 * chunk's spec (size {@link SIZE}): k chunks pulled take `SIZE·k` elements of the source (all
 * of it, to its end, if it is shorter); the result closed closes the source after them
 * (untouched if closed before its first pull); the result ended (`[]` or `⊥`) took the source
 * to its end.
 */
export const chunkSpec = spec([numbers], chunks, (predict, d, xs) => {
  const k = pullCount(d);
  const end = endOf(d);
  if (end === 'done' || end === 'threw') {
    return predict(toItsEnd(readSource(xs, Infinity)));
  }
  if (k === 0) return predict(untouched);
  // The last chunk pulled may be short: the source ended (or threw) in it.
  const read = readSource(xs, SIZE * k);
  if (read.values.length < SIZE * k) return predict(toItsEnd(read));
  const taken = pulls(read.values, 'open');
  predict(end === 'open' ? taken : closedAfter(taken, xs));
});

/** `chunk`: yields each chunk as soon as it is full; for…of closes the source when the consumer stops. */
export function* chunk<T>(size: number, xs: Iterable<T>): Generator<T[]> {
  let buffer: T[] = [];
  for (const x of xs) {
    buffer.push(x);
    if (buffer.length === size) {
      yield buffer;
      buffer = [];
    }
  }
  if (buffer.length > 0) yield buffer;
}

/** Looks one element past a full chunk before yielding it, by hand, without closing its source. */
export function* chunkPeeking<T>(size: number, xs: Iterable<T>): Generator<T[]> {
  const it = xs[Symbol.iterator]();
  let r = it.next();
  while (!r.done) {
    const buffer: T[] = [];
    while (!r.done && buffer.length < size) {
      buffer.push(r.value);
      r = it.next();
    }
    yield buffer;
  }
}
