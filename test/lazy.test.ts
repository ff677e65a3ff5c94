import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ForceBudgetExceeded,
  Lazy,
  LazyLoopError,
  UnevaluatedError,
  defer,
  force,
  forceCount,
  isLazy,
  isThunk,
  lazy,
  lazyAt,
  lazyView,
  MAX_LAZY_INDEX,
  now,
  thunk,
  withForceBudget,
} from '../src/lazy/lazy.ts';
import { Cons, type Cell, type List } from '../src/lazy/cell.ts';
import * as L from '../src/lazy/list.ts';

test('Lazy memoises: computed once, on first force', () => {
  let runs = 0;
  const x = lazy(() => {
    runs++;
    return { n: 42 };
  });
  assert.equal(runs, 0, 'creating a thunk runs nothing');
  assert.equal(x.isEvaluated, false);
  const first = x.force();
  assert.equal(runs, 1);
  assert.equal(x.isEvaluated, true);
  assert.equal(x.force(), first, 'the same object is returned');
  assert.equal(force(x), first);
  assert.equal(runs, 1, 'computed once');

  // map and defer memoise as well, and run their function once
  let mapped = 0;
  const y = x.map((v) => {
    mapped++;
    return v.n + 1;
  });
  let deferred = 0;
  const z = defer(() => {
    deferred++;
    return y;
  });
  assert.equal(z.force(), 43);
  assert.equal(z.force(), 43);
  assert.equal(y.force(), 43);
  assert.deepEqual([mapped, deferred, runs], [1, 1, 1]);

  // now is evaluated from the start
  assert.equal(now(7).isEvaluated, true);
  assert.equal(now(7).force(), 7);
});

test('Lazy: exceptions are not memoised (a thunk that throws once, then succeeds)', () => {
  let calls = 0;
  const flaky = lazy(() => {
    calls++;
    if (calls === 1) throw new Error('first time fails');
    return 'ok';
  });
  assert.throws(() => flaky.force(), /first time fails/);
  assert.equal(flaky.isEvaluated, false);
  assert.equal(flaky.force(), 'ok');
  assert.equal(flaky.force(), 'ok');
  assert.equal(calls, 2);

  // also through a defer/map chain: every node that was running goes back to pending
  let inner = 0;
  const base = lazy(() => {
    if (++inner === 1) throw new RangeError('boom');
    return 10;
  });
  const chain = defer(() => base.map((v) => v * 2));
  assert.throws(() => chain.force(), /boom/);
  assert.equal(chain.isEvaluated, false);
  assert.equal(chain.force(), 20);
  assert.equal(inner, 2);

  // a map or chain whose own function throws is retried too (not left "running": no LazyLoopError)
  let k = 0;
  const m = now(1).map((v) => {
    if (++k === 1) throw new Error('map fails once');
    return v + 1;
  });
  assert.throws(() => m.force(), /map fails once/);
  assert.equal(m.force(), 2);
  let j = 0;
  const c = lazy(() => 1).chain((v) => {
    if (++j === 1) throw new Error('chain fails once');
    return lazy(() => v + 2);
  });
  assert.throws(() => c.force(), /chain fails once/);
  assert.equal(c.force(), 3);
  let i = 0;
  const c2 = now(1).chain((v) => lazy(() => {
    if (++i === 1) throw new Error('continuation fails once');
    return v + 3;
  }));
  assert.throws(() => c2.force(), /continuation fails once/);
  assert.equal(c2.force(), 4);
});

test('Lazy: a self-dependent thunk throws LazyLoopError, not RangeError', () => {
  const x: Lazy<number> = lazy(() => x.force() + 1);
  assert.throws(() => x.force(), (err: unknown) => {
    assert.ok(err instanceof LazyLoopError, `expected LazyLoopError, got ${String(err)}`);
    assert.match((err as Error).message, /loop/);
    return true;
  });
  // still not memoised: it throws the same again
  assert.throws(() => x.force(), LazyLoopError);

  const d: Lazy<number> = defer(() => d);
  assert.throws(() => d.force(), LazyLoopError);

  // a longer cycle: a -> b -> a
  const a: Lazy<number> = lazy(() => b.force());
  const b: Lazy<number> = defer(() => a.map((v) => v + 1));
  assert.throws(() => a.force(), LazyLoopError);
  const c: Lazy<number> = now(0).chain(() => c);
  assert.throws(() => c.force(), LazyLoopError);
});

