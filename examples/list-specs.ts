/**
 * The paper's list specs as examples: `length`, `append`, `reverse`, `zip` and the higher-order
 * `map` (section 6.3), each a function written the Haskell way over explicitly lazy lists, with a
 * spec of its exact strictness. Some pairs are *meant* to fail (`take'`, the first attempt at
 * `take`'s spec, the original library's `zip` spec, a `map` that forces every element): a strict
 * check must find them, and {@link showcase} labels them "fails as expected".
 * @module
 */
import fc from 'fast-check';
import { isThunk, lazy, now, thunk, type Lazy } from '../src/lazy/lazy.ts';
import { Cons, NIL, nil, type Cell, type List } from '../src/lazy/cell.ts';
import * as L from '../src/lazy/list.ts';
import { lazyOf, list } from '../src/demand/lazy-positions.ts';
import { fn, number } from '../src/demand/primitives.ts';
import type { Shape } from '../src/demand/shape-types.ts';
import { tuple } from '../src/demand/tuples.ts';
import { spec, specify1, type Spec } from '../src/spec/spec.ts';
import type { CheckOptions } from '../src/spec/options.ts';
import type { CheckResult } from '../src/spec/result.ts';
import { withArbitrary } from '../src/engine/fast-check-bridge.ts';
import { take, takePrime, takeSpec, takeSpecFirstAttempt } from './take.ts';
import { checkSpec } from '../src/checks.ts';

const numbers = list(number);

// ---------------------------------------------------------------------------------------------
// Helpers for demands in value form

/**
 * A list demand on the first `count` cells of a list of `len` cells: cons cells while the list
 * has them (element `i` demanded as `elem(i)`), then `[]` if `count` reaches past the end, or an
 * unevaluated tail if it does not.
 */
function prefixDemand<T>(count: number, len: number, elem: (i: number) => Lazy<T>): List<T> {
  let out: List<T> = count > len ? nil : thunk;
  for (let i = Math.min(count, len) - 1; i >= 0; i--) out = L.lazyCons(elem(i), out);
  return out;
}

/** The evaluated elements of a list demand (its heads, thunk or not), up to its end or its unevaluated tail. */
function elementDemands<T>(d: List<T>): Lazy<T>[] {
  return L.toLazyArray(L.cap(d));
}

/** Whether no element of a list demand is evaluated (`all isThunk (cap d)`; `L.all` would force the elements). */
function noElementDemanded<T>(d: List<T>): boolean {
  return elementDemands(d).every((x) => isThunk(x));
}

// ---------------------------------------------------------------------------------------------
// length

/** `length`: walks the whole spine, never an element. */
export function length<T>(xs: List<T>): number {
  let n = 0;
  for (let c = xs.force(); c instanceof Cons; c = c.tail.force()) n++;
  return n;
}

/** `length` is spine-strict and element-lazy: every cell of `xs` down to `[]`, and no element (`_ : _ : … : []`). */
export const lengthSpec = spec([numbers], number, (predict, _d, xs) => {
  const n = L.length(xs);
  predict(prefixDemand(n + 1, n, () => thunk));
});

// ---------------------------------------------------------------------------------------------
// append

/** `xs ++ ys`: result cell `i` is cell `i` of `xs`; once `xs` ends, the result *is* `ys`. */
export function append<T>(xs: List<T>, ys: List<T>): List<T> {
  return lazy((): Cell<T> => {
    const c = xs.force();
    return c instanceof Cons ? new Cons(c.head, append(c.tail, ys)) : ys.force();
  });
}

/**
 * `xs ++ ys` evaluates `xs` exactly as far as the result is demanded while the result is within
 * `xs`; `ys` is untouched unless the demand reaches past the end of `xs` (then `xs` is evaluated
 * to its `[]` and `ys` carries the rest of the result demand).
 */
export const appendSpec = spec([numbers, numbers], numbers, (predict, d, xs, ys) => {
  const n = L.length(xs);
  if (L.numCtrForced(d) <= n) predict(d, thunk);
  else predict(L.take(n, d), L.drop(n, d));
});

// ---------------------------------------------------------------------------------------------
// reverse

/** `reverse`: the first result cell needs the whole input spine; the elements are moved, not forced. */
export function reverse<T>(xs: List<T>): List<T> {
  return lazy((): Cell<T> => {
    let acc: Cell<T> = NIL;
    for (let c = xs.force(); c instanceof Cons; c = c.tail.force()) acc = new Cons(c.head, now(acc));
    return acc;
  });
}

/**
 * `reverse` is spine-strict: any demand on the result evaluates every cell of `xs` down to `[]`;
 * element `i` of `xs` is evaluated exactly as element `n - 1 - i` of the result is (the paper's
 * `_ : _ : _ : []` for `reverse "abc"` under the demand `_ : _`).
 */
export const reverseSpec = spec([numbers], numbers, (predict, d, xs) =>
  predict(isThunk(d) ? thunk : L.reverse(L.take(L.length(xs), L.append(L.cap(d), L.repeat(thunk))))),
);

// ---------------------------------------------------------------------------------------------
// zip

