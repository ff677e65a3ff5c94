/**
 * Verdicts the force budget and failing parts of inputs must not bend: a function (or spec) that
 * catches the budget's error still diverged, the budget counts the forces of the function and the
 * spec and not the observation's own, a stack overflow leaves no thunk marked running, and forcing
 * a part that throws is a demand on it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { defer, ForceBudgetExceeded, lazy, LazyStackOverflow, now, thunk, withForceBudget, type Lazy } from '../src/lazy/lazy.ts';
import * as L from '../src/lazy/list.ts';
import { spec, SpecError, type Spec } from '../src/spec/spec.ts';
import { lazyOf, list } from '../src/demand/lazy-positions.ts';
import { number } from '../src/demand/primitives.ts';
import { observe, observeDetailed, whnf } from '../src/demand/observe.ts';
import { demandEquals, demandSize, lessDefined } from '../src/demand/demand.ts';
import { fromDemand, toDemand } from '../src/demand/convert.ts';
import { prettyDemand, prettyValue } from '../src/demand/print.ts';
import { withArbitrary } from '../src/engine/fast-check-bridge.ts';
import { evaluatedPositions } from '../src/demand/size.ts';
import { showDemandPair } from '../src/spec/report.ts';
import type { CheckResult } from '../src/spec/result.ts';
import { strictProperty } from '../src/spec/property.ts';
import { catchingSpecCheck, firstCellCatchingCheck, spineOnlyCheck, walksForeverCatchingCheck } from './fixtures/budget-checks.ts';
import { checkSpec, checkSpecExhaustive } from '../src/checks.ts';

/** Asserts that `r` failed as divergent at its first trial (each trial diverges), its counterexample kept with the budget's error. */
function divergent(r: CheckResult): void {
  assert.equal(r.passed, false, r.message);
  assert.equal(r.trials, 1, r.message);
  assert.match(r.message, /the function probably diverges/);
  assert.ok(r.counterexample !== undefined);
  assert.ok(r.counterexample.error?.thrown instanceof ForceBudgetExceeded, String(r.counterexample.error?.thrown));
  assert.equal(r.counterexample.inputs.length, 1);
}

test('a budget that ran out stays spent: a body that catches its error and returns still makes withForceBudget throw', () => {
  let later: unknown;
  assert.throws(
    () =>
      withForceBudget(100, () => {
        try {
          L.length(L.repeat(1));
        } catch {}
        try {
          lazy(() => 1).force();
        } catch (err) {
          later = err;
        }
        return 0;
      }),
    ForceBudgetExceeded,
  );
  assert.ok(later instanceof ForceBudgetExceeded, 'a force after the budget ran out throws again');
  // What withForceBudget throws on return is the error the body caught: its stack shows where the budget ran out.
  let caught: unknown;
  try {
    withForceBudget(100, () => {
      try {
        L.length(L.repeat(1));
      } catch (err) {
        caught = err;
      }
    });
  } catch (err) {
    assert.equal(err, caught);
  }
  assert.match((caught as Error).stack ?? '', /length/);
  // An inner budget that ran out spends the outer one only if the outer one's limit was the one reached.
  assert.equal(withForceBudget(1_000, () => { try { withForceBudget(10, () => L.length(L.repeat(1))); } catch {} return L.length(L.take(5, L.repeat(1))); }), 5);
  assert.throws(() => withForceBudget(10, () => { try { withForceBudget(1_000, () => L.length(L.repeat(1))); } catch {} return 0; }), ForceBudgetExceeded);
  // A budget that forces nothing is not spent, even one of 0 that starts where another ran out.
  assert.throws(() => withForceBudget(10, () => L.length(L.repeat(1))), ForceBudgetExceeded);
  assert.equal(withForceBudget(0, () => 7), 7);
});

test('a function that catches the budget error and returns is divergent, the counterexample kept, without workers', () => {
  for (const c of [firstCellCatchingCheck, walksForeverCatchingCheck]) {
    divergent(checkSpec(c.spec, c.fn, { seed: 1, trials: 20, forceBudget: 5_000 }));
  }
});