test('Lazy: a caught LazyLoopError leaves the thunk being forced running, so forcing it again is a loop again', () => {
  let runs = 0;
  const x: Lazy<number> = lazy(() => {
    runs++;
    if (runs > 3) return -1; // (before the fix the function was entered again and again)
    try {
      return x.force();
    } catch (err) {
      assert.ok(err instanceof LazyLoopError);
    }
    return x.force();
  });
  assert.throws(() => x.force(), LazyLoopError);
  assert.equal(runs, 1);
});

test('lazyAt: computes fn(arg, index) once, for any index up to MAX_LAZY_INDEX; a throw is not memoised', () => {
  let calls = 0;
  const f = (arg: string, i: number) => (calls++, `${arg}${i}`);
  for (const i of [0, 1, 31, 32, 1000, MAX_LAZY_INDEX]) {
    const l = lazyAt(f, 'x', i);
    assert.equal(l.isEvaluated, false);
    assert.equal(l.force(), `x${i}`);
    assert.equal(l.force(), `x${i}`);
    assert.ok(l.isEvaluated);
  }
  assert.equal(calls, 6);
  let fail = true;
  const flaky = lazyAt((_: null, i: number) => {
    if (fail) throw new Error('fails once');
    return i;
  }, null, 7);
  assert.throws(() => flaky.force(), /fails once/);
  fail = false;
  assert.equal(flaky.force(), 7);
  // reached through defer and map, as any thunk
  assert.equal(defer(() => lazyAt(f, 'y', 2)).map((s) => s + '!').force(), 'y2!');
  const self: Lazy<number> = lazyAt(() => self.force(), null, 3);
  assert.throws(() => self.force(), LazyLoopError);
});

test('lazyView: computes fn(arg) on every force and keeps nothing; a view forcing itself is a loop', () => {
  let calls = 0;
  const v = lazyView((n: number) => ({ n, call: ++calls }), 5);
  assert.deepEqual(v.force(), { n: 5, call: 1 });
  assert.deepEqual(v.force(), { n: 5, call: 2 });
  assert.equal(v.isEvaluated, false);
  assert.deepEqual(defer(() => v).force(), { n: 5, call: 3 });
  const self: Lazy<number> = lazyView(() => self.force() + 1, null);
  assert.throws(() => self.force(), LazyLoopError);
  assert.throws(() => self.force(), LazyLoopError);
});

test('Lazy: a defer chain of 100,000 thunks forces without stack overflow', () => {
  const n = 100_000; // links enough to overflow the default stack where forcing recurses (tried)
  let l: Lazy<number> = now(0);
  for (let i = 0; i < n; i++) {
    const next = l;
    l = defer(() => next);
  }
  assert.equal(l.force(), 0);
  assert.equal(l.force(), 0);

  // each thunk deferring to the next, built lazily by recursion on the index
  const chain = (i: number): Lazy<number> => (i === n ? now(i) : defer(() => chain(i + 1)));
  assert.equal(chain(0).force(), n);
});

test('Lazy: Lazy.map and Lazy.chain chains of 100,000 force without stack overflow', () => {
  const n = 100_000; // links enough to overflow the default stack where forcing recurses (tried)
  let l: Lazy<number> = lazy(() => 0);
  for (let i = 0; i < n; i++) l = l.map((v) => v + 1);
  assert.equal(l.force(), n);

  // chain (defer + map) mixed
  let m: Lazy<number> = now(0);
  for (let i = 0; i < n; i++) m = i % 2 === 0 ? m.map((v) => v + 1) : m.chain((v) => now(v + 1));
  assert.equal(m.force(), n);

  // right-nested: each continuation returns the next chain
  const go = (i: number): Lazy<number> => (i === n ? now(i) : now(i).chain((v) => go(v + 1)));
  assert.equal(go(0).force(), n);
});