/** Pairs with lazy components, as Haskell's `(a, b)`: evaluating a pair leaves both components alone. */
export type Pair<A, B> = [Lazy<A>, Lazy<B>];

const pairs = list(tuple(lazyOf(number), lazyOf(number)));

/** `zip`: a result cell evaluates a cell of `xs` and, only if it is a cons, a cell of `ys`. */
export function zip<A, B>(xs: List<A>, ys: List<B>): List<Pair<A, B>> {
  return lazy((): Cell<Pair<A, B>> => {
    const cx = xs.force();
    if (!(cx instanceof Cons)) return NIL;
    const cy = ys.force();
    if (!(cy instanceof Cons)) return NIL;
    return new Cons(lazy((): Pair<A, B> => [cx.head, cy.head]), zip(cx.tail, cy.tail));
  });
}

/**
 * `zip` evaluates as many cells of `xs` as of the result (an `[]` of `xs` when the result ends
 * there), but of `ys` only the cells met beside a *cons* of `xs`: `zip [] ys` never looks at
 * `ys`. Components are evaluated exactly as the pairs' components are.
 */
export const zipSpec = spec([numbers, numbers], pairs, (predict, d, xs, ys) => {
  const forced = L.numCtrForced(d); // result cells evaluated, (:) and [] alike
  const ps = elementDemands(d);
  const component = (i: number, k: 0 | 1): Lazy<number> => {
    const p = ps[i];
    return p === undefined || isThunk(p) ? thunk : p.force()[k];
  };
  const nx = L.length(xs);
  predict(prefixDemand(forced, nx, (i) => component(i, 0)), prefixDemand(Math.min(forced, nx), L.length(ys), (i) => component(i, 1)));
});

/**
 * The original library's `zip` spec, symmetric in `xs` and `ys`: both evaluated as far as the
 * result. Wrong: `zip [] []` under the demand `[]` never evaluates `ys`.
 */
export const zipSpecSymmetric = spec([numbers, numbers], pairs, (predict, d, xs, ys) => {
  const forced = L.numCtrForced(d);
  const ps = elementDemands(d);
  const component = (i: number, k: 0 | 1): Lazy<number> => {
    const p = ps[i];
    return p === undefined || isThunk(p) ? thunk : p.force()[k];
  };
  predict(prefixDemand(forced, L.length(xs), (i) => component(i, 0)), prefixDemand(forced, L.length(ys), (i) => component(i, 1)));
});

// ---------------------------------------------------------------------------------------------
// map (paper, section 6.3)

/** The functions `map` takes: from a *lazy* element, so that they may leave it unevaluated. */
export type ElementFn<A, B> = (x: Lazy<A>) => B;

/** The shape of `map`'s function argument; the checker generates random non-strict functions of it. */
export const elementFn: Shape<ElementFn<number, number>> = fn([lazyOf(number)], number);

/** `map`: a result cell evaluates one cell of `xs`; a result element applies `f` to the element, unevaluated. */
export function map<A, B>(f: ElementFn<A, B>, xs: List<A>): List<B> {
  return lazy((): Cell<B> => {
    const c = xs.force();
    return c instanceof Cons ? new Cons(lazy(() => f(c.head)), map(f, c.tail)) : NIL;
  });
}

/** A `map` that evaluates each element before applying `f`: too strict whenever `f` ignores its argument. */
export function mapStrict<A, B>(f: ElementFn<A, B>, xs: List<A>): List<B> {
  return lazy((): Cell<B> => {
    const c = xs.force();
    return c instanceof Cons
      ? new Cons(
          lazy(() => {
            c.head.force();
            return f(c.head);
          }),
          mapStrict(f, c.tail),
        )
      : NIL;
  });
}

/**
 * The spec of `map` for function arguments of the given shape (the default, {@link elementFn},
 * generates random non-strict functions).
 */
export function mapSpecFor(fnShape: Shape<ElementFn<number, number>>): Spec<readonly [ElementFn<number, number>, List<number>], List<number>> {
  return spec([fnShape, numbers], numbers, (predict, d, f, xs) =>
    predict(noElementDemanded(d) ? thunk : f, L.zipWithLazy((dy, x) => specify1(f, dy, x), d, xs)),
  );
}

/**
 * `map f` evaluates `xs` exactly as far as the result's spine, and element `i` exactly as far as
 * `f` does under the demand on result element `i` (found by running `f`: `specify1`); `f` itself
 * is evaluated (called) only if some element of the result is (paper, `map_spec`).
 */
export const mapSpec = mapSpecFor(elementFn);

/**
 * QuickCheck-style random functions, which evaluate their argument completely before anything
 * else (`coarbitrary`): with only these, `mapStrict` is indistinguishable from `map`.
 */
export const strictElementFn: Shape<ElementFn<number, number>> = withArbitrary(
  fc.func<[number], number>(fc.integer({ min: -30, max: 30 })).map((g): ElementFn<number, number> => (x) => g(x.force())),
  elementFn,
);

/** {@link mapSpec} checked with strict function arguments only: `mapStrict` passes it. */
export const mapSpecStrictFunctions = mapSpecFor(strictElementFn);

