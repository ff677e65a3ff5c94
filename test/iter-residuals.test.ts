/**
 * Residual wrong or silently lossy behaviours of iterables: where a spec's helpers tell a
 * re-iterable source from a one-shot iterator nested in data; demands never observed (`Ahead`
 * inside `Ahead`) and iteration ends read without a shape; `inferSpec` and `yield*`; the
 * exhausting random consumer over elements that never end; and what the helpers run of a
 * user's source to find out whether its iterators close.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  Ahead, asyncIterable, checkSpec, closedAfter, cons, endOf, fromDemand, inferSpec, iterable, lazyOf, list, now, number, prettyDemand, prettyValue,
  pulls, pullsOf, readAhead, ShapeMismatchError, spec, SpecError, specOf, taken, thrownInto, toDemand, tuple, withArbitrary, List, type Lazy, type LazyList, type Shape,
} from '../src/index.ts';
import { checkSpecAsync } from '../src/async-checks.ts';

/** Arrays of up to 3 digits, as `f` makes a source of each. */
const sourcesOf = <S>(f: (xs: number[]) => S) => fc.array(fc.nat(9), { maxLength: 3 }).map(f);
/** Array iterators: they have `next`, and declared `iterable(…)` they are re-iterable sources. */
const arrayIterators = withArbitrary(sourcesOf((xs) => xs.values() as Iterable<number>), iterable(number));

/** Takes its source's iterator and closes it if it can, before any pull. */
function takesAndCloses(xs: Iterable<number>): void {
  const it = xs[Symbol.iterator]();
  it.return?.();
}

describe('closedAfter tells a re-iterable source by its declared shape inside data and lazy positions too', () => {
  test('closedAfter no pull of an iterable(number) field of a tuple, given array iterators, predicts taken, as the function leaves it', () => {
    const pairs = tuple(arrayIterators, number) as Shape<[Iterable<number>, number]>;
    const closes = spec([pairs], number, (predict, _d, [xs, n]) => predict([closedAfter(pulls([], 'return'), xs), n] as [Iterable<number>, number]));
    const r = checkSpec(closes, ([xs, n]) => (takesAndCloses(xs), n), { trials: 50, seed: 1 });
    assert.equal(r.passed ? 'passed' : r.message, 'passed');
  });

  test('closedAfter no pull of a lazyOf(iterable(number)) argument, given array iterators, predicts taken, as the function leaves it', () => {
    const lazyIterators = lazyOf(arrayIterators) as Shape<Lazy<Iterable<number>>>;
    const closes = spec([lazyIterators], number, (predict, _d, lx) => predict(now(closedAfter(pulls([], 'return'), lx.force())) as never));
    const r = checkSpec(closes, (lx) => (takesAndCloses(lx.force()), 0), { trials: 50, seed: 1 });
    assert.equal(r.passed ? 'passed' : r.message, 'passed');
  });
});