test('a function that catches the budget error and returns is divergent with 2 workers', { timeout: 60_000 }, async () => {
  for (const c of [firstCellCatchingCheck, walksForeverCatchingCheck]) {
    divergent(await checkSpec(c.spec, c.fn, { seed: 1, trials: 20, forceBudget: 5_000, workers: 2 }));
  }
});

test('a function that catches the budget error and returns is divergent in the exhaustive mode and the fast-check property', { timeout: 60_000 }, async () => {
  for (const c of [firstCellCatchingCheck, walksForeverCatchingCheck]) {
    const e = checkSpecExhaustive(c.spec, c.fn, { depth: 2, forceBudget: 5_000 });
    assert.equal(e.passed, false);
    assert.match(e.message, /made more than 5000 forces of thunks and pulls of iterators/);
    assert.ok(e.counterexample?.error?.thrown instanceof ForceBudgetExceeded);
    const p = await checkSpecExhaustive(c.spec, c.fn, { depth: 2, forceBudget: 5_000, workers: 2 });
    assert.equal(p.passed, false);
    assert.match(p.message, /made more than 5000 forces of thunks and pulls of iterators/);
    const { failed, errorInstance } = fc.check(strictProperty(c.spec, c.fn, { forceBudget: 5_000 }), { seed: 1, numRuns: 20 });
    assert.equal(failed, true);
    assert.match(String(errorInstance), /made more than 5000 forces of thunks and pulls of iterators/);
  }
});

test('a spec that catches its budget error and predicts is a SpecError, with and without workers', { timeout: 60_000 }, async () => {
  const { spec: s, fn } = catchingSpecCheck as { spec: Spec<readonly unknown[], unknown>; fn: (...args: unknown[]) => unknown };
  const diverges = /the spec made more than 5000 forces of thunks and pulls of iterators/;
  assert.throws(() => checkSpec(s, fn, { seed: 1, trials: 5, forceBudget: 5_000 }), (err: unknown) => err instanceof SpecError && diverges.test(err.message));
  await assert.rejects(checkSpec(s, fn, { seed: 1, trials: 5, forceBudget: 5_000, workers: 2 }), (err: unknown) => err instanceof SpecError && diverges.test(err.message));
  assert.throws(() => checkSpecExhaustive(s, fn, { depth: 1, forceBudget: 5_000 }), (err: unknown) => err instanceof SpecError && diverges.test(err.message));
  const { errorInstance } = fc.check(strictProperty(s, fn, { forceBudget: 5_000 }), { seed: 1, numRuns: 5 });
  assert.ok(errorInstance instanceof SpecError && diverges.test(errorInstance.message), String(errorInstance));
});

test('after LazyStackOverflow in a chain mixing lazy with map and defer, no thunk stays marked running', { timeout: 60_000 }, () => {
  // Each link adds 1 to the one before: a plain `lazy` link recurses, `map` and `defer` links are forced by a loop.
  const chain = (n: number, mix: number): Lazy<number>[] => {
    const links: Lazy<number>[] = [];
    let x: Lazy<number> = now(0);
    for (let i = 0; i < n; i++) {
      const p = x;
      const k = (i * 7 + mix) % 3;
      x = k === 0 ? lazy(() => p.force() + 1) : k === 1 ? p.map((v) => v + 1) : defer(() => p.map((v) => v + 1));
      links.push(x);
    }
    return links;
  };
  let overflows = 0;
  for (const n of [5_000, 20_000, 50_000]) {
    for (let mix = 0; mix < 3; mix++) {
      const links = chain(n, mix);
      for (let again = 0; again < 3; again++) {
        try {
          assert.equal(links[n - 1]!.force(), n);
        } catch (err) {
          assert.ok(err instanceof LazyStackOverflow, `n ${n}, mix ${mix}, force ${again + 1}: ${String(err)}`);
          overflows++;
        }
      }
      // Forced from the bottom up, each link needs the stack of one: every one that stayed running would be a <<loop>>.
      for (let i = 0; i < n; i++) assert.equal(links[i]!.force(), i + 1, `n ${n}, mix ${mix}, link ${i}`);
    }
  }
  assert.ok(overflows > 0, 'some chain overflowed');
});