// ---------------------------------------------------------------------------------------------
// The showcase

/** One example check: a spec, a function, and whether the check should find a counterexample. */
export interface Example {
  readonly name: string;
  readonly spec: Spec<readonly any[], any>;
  readonly fn: (...args: any[]) => unknown;
  /** `'fail'` for pairs that must disagree (the check must find it). */
  readonly expect: 'pass' | 'fail';
  /** What the example shows. */
  readonly note: string;
}

/** The examples of this module and of `take.ts`, in the order the showcase runs them. */
export const examples: readonly Example[] = [
  { name: 'take vs takeSpec', spec: takeSpec, fn: take, expect: 'pass', note: 'take looks at n first' },
  { name: "take' vs takeSpec", spec: takeSpec, fn: takePrime, expect: 'fail', note: "take' looks at the list first (paper, figure 3)" },
  { name: 'take vs takeSpecFirstAttempt', spec: takeSpecFirstAttempt, fn: take, expect: 'fail', note: 'the first attempt forgets that take stops at n = 0 (paper, figure 2)' },
  { name: 'length vs lengthSpec', spec: lengthSpec, fn: length, expect: 'pass', note: 'spine only' },
  { name: 'append vs appendSpec', spec: appendSpec, fn: append, expect: 'pass', note: 'ys only past the end of xs' },
  { name: 'reverse vs reverseSpec', spec: reverseSpec, fn: reverse, expect: 'pass', note: 'whole spine, elements as demanded' },
  { name: 'zip vs zipSpec', spec: zipSpec, fn: zip, expect: 'pass', note: 'ys only beside a cons of xs' },
  { name: 'zip vs zipSpecSymmetric', spec: zipSpecSymmetric, fn: zip, expect: 'fail', note: "the original library's zip spec: zip [] [] leaves ys alone" },
  { name: 'map vs mapSpec', spec: mapSpec, fn: map, expect: 'pass', note: 'elements as the generated function demands them' },
  { name: 'mapStrict vs mapSpec', spec: mapSpec, fn: mapStrict, expect: 'fail', note: 'caught only by a generated function that ignores its argument' },
  { name: 'mapStrict vs mapSpec, strict functions only', spec: mapSpecStrictFunctions, fn: mapStrict, expect: 'pass', note: 'QuickCheck-style strict functions cannot tell mapStrict from map' },
];

/** Options of {@link showcase}. */
export interface ShowcaseOptions extends Pick<CheckOptions, 'trials' | 'seed' | 'maxSize' | 'unicode'> {
  /** Where lines go. Default `console.log`. */
  readonly log?: (line: string) => void;
}

/** What {@link showcase} found. */
export interface ShowcaseSummary {
  /** Checks that passed. */
  readonly passed: number;
  /** Checks that found a counterexample (expected or not). */
  readonly failed: number;
  /** Checks that found a counterexample, as they should. */
  readonly expectedFailures: number;
  /** Checks whose outcome was not the expected one: a wrong spec or a broken checker. */
  readonly unexpected: number;
  /** Whether every check had its expected outcome. */
  readonly ok: boolean;
  /** Every check's result, by example name. */
  readonly results: ReadonlyArray<{ readonly name: string; readonly expect: 'pass' | 'fail'; readonly result: CheckResult }>;
}

/**
 * Runs every example with the non-throwing `checkSpec` and prints each name with PASS or FAIL
 * ("fails as expected" for the pairs meant to disagree) and the diagram of each counterexample.
 * Deterministic: seed 2018 unless told otherwise.
 */
export function showcase(options: ShowcaseOptions = {}): ShowcaseSummary {
  const log = options.log ?? ((line: string) => console.log(line));
  const { log: _log, ...checkOptions } = options;
  const opts: CheckOptions = { trials: 300, seed: 2018, ...checkOptions };
  const results: { name: string; expect: 'pass' | 'fail'; result: CheckResult }[] = [];
  let passed = 0;
  let expectedFailures = 0;
  let unexpected = 0;
  for (const ex of examples) {
    const result = checkSpec(ex.spec, ex.fn as (...args: readonly any[]) => any, opts);
    results.push({ name: ex.name, expect: ex.expect, result });
    if (result.passed) passed++;
    else if (ex.expect === 'fail') expectedFailures++;
    if (result.passed !== (ex.expect === 'pass')) unexpected++;
    const status = result.passed
      ? ex.expect === 'pass'
        ? 'PASS'
        : 'PASS (UNEXPECTED: this check should have found a counterexample)'
      : ex.expect === 'fail'
        ? 'FAIL (fails as expected)'
        : 'FAIL (UNEXPECTED)';
    log(`${status}  ${ex.name}: ${ex.note}`);
    log(result.message.replace(/^/gm, '      '));
  }
  const failed = examples.length - passed;
  log(`${passed} passed, ${failed} failed (${expectedFailures} as expected)${unexpected > 0 ? `, ${unexpected} UNEXPECTED` : ''}.`);
  return { passed, failed, expectedFailures, unexpected, ok: unexpected === 0, results };
}
