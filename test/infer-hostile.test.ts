/**
 * What a new user met with inferSpec and the same-strictness checks: a function that throws on
 * some case is reported as checkSpec reports it (a failure with its shrunk case), never rethrown
 * bare; a case that rules out a candidate is shrunk as a counterexample is; and the same-strictness
 * checks work over async iterables.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  asyncIterable, checkSameStrictness, checkSameStrictnessAsync, checkSpecAsync, checkSpecExhaustiveAsync, inferSpec, inferSpecAsync, iterable, list, NIL, number, sameStrictnessAs, type List,
} from '../src/index.ts';
import { importable, runScript } from './fixtures/own-process.ts';

const numbers = iterable(number);

function* bigThrows(xs: Iterable<number>) {
  for (const x of xs) {
    if (x > 3) throw new Error('big');
    yield x;
  }
}

test('inferSpec reports a function that throws on some case as checkSpec does: no proposal, the case shrunk, what it threw, and the seed', () => {
  const r = inferSpec([numbers], numbers, bigThrows);
  assert.deepEqual(r.proposals, []);
  assert.match(r.message, /^Failed: the function threw \(after \d+ cases? and \d+ shrinks?; seed 1\)/);
  assert.match(r.message, /• iter \[4\] /, r.message);
  assert.match(r.message, /The function threw: Error: big/);
  assert.match(r.message, /no spec fits a function that throws/);
});

test('inferSpec reports a throw that only its exhaustive cases meet with that case', () => {
  function* positiveThrows(xs: Iterable<number>) {
    for (const x of xs) {
      if (x > 0) throw new Error('positive');
      yield x;
    }
  }
  const r = inferSpec([numbers], numbers, positiveThrows, { trials: 0 });
  assert.deepEqual(r.proposals, []);
  assert.match(r.message, /• iter \[1\] /, r.message);
  assert.match(r.message, /The function threw: Error: positive/);
});

test('inferSpec throws a result that does not fit its shape as the checks do, a mistake in the call rather than an outcome of the function', () => {
  const notAList = (() => 5) as unknown as (n: number) => List.List<number>;
  assert.throws(() => inferSpec([number], list(number), notAList), { name: 'ShapeMismatchError', message: /expected a Lazy, got number 5/ });
});

test('inferSpec reports a throw of a function over lazy lists with its shrunk case too', () => {
  const headOverThree = (xs: List.List<number>) => {
    const c = xs.force();
    if (c !== NIL && (c as { head: { force(): number } }).head.force() > 3) throw new Error('big');
    return 1;
  };
  const r = inferSpec([list(number)], number, headOverThree);
  assert.deepEqual(r.proposals, []);
  assert.match(r.message, /• 4 : _/, r.message);
  assert.match(r.message, /The function threw: Error: big/);
});

test("inferSpec of a flatten written with yield* does not report the TypeError a consumer's throw() makes there: it is the outcome of that throw, not the function's", () => {
  const nested = iterable(iterable(number, { finite: true }), { finite: true });
  function* flatten(xss: Iterable<Iterable<number>>) {
    for (const xs of xss) yield* xs;
  }
  const r = inferSpec([nested], numbers, flatten, { proposals: 2, depth: 2 });
  assert.deepEqual(r.proposals, []);
  assert.doesNotMatch(r.message, /The function threw/);
  assert.match(r.message, /No combinator spec fits/, r.message);
});

test('inferSpecAsync reports an async generator that throws as inferSpec does', async () => {
  async function* bigThrowsAsync(xs: AsyncIterable<number>) {
    for await (const x of xs) {
      if (x > 3) throw new Error('big');
      yield x;
    }
  }
  const an = asyncIterable(number);
  const r = await inferSpecAsync([an], an, bigThrowsAsync, { depth: 2 });
  assert.deepEqual(r.proposals, []);
  assert.match(r.message, /The function threw: Error: big/);
  assert.match(r.message, /async iter \[4\]/, r.message);
});

test('a case that rules out a candidate is shrunk: takeWhile over an infinite source shows a small finite one, its demands printed whole', () => {
  function* takeWhilePos(xs: Iterable<number>) {
    for (const x of xs) {
      if (x < 0) return;
      yield x;
    }
  }
  // Depth 2, where the default 4: the case that rules out pulledAsResult, shrunk, is the same (iter [-1] under []).
  const r = inferSpec([numbers], numbers, takeWhilePos, { proposals: 2, depth: 2 });
  const line = r.message.split('\n').find((l) => l.startsWith('  pulledAsResult():'));
  assert.ok(line, r.message);
  assert.doesNotMatch(line, /…/, line);
  assert.ok(line.length < 200, line);
});

const an = asyncIterable(number);
async function* amap(xs: AsyncIterable<number>) {
  for await (const x of xs) yield 2 * x;
}
async function* amapPrefetch(xs: AsyncIterable<number>) {
  const it = xs[Symbol.asyncIterator]();
  try {
    let p = it.next();
    for (;;) {
      const r = await p;
      if (r.done) return;
      p = it.next();
      yield 2 * r.value;
    }
  } finally {
    await it.return?.();
  }
}

test('checkSameStrictnessAsync passes a function as lazy as its async reference, and fails one that reads ahead, labelling the reference column', async () => {
  const same = await checkSameStrictnessAsync([an], an, amap, amap, { seed: 1 });
  assert.equal(same.passed, true, same.message);
  const ahead = await checkSameStrictnessAsync([an], an, amap, amapPrefetch, { seed: 1 });
  assert.equal(ahead.passed, false);
  assert.match(ahead.message, /Reference's input demands/);
});

test('sameStrictnessAs over async iterables is a spec that checkSpecAsync takes, with a reference written as an async generator or as a function returning one', async () => {
  const wrapped = (xs: AsyncIterable<number>) => amap(xs);
  for (const reference of [amap, wrapped]) {
    const r = await checkSpecAsync(sameStrictnessAs([an], an, reference), amap, { seed: 1, trials: 100 });
    assert.equal(r.passed, true, r.message);
    const bad = await checkSpecAsync(sameStrictnessAs([an], an, reference), amapPrefetch, { seed: 1, trials: 100 });
    assert.equal(bad.passed, false, bad.message);
  }
  const exhaustive = await checkSpecExhaustiveAsync(sameStrictnessAs([an], an, amap), amapPrefetch, { depth: 2 });
  assert.equal(exhaustive.passed, false, exhaustive.message);
  assert.match(exhaustive.message, /Reference's input demands/);
});

test('checkSameStrictness over async iterables points to checkSameStrictnessAsync', () => {
  assert.throws(() => checkSameStrictness([an], an, amap as never, amapPrefetch as never, { seed: 1 }), /checkSameStrictnessAsync/);
});

test('inferSpec of a function that diverges reports it diverging, as checkSpec does, under the default force budget, where it ran for ever', { timeout: 120_000 }, async () => {
  // In a process of its own: a synchronous run for ever cannot be stopped by the test's timeout.
  const script = `import { inferSpec, list, number, lazy, lazyOf, List } from ${JSON.stringify(importable(new URL('../src/index.ts', import.meta.url)))};
    const r = inferSpec([list(number)], lazyOf(number), (xs) => lazy(() => List.length(List.repeat(1))), { trials: 5 });
    process.stdout.write(JSON.stringify({ proposals: r.proposals.length, message: r.message }));`;
  const { stdout } = await runScript(script);
  const r = JSON.parse(stdout) as { proposals: number; message: string };
  assert.equal(r.proposals, 0);
  assert.match(r.message, /^Failed: the function probably diverges \(after 1 case and 0 shrinks; seed 1\)/);
  assert.match(r.message, /it made more than 1000000 forces of thunks and pulls of iterators: it probably diverges/);
});