/** A plain recursion with no end (k only grows): it overflows the stack inside whatever thunk runs it. */
const recurse = (k: number): number => (k < 0 ? 0 : recurse(k + 1) + 1);

test("a stack overflow of the function's own recursion inside one thunk stays a RangeError, not blamed on a chain of thunks", () => {
  const err = (() => {
    try {
      lazy(() => recurse(0)).force();
    } catch (e) {
      return e;
    }
  })();
  assert.ok(err instanceof RangeError, String(err));
  // In a check, the report quotes it as it is.
  const overflows = (_xs: L.List<number>) => lazy(() => recurse(0));
  const r = checkSpec(spec([list(number)], lazyOf(number), (predict) => predict(thunk)), overflows, { seed: 1, trials: 1 });
  assert.match(r.message, /The function threw: RangeError: Maximum call stack size exceeded/);
  assert.doesNotMatch(r.message, /chain of thunks/);
});

test("a stack overflow of the function's own recursion stays a RangeError after an error thrown deep in a chain of thunks was caught inside the chain", () => {
  // 200 nested forces, the deepest throwing, caught by the outermost thunk: the error never leaves a force of depth 1.
  const chain = (n: number): Lazy<number> => (n === 0 ? lazy(() => { throw new Error('deep'); }) : lazy(() => chain(n - 1).force()));
  const caught = lazy(() => {
    try {
      return chain(200).force();
    } catch {
      return 0;
    }
  });
  assert.equal(caught.force(), 0);
  assert.throws(() => lazy(() => recurse(0)).force(), RangeError);
});

test('the force budget counts the forces of the function, not the observation forcing the input it copies', () => {
  const eleven = withArbitrary(fc.constant(L.fromArray([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])), list(number));
  const spineSpec = spec([eleven], number, (predict, _d, xs) => predict(L.fromLazyArray(L.toLazyArray(xs).map(() => thunk))));
  // Each walk forces the list and its 11 tails: 12 forces. 5,000 walks force 60,000 thunks, within a budget of 100,000
  // (the observation's forces of the input counted too, they would be past it).
  const walks = (times: number) => (xs: L.List<number>) => {
    let n = 0;
    for (let i = 0; i < times; i++) n = L.length(xs);
    return n;
  };
  // One trial: the input is a constant, and a number's only demand is its value, so every trial is this one.
  const within = checkSpec(spineSpec, walks(5_000), { seed: 1, trials: 1, forceBudget: 100_000 });
  assert.ok(within.passed, within.message);
  // 10,000 walks force 120,000: stopped, and the message says how many the function forced.
  const past = checkSpec(spineSpec, walks(10_000), { seed: 1, trials: 2, forceBudget: 100_000 });
  assert.equal(past.passed, false);
  assert.match(past.message, /The function diverged: it made more than 100000 forces of thunks and pulls of iterators: it probably diverges/);
  assert.equal(withForceBudget(60_000, () => observe(whnf, walks(5_000), L.fromArray([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])).inputs.length), 1);
});

test('a check over an input of 10^6 cells does not call a linear function divergent with the default budget', { timeout: 300_000 }, () => {
  const big = withArbitrary(fc.constant(L.fromArray(Array.from({ length: 1_000_000 }, (_, i) => i))), list(number));
  // The spec walks the spine too, and its prediction is a demand of 10^6 cells to convert.
  const spineSpec = spec([big], number, (predict, _d, xs) => predict(L.fromLazyArray(L.toLazyArray(xs).map(() => thunk))));
  // length forces 10^6 + 1 thunks, the least past the default; a sum, whose spec predicts the input, is the next test's.
  const r = checkSpec(spineSpec, L.length, { seed: 1, trials: 1 });
  assert.ok(r.passed, r.message);
});