describe('Ahead inside Ahead, which no observation records, is refused where it is given', () => {
  const nested = now(new Ahead(2, now(new Ahead(3, pullsOf(pulls([1], 'open')) as unknown as Lazy<unknown>)))) as never;

  test('toDemand refuses Ahead 2 (Ahead 3 (1 : _)) at asyncIterable(number), naming it and what to write', () => {
    assert.throws(
      () => toDemand(nested, asyncIterable(number)),
      (e: unknown) => e instanceof ShapeMismatchError && /Ahead inside Ahead/.test(e.message) && /readAhead\(3, /.test(e.message),
    );
  });

  test('a spec predicting it is a SpecError naming it, not a failure blamed on the function', { timeout: 60_000 }, async () => {
    const wrong = spec([asyncIterable(number)], asyncIterable(number), (predict) => predict(nested));
    await assert.rejects(checkSpecAsync(wrong, (xs: AsyncIterable<number>) => xs, { trials: 20, seed: 1 }), (e: unknown) => e instanceof SpecError && /Ahead inside Ahead/.test(e.message));
  });

  test('readAhead of a demand read ahead already reads ahead once, as far as the larger', () => {
    assert.equal(prettyDemand(toDemand(readAhead(2, readAhead(3, pulls([1], 'open'))), asyncIterable(number))), 'Ahead 3 (1 : _)');
  });
});

describe('an iteration end read without its iterable shape is carried over or refused, never read as []', () => {
  test('1 : 2 : return(), 1 : throw() and 1 : ⊥ read as themselves, and back', () => {
    for (const [end, shown] of [['return', '1 : 2 : return()'], ['throw', '1 : 2 : throw()'], ['threw', '1 : 2 : ⊥']] as const) {
      const d = toDemand(pulls([1, 2], end));
      assert.equal(prettyDemand(d), shown);
      assert.equal(endOf(fromDemand(d) as never), end);
    }
  });

  test('prettyValue of an iteration closed by return() prints return()', () => {
    assert.equal(prettyValue(pulls([1], 'return')), '1 : return()');
  });

  test('taken, alone or after a pull, is refused, saying to give the iterable shape', () => {
    for (const d of [taken, cons(1, taken as never)]) {
      assert.throws(() => toDemand(d), (e: unknown) => e instanceof ShapeMismatchError && /taken/.test(e.message) && /iterable\(…\)/.test(e.message));
    }
  });

  test('a declared list refuses an iteration end, which it has not, where it read it as []', () => {
    for (const [d, name] of [[pulls([1], 'return'), 'return()'], [pulls([1], 'threw'), '⊥'], [taken, 'taken']] as const) {
      assert.throws(() => toDemand(d as never, list(number)), (e: unknown) => e instanceof ShapeMismatchError && e.message.includes(`${name}, the end of an iteration`) && /iterable\(…\)/.test(e.message));
    }
  });
});

describe('the exhausting random consumer forces an element only so far, never walking one that never ends', () => {
  test('an iterable of infinite lazy lists passes a correct pass-through, its elements forced a bounded way', { timeout: 60_000 }, () => {
    const endless = (n: number): LazyList<number> => List.iterate((x: number) => x + 1, n);
    const sources = withArbitrary(sourcesOf((xs) => xs.map(endless)), iterable(list(number)));
    const asResult = specOf([sources], iterable(list(number)), ({ pulledAsResult }) => [pulledAsResult()]);
    function* passOn(xss: Iterable<LazyList<number>>) {
      for (const xs of xss) yield xs;
    }
    // A budget well above the bounded forcing, and no shrinking: walking an element for ever fails soon, where each shrink would run into the budget.
    const r = checkSpec(asResult, passOn, { trials: 100, seed: 1, forceBudget: 200_000, maxShrinkAttempts: 0 });
    assert.equal(r.passed ? 'passed' : r.message, 'passed');
  });
});

describe('inferSpec proposes delegates: true where the function delegates with yield*', () => {
  test('a yield* pass-through is inferred pulledAsResult({ delegates: true }), which it passes', { timeout: 120_000 }, () => {
    function* passOn(xs: Iterable<number>) {
      yield* xs;
    }
    const inferred = inferSpec([iterable(number)], iterable(number), passOn, { depth: 3 });
    assert.ok(inferred.proposals.length > 0, inferred.message);
    assert.match(inferred.proposals[0]!.code, /pulledAsResult\(\{ delegates: true \}\)/);
    assert.equal(checkSpec(inferred.proposals[0]!.spec, passOn, { seed: 1 }).passed, true);
  });

  test('a for…of pass-through is still inferred pulledAsResult() without delegates', () => {
    function* passOn(xs: Iterable<number>) {
      for (const x of xs) yield x;
    }
    const inferred = inferSpec([iterable(number)], iterable(number), passOn, { depth: 3 });
    assert.match(inferred.proposals[0]!.code, /pulledAsResult\(\)/);
  });
});

describe("closedAfter and thrownInto find out whether a source's iterators close without running the source's code", () => {
  /** A re-iterable source of `xs` counting its iterations begun; its iterators are generator objects (they have return and throw). */
  function counted(xs: readonly number[]): { source: Iterable<number>; calls: () => number } {
    let calls = 0;
    const source = {
      [Symbol.iterator]() {
        calls++;
        return (function* () {
          yield* xs;
        })();
      },
    };
    return { source, calls: () => calls };
  }

  test('closedAfter and thrownInto over a source never iterated run no [Symbol.iterator](), and know a generator function\'s iterators and an array\'s', () => {
    const { source, calls } = counted([1, 2]);
    closedAfter(pulls([1], 'open'), source);
    closedAfter(pulls([], 'open'), source);
    thrownInto(pulls([1], 'open'), source);
    assert.equal(calls(), 0);
    const generated = { *[Symbol.iterator]() { yield 1; } };
    assert.equal(prettyDemand(toDemand(closedAfter(pulls([1], 'open'), generated), iterable(number))), '1 : return()');
    assert.equal(prettyDemand(toDemand(thrownInto(pulls([1], 'open'), generated), iterable(number))), '1 : throw()');
    assert.equal(prettyDemand(toDemand(closedAfter(pulls([1], 'open'), [1, 2]), iterable(number))), '1 : _');
  });

  test('in a check, the source begins only the iterations the function begins, and its closing is read off them', () => {
    let runs = 0;
    const made: ReturnType<typeof counted>[] = [];
    const sources = withArbitrary(
      fc.array(fc.nat(9), { minLength: 1, maxLength: 3 }).map((xs) => {
        const c = counted(xs);
        made.push(c);
        return c.source;
      }),
      iterable(number),
    );
    // The first element: a for…of returning from inside closes the source.
    const first = (xs: Iterable<number>) => {
      runs++;
      for (const x of xs) return x;
      return -1;
    };
    const firstSpec = spec([sources], number, (predict, d, xs) => predict(closedAfter(pulls([d], 'open'), xs)));
    const r = checkSpec(firstSpec, first, { trials: 30, seed: 1 });
    assert.equal(r.passed ? 'passed' : r.message, 'passed');
    assert.equal(made.reduce((n, c) => n + c.calls(), 0), runs);
  });
});
