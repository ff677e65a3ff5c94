/**
 * Verdicts over iterables that must hold whatever the case: a function checked against itself
 * passes (its reference's observed demands are predicted as they were recorded, reading ahead
 * included, at any depth), and a function that changes a source it was given is refused.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { number } from '../src/demand/primitives.ts';
import { list } from '../src/demand/lazy-positions.ts';
import { tuple } from '../src/demand/tuples.ts';
import type { Shape } from '../src/demand/shape-types.ts';
import { checkSameStrictness, checkSameStrictnessAsync } from '../src/same-strictness.ts';
import { asyncIterable, iterator } from '../src/iter/index.ts';

function* passOn<T>(xs: Iterable<T>): Generator<T> {
  for (const x of xs) yield x;
}

async function* passOnAsync<T>(xs: AsyncIterable<T>): AsyncGenerator<T> {
  for await (const x of xs) yield x;
}

/** Pulls its source two at a time, both pending at once: it reads ahead, as a prefetching stream does. */
async function* readTwoAhead<T>(xs: AsyncIterable<T>): AsyncGenerator<T> {
  const it = xs[Symbol.asyncIterator]();
  for (;;) {
    const [a, b] = await Promise.all([it.next(), it.next()]);
    if (a.done) return;
    yield a.value;
    if (b.done) return;
    yield b.value;
  }
}

/** The seeds of 1..`seeds` on which `f` checked against itself at shape `sh` fails, with the first failure's message. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function failingSeeds(sh: Shape<any>, f: (xs: never) => unknown, seeds: number): Promise<{ seeds: number[]; first: string }> {
  const failed: number[] = [];
  let first = '';
  for (let seed = 1; seed <= seeds; seed++) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const r = await checkSameStrictnessAsync([sh] as any, sh as any, f as any, f as any, { seed, trials: 100 });
    if (r.passed) continue;
    failed.push(seed);
    first ||= r.message;
  }
  return { seeds: failed, first };
}

test('an async pass-through of async iterables of async iterables checked against itself passes: the consumer reading an inner iterable ahead through it is predicted so', async () => {
  const nested = asyncIterable(asyncIterable(number));
  const r = await failingSeeds(nested, passOnAsync, 4);
  assert.deepEqual(r.seeds, [], r.first);
});

test('a function that reads its async source ahead checked against itself passes: the reference\'s reading ahead is predicted, not dropped', async () => {
  const r = await failingSeeds(asyncIterable(number), readTwoAhead, 4);
  assert.deepEqual(r.seeds, [], r.first);
});

test('reading ahead inside lists and tuples of async iterables passed on is predicted as recorded', async () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  for (const sh of [asyncIterable(list(asyncIterable(number))), asyncIterable(tuple(asyncIterable(number), number))] as Shape<any>[]) {
    const r = await failingSeeds(sh, passOnAsync, 3);
    assert.deepEqual(r.seeds, [], `${sh.name}: ${r.first}`);
  }
});

test('a pass-through of one-shot iterators of one-shot iterators checked against itself passes: an inner iterator the consumer left untouched (closed before its first pull, without a return method) is not pulled when its demand is replayed', () => {
  const sh = iterator(iterator(number));
  for (let seed = 1; seed <= 3; seed++) {
    const r = checkSameStrictness([sh], sh, passOn as never, passOn as never, { seed, trials: 100 });
    assert.ok(r.passed, `seed ${seed}: ${r.message}`);
  }
});