test('a forceBudget given is that many forces, even 1,000,000: only a budget not given grows with the inputs', { timeout: 300_000 }, () => {
  const big = withArbitrary(fc.constant(L.fromArray(Array.from({ length: 200_000 }, (_, i) => i))), list(number));
  const sumSpec = spec([big], number, (predict, _d, xs) => predict(xs));
  // Summing 200,000 cells six times forces about 1.2 million thunks: past 10^6, within 10 a position.
  const sumSixTimes = (xs: L.List<number>): number => [1, 2, 3, 4, 5, 6].reduce((a) => a + L.sum(xs), 0);
  assert.ok(checkSpec(sumSpec, sumSixTimes, { seed: 1, trials: 1 }).passed);
  const given = checkSpec(sumSpec, sumSixTimes, { seed: 1, trials: 1, forceBudget: 1_000_000 });
  assert.equal(given.passed, false);
  assert.match(given.message, /it made more than 1000000 forces of thunks and pulls of iterators/);
});

/** A list of numbers whose elements at `bottoms` throw when forced (a partial input). */
const partial = (xs: readonly number[], bottoms: readonly number[]): L.List<number> =>
  L.fromLazyArray(xs.map((x, i) => (bottoms.includes(i) ? lazy((): number => { throw new Error(`bottom ${i}`); }) : now(x))));
/** Forces every element of its list, catching what they throw; returns how many did not throw. */
const forcesEachCatching = (xs: L.List<number>): number => {
  let n = 0;
  for (const h of L.toLazyArray(xs)) {
    try {
      h.force();
      n++;
    } catch {}
  }
  return n;
};

test('forcing an input part that throws is a demand on it, printed ⊥, whether or not the function catches the error', () => {
  const o = observe(whnf, forcesEachCatching, partial([1, 2, 3], [1]));
  assert.equal(prettyDemand(o.inputs[0]!), '1 : ⊥ : 3 : []');
  // Not caught: the function throws, and the demand recorded until then holds the ⊥ too.
  const thrown = observeDetailed(whnf, (xs: L.List<number>) => L.sum(xs), [partial([1, 2, 3], [1])]);
  assert.match(String(thrown.error?.thrown), /bottom 1/);
  assert.equal(prettyDemand(thrown.inputs[0]!), '1 : ⊥ : _');
  // A tail that throws, and a field of a record.
  const tailThrows = L.cons(1, lazy((): L.Cell<number> => { throw new Error('no tail'); }));
  assert.equal(prettyDemand(observe(whnf, (xs: L.List<number>) => { try { L.length(xs); } catch {} return 0; }, tailThrows).inputs[0]!), '_ : ⊥');
  const field = { a: lazy((): number => { throw new Error('a'); }), b: now(2) };
  assert.equal(prettyDemand(observe(whnf, (r: typeof field) => { try { r.a.force(); } catch {} return r.b.force(); }, field).inputs[0]!), '{ a: ⊥, b: 2 }');
});

