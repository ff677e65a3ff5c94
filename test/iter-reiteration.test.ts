/**
 * A function may take iterations of a re-iterable source as often as ordinary code does: each
 * taking of an iterator (`xs[Symbol.iterator]()`) is recorded at a cost that does not grow with
 * the iterations taken before, and counts as a force against the force budget, sync and async,
 * so that a function taking iterations for ever is reported as probably diverging with its case.
 * The functions below give up after a bounded number of iterations, and the tests have a
 * timeout, so that a regression fails rather than hangs.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { asyncIterable, checkSpec, checkSpecAsync, iterable, number, spec } from '../src/index.ts';
import { iterations, taken, untouched } from '../src/iter/index.ts';
import { lazyOf } from '../src/demand/lazy-positions.ts';
import fc from 'fast-check';
import { withArbitrary } from '../src/index.ts';
import { now, type Lazy } from '../src/lazy/lazy.ts';

/** Iterations the functions below take before they give up: more than the budget the checks give. */
const PAST = 5_000;
const BUDGET = 2_000;
const OPTIONS = { seed: 1, trials: 5, forceBudget: BUDGET };

/** Asserts that `r` reports the function as probably diverging, with the case it diverged on. */
function divergedWithCase(r: { passed: boolean; message: string; counterexample?: { inputs: readonly unknown[] } | undefined }): void {
  assert.equal(r.passed, false, 'the check passed');
  assert.match(r.message, /it made more than 2000 forces of thunks and pulls of iterators: it probably diverges/);
  assert.ok(r.counterexample !== undefined && r.counterexample.inputs.length === 1, 'the case is reported');
  assert.match(r.message, /Inputs/);
}

describe('taking an iterator of a source counts against the force budget', () => {
  test('a function that takes iterators of a source for ever is reported as probably diverging', { timeout: 30_000 }, () => {
    const s = spec([iterable(number)], number, (predict) => predict(untouched));
    const takesForEver = (xs: Iterable<number>) => {
      for (let i = 0; i < PAST; i++) xs[Symbol.iterator]();
      return 0;
    };
    divergedWithCase(checkSpec(s, takesForEver, OPTIONS));
  });

  test('an async function that takes async iterators of a source for ever is reported as probably diverging', { timeout: 30_000 }, async () => {
    const s = spec([asyncIterable(number)], number, (predict) => predict(untouched));
    const takesForEver = async (xs: AsyncIterable<number>) => {
      for (let i = 0; i < PAST; i++) {
        xs[Symbol.asyncIterator]();
        if (i % 100 === 0) await null;
      }
      return 0;
    };
    divergedWithCase(await checkSpecAsync(s, takesForEver, OPTIONS));
  });
});

describe('recording many iterations of a source', () => {
  const MANY = 50_000;
  const takenMany = iterations(...Array.from({ length: MANY }, () => taken));

  test('a function that takes 50,000 iterators of a source agrees with a spec that says so', { timeout: 20_000 }, () => {
    const s = spec([iterable(number)], number, (predict) => predict(takenMany));
    const takesMany = (xs: Iterable<number>) => {
      for (let i = 0; i < MANY; i++) xs[Symbol.iterator]();
      return 0;
    };
    const r = checkSpec(s, takesMany, { seed: 1, trials: 3, forceBudget: 10 * MANY });
    assert.equal(r.passed, true, r.message);
  });

  test('an async function that takes 50,000 async iterators of a source agrees with a spec that says so', { timeout: 20_000 }, async () => {
    const s = spec([asyncIterable(number)], number, (predict) => predict(takenMany));
    const takesMany = async (xs: AsyncIterable<number>) => {
      for (let i = 0; i < MANY; i++) xs[Symbol.asyncIterator]();
      return 0;
    };
    const r = await checkSpecAsync(s, takesMany, { seed: 1, trials: 3, forceBudget: 10 * MANY });
    assert.equal(r.passed, true, r.message);
  });
});

describe('the report of a function stopped by the budget names what it counts', () => {
  test('a function that only pulls a source for ever is reported as making more than the budget of forces and pulls, not of thunks alone', { timeout: 30_000 }, () => {
    const s = spec([iterable(number)], number, (predict) => predict(untouched));
    const pullsForEver = (xs: Iterable<number>) => {
      const it = xs[Symbol.iterator]();
      for (let i = 0; i < PAST; i++) {
        try {
          it.next();
        } catch {} // a source that throws, then pulled on
      }
      return 0;
    };
    const r = checkSpec(s, pullsForEver, OPTIONS);
    assert.equal(r.passed, false);
    assert.match(r.message, /more than 2000 forces of thunks and pulls of iterators: it probably diverges/);
  });
});

describe('a function returning a Promise in a synchronous check', () => {
  const s = spec([number], number, (predict, d) => predict(d));

  test('a plain function returning a Promise is refused, saying to check it with checkSpecAsync', () => {
    const promised = (x: number) => Promise.resolve(x);
    assert.throws(() => checkSpec(s, promised as unknown as (x: number) => number, { seed: 1, trials: 3 }), /the function observed is a function that returned a Promise, which a synchronous check cannot observe: .*checkSpecAsync or assertSpecAsync/);
  });

  test('a plain function returning a thenable is refused so too', () => {
    const thenable = (x: number) => ({ then: (k: (v: number) => void) => k(x) });
    assert.throws(() => checkSpec(s, thenable as unknown as (x: number) => number, { seed: 1, trials: 3 }), /is a function that returned a thenable, which a synchronous check cannot observe: .*checkSpecAsync or assertSpecAsync/);
  });
});

test('iterations taken through two forces of a Lazy source are recorded together: a function that runs one through and takes another fails a spec of one iteration taken', { timeout: 60_000 }, () => {
  // Arrays: re-iterable sources that never throw.
  const arrays = withArbitrary(fc.array(fc.integer(), { minLength: 1, maxLength: 5 }), iterable(number, { finite: true }));
  const s = spec([lazyOf(arrays)] as const, number, (predict) => predict(now(taken)));
  const twoForces = (xs: Lazy<Iterable<number>>): number => {
    for (const _ of xs.force());
    xs.force()[Symbol.iterator]();
    return 0;
  };
  const r = checkSpec(s, twoForces, { seed: 1, trials: 100 });
  assert.equal(r.passed, false, 'the first force\'s iteration was lost');
  assert.match(r.message, /Iterations/);
});