test('thunk: forcing or calling it throws UnevaluatedError naming what happened; isThunk detects it', () => {
  const check = (err: unknown) => {
    assert.ok(err instanceof UnevaluatedError, `expected UnevaluatedError, got ${String(err)}`);
    assert.match((err as Error).message, /forced `thunk`/);
    assert.match((err as Error).message, /unevaluated/);
    return true;
  };
  assert.throws(() => (thunk as Lazy<unknown>).force(), check);
  assert.throws(() => (thunk as unknown as () => unknown)(), check);
  // repeatedly: thunk is never memoised
  assert.throws(() => (thunk as Lazy<unknown>).force(), check);

  assert.equal(isLazy(thunk), true);
  assert.equal(isThunk(thunk), true);
  assert.equal(isThunk(lazy(() => (thunk as Lazy<number>).force())), true, 'a Lazy that reaches thunk is a thunk');
  assert.equal(isThunk(defer(() => thunk)), true);
  assert.equal(isThunk(now(1)), false);
  assert.equal(isThunk(lazy(() => 1)), false);
  assert.equal(isThunk(1), false);
  assert.equal(isThunk(undefined), false);
  // other errors are not swallowed
  assert.throws(() => isThunk(lazy(() => { throw new TypeError('other'); })), TypeError);
});

// A `repeat` that makes a new cell per step (unlike L.repeat, which is one cyclic cell).
const repeatFresh = <T>(x: T): List<T> => lazy((): Cell<T> => new Cons(now(x), repeatFresh(x)));

test('withForceBudget: an infinite repeat forced by a loop throws ForceBudgetExceeded', () => {
  assert.throws(
    () => withForceBudget(10_000, () => L.length(repeatFresh(1))),
    (err: unknown) => err instanceof ForceBudgetExceeded && err.budget === 10_000 && /10000/.test(err.message),
  );
  // L.repeat is one cyclic cell (as in GHC), so a map over it makes a fresh thunk per cell
  assert.throws(() => withForceBudget(5_000, () => L.sum(L.map((x: number) => x + 1, L.repeat(1)))), ForceBudgetExceeded);
  assert.throws(() => withForceBudget(5_000, () => L.length(L.enumFrom(0))), ForceBudgetExceeded);

  // a finite computation within the budget is unaffected, and the budget is restored afterwards
  assert.equal(withForceBudget(1_000, () => L.sum(L.take(10, repeatFresh(2)))), 20);
  const before = forceCount();
  assert.equal(L.sum(L.take(20_000, repeatFresh(1))), 20_000);
  assert.ok(forceCount() - before >= 20_000, 'forceCount counts evaluations');

  // nested budgets: the innermost applies, and the outer one is charged for what the inner used
  // the error names the budget that ran out: here the outer one, which has less left than the inner
  assert.throws(
    () => withForceBudget(100, () => withForceBudget(1_000_000, () => L.length(L.take(1_000, repeatFresh(0))))),
    (err: unknown) => err instanceof ForceBudgetExceeded && err.budget === 100 && /more than 100 forces of thunks and pulls of iterators/.test(err.message),
  );
  assert.throws(
    () => withForceBudget(1_000_000, () => withForceBudget(100, () => L.length(L.take(1_000, repeatFresh(0))))),
    (err: unknown) => err instanceof ForceBudgetExceeded && err.budget === 100,
  );
  assert.equal(
    withForceBudget(1_000, () => withForceBudget(50, () => L.length(L.take(10, repeatFresh(0))))),
    10,
  );
  // ... and for that only, even when the inner budget is larger than what the outer has left
  const ten = () => L.length(L.take(10, repeatFresh(0)));
  assert.equal(
    withForceBudget(100, () => withForceBudget(1_000, ten) + ten()),
    20,
  );
});

test('isThunk sees thunk through defer, map and chain links without memoising anything', () => {
  const d = defer(() => thunk as Lazy<number>);
  const m = d.map((x) => x + 1);
  const c = now(1).chain(() => thunk as Lazy<number>);
  for (const l of [d, m, c]) {
    assert.equal(isThunk(l), true);
    assert.equal(l.isEvaluated, false);
    assert.throws(() => l.force(), UnevaluatedError); // still unevaluated: forcing it reaches thunk again
  }
  // thunk forced inside a thunk's own function is found too (by its error).
  assert.equal(isThunk(lazy(() => (thunk as Lazy<number>).force() + 1)), true);
  assert.equal(isThunk(defer(() => now(3))), false);
});