test('a ⊥ demand is forced: equal only to ⊥, not less defined than _, and it converts to and from value form', () => {
  const withBottom = observe(whnf, forcesEachCatching, partial([1, 2], [0])).inputs[0]!;
  const unforcedHead = toDemand(L.cons(thunk, L.cons(2, L.nil)), list(number));
  assert.equal(prettyDemand(withBottom), '⊥ : 2 : []');
  assert.ok(!demandEquals(withBottom, unforcedHead));
  assert.ok(demandEquals(withBottom, observe(whnf, forcesEachCatching, partial([5, 2], [0])).inputs[0]!));
  assert.ok(lessDefined(unforcedHead, withBottom));
  assert.ok(!lessDefined(withBottom, unforcedHead));
  assert.ok(!demandEquals(withBottom, toDemand(L.fromArray([1, 2]), list(number))));
  assert.equal(demandSize(withBottom), 5);
  // In value form a ⊥ is a part that throws: toDemand reads it back as ⊥, the input's own part too.
  assert.ok(demandEquals(toDemand(fromDemand(withBottom, list(number)), list(number)), withBottom));
  assert.throws(() => L.toArray(fromDemand<L.List<number>>(withBottom, list(number))), /⊥/);
  assert.equal(prettyValue(fromDemand(withBottom, list(number))), '⊥ : 2 : []');
  // Once an observed function forced it and saw it throw; any other part that throws is an error.
  const input = partial([1, 2], [0]);
  assert.throws(() => toDemand(input, list(number)), /bottom 0/);
  observe(whnf, forcesEachCatching, input);
  assert.equal(prettyDemand(toDemand(input, list(number))), '⊥ : 2 : []');
});

test('a function that forces every element of a partial input, catching, fails a spec that says it forces none, and passes one that passes its input through', () => {
  // Lists whose every element throws: recorded as not evaluated, forcing them all looked like forcing none.
  const bottomsOnly = withArbitrary(fc.nat(5).map((n) => partial(new Array<number>(n).fill(0), [...new Array(n).keys()])), list(number));
  const spineOnly = spec([bottomsOnly], number, (predict, _d, xs) => predict(L.fromLazyArray(L.toLazyArray(xs).map(() => thunk))));
  const r = checkSpec(spineOnly, forcesEachCatching, { seed: 1, unicode: false });
  assert.equal(r.passed, false);
  assert.ok(r.counterexample!.error === undefined);
  assert.deepEqual(showDemandPair(r.counterexample!.actual[0]!, r.counterexample!.predicted[0]!), ['⊥ : []', '_ : []']);
  // Elements that throw or not: the spec that says it forces all of its input predicts its input itself, whose parts that throw are ⊥.
  const partialLists = withArbitrary(
    fc.array(fc.tuple(fc.nat(9), fc.boolean()), { maxLength: 5 }).map((xs) => partial(xs.map(([x]) => x), xs.flatMap(([, b], i) => (b ? [i] : [])))),
    list(number),
  );
  // The spec that says it forces all of its input predicts its input itself: its parts that throw are ⊥.
  const all = spec([partialLists], number, (predict, _d, xs) => predict(xs));
  const passes = checkSpec(all, forcesEachCatching, { seed: 1 });
  assert.ok(passes.passed, passes.message);
});

test('with 2 workers, a function forcing input parts that throw fails as without, its demands printed with ⊥', { timeout: 60_000 }, async () => {
  const { spec: s, fn } = spineOnlyCheck;
  const alone = checkSpec(s, fn, { seed: 3, unicode: false });
  const parallel = await checkSpec(s, fn, { seed: 3, unicode: false, workers: 2 });
  assert.equal(alone.passed, false);
  assert.match(alone.message, /⊥/);
  assert.equal(parallel.message, alone.message);
});

test('the positions that scale the default budget count what inputs hold: sharing and cycles once, and what cannot be looked at as nothing', () => {
  assert.equal(evaluatedPositions([L.fromArray([1, 2, 3])], 100), 7);
  // A cyclic list of three cells, and a tree of 41 levels sharing each level's subtree (2^40 leaves unfolded).
  const cyclic = L.cycle(L.fromArray([1, 2, 3]));
  L.toArray(L.take(10, cyclic));
  assert.ok(evaluatedPositions([cyclic], 100) < 20);
  let tree: unknown = now(0);
  for (let i = 0; i < 40; i++) tree = now({ left: tree, right: tree });
  assert.ok(evaluatedPositions([tree], 100) < 200);
  const { proxy, revoke } = Proxy.revocable({ a: now(1) }, {});
  revoke();
  assert.equal(evaluatedPositions([proxy, now(proxy), [proxy]], 100), 1);
});
