/**
 * A declarative spec language (the paper's section 8 asks for one "atop StrictCheck's
 * foundations"): a spec made of one combinator per argument, each a pattern that recurs in
 * strictness specs, combined by {@link specOf} into a {@link Spec} like any other, so that it
 * works with every check (random, exhaustive, in workers, as a fast-check property).
 *
 * A combinator is an {@link ArgumentDemand}: from the demand on the result (in value form) and
 * the inputs, the demand it predicts on its argument. {@link specOf} hands them to you bound to
 * the spec's argument and result types (a {@link SpecLanguage}), so that the functions you give
 * them are typed by the shapes, as the body of `spec` is. The patterns:
 * - `whenDemanded`, `forcedWhen`, `neverForced`: all of an argument, or none;
 * - `spineStrict`: a list's whole spine, no element (`length`);
 * - `asResult`: a list as far as the result, constructor for constructor, its elements as the
 *   result's or as a function argument demands them (`map`, `take`, `zip`, `++`'s first list);
 * - `resultFrom`: a list as the rest of the result past a point, or its reverse (`++`'s second list, `reverse`);
 * - `untilFound`, `shortCircuits`: a list up to the elements that stop a walk (`filter`, `and`);
 * - for iterables (`iter-combinators.ts`): `pulledAsResult`, `pulledInLockstep`, `pulledUntil`,
 *   `exhausted`, and `onlyWhen` for any argument.
 * @module
 */
import { isThunk, thunk, type Lazy } from '../lazy/lazy.ts';
import type { List } from '../lazy/cell.ts';
import * as L from '../lazy/list.ts';
import type { Shape } from '../demand/shape-types.ts';
import { argumentName } from '../demand/observe.ts';
import { BOOLEAN_OPTION, checkDeclared, FUNCTION_OPTION } from '../demand/options.ts';
import { spec, type ShapesOf, type Spec } from './spec.ts';
import { iterLanguage, type IterSpecLanguage } from './iter-combinators.ts';

/**
 * How a spec demands one argument, of type `X`, of a function of arguments `A` and result `R`:
 * from the demand on the result (in value form), the argument itself, all the inputs, the
 * argument's index among them and its name (as the spec names it, else `args[i]`, for messages),
 * the predicted demand on it. The combinators make these; a function of your own is one too.
 */
export type ArgumentDemand<A extends readonly unknown[], R, X> = (resultDemand: R, argument: X, inputs: A, index: number, name: string) => X;

/** The {@link ArgumentDemand} of each argument of a function of arguments `A` and result `R`, in order. */
export type ArgumentDemands<A extends readonly unknown[], R> = { readonly [K in keyof A]: ArgumentDemand<A, R, A[K]> };


/** The demand on an element of the list type `R`: a `Lazy` of its element type. */
export type ElementOf<R> = R extends List<infer Y> ? Lazy<Y> : never;

/** Options of {@link SpecLanguage.asResult}. */
export interface AsResultOptions<A extends readonly unknown[]> {
  /**
   * Whether the result ends before the list does (`take` when `n` is less than its length): then
   * a `[]` ending the result demand is not a constructor of the list, whose tail stays
   * unevaluated. Default: never (a `[]` of the result is the list's `[]`, or the cell the
   * function looked at before ending it).
   */
  readonly stopsEarly?: ((...inputs: [...A]) => boolean) | undefined;
  /** The most constructors of the list the result's stand for (`zip`'s second list: one per cons of the first). Default: no limit. */
  readonly atMost?: ((...inputs: [...A]) => number) | undefined;
}

/**
 * The combinators, bound to the argument types `A` and the result type `R` of a spec (given by
 * {@link specOf}). Each makes an {@link ArgumentDemand}; those that are one already
 * (`whenDemanded`, `neverForced`, `spineStrict`) are given as they are.
 */
export interface SpecLanguage<A extends readonly unknown[], R> extends IterSpecLanguage<A, R> {
  /**
   * The argument is forced, all of it, whenever the result is demanded at all (`take`'s count);
   * an argument of a strict shape (`number`, a tuple: the call itself evaluates it), always.
   *
   * @example
   * ```ts
   * const idSpec = specOf([lazyOf(number)], lazyOf(number), ({ whenDemanded }) => [whenDemanded]);
   * ```
   */
  whenDemanded<X>(resultDemand: R, argument: X, inputs: A, index: number): X;
  /**
   * The argument is never forced (`const`'s second argument).
   *
   * @example
   * ```ts
   * // const x y = x
   * const constSpec = specOf([lazyOf(number), lazyOf(number)], lazyOf(number), ({ whenDemanded, neverForced }) => [whenDemanded, neverForced]);
   * ```
   */
  neverForced<X>(resultDemand: R, argument: X, inputs: A): X;
  /**
   * The argument is forced, all of it, when the result is demanded and `condition` holds of the
   * result demand and the inputs; otherwise not at all. For a function argument, forced means
   * called (`map`'s function: `forcedWhen(anyElementDemanded)`).
   *
   * @example
   * ```ts
   * // filter p xs: p is called once xs has an element; xs is walked to as many kept elements as the result has cells
   * const filterSpec = specOf([fn([number], boolean), list(number)], list(number), ({ forcedWhen, untilFound }) => [
   *   forcedWhen((_d, _p, xs) => !List.isEmpty(xs)),
   *   untilFound((x, p) => p(x), { count: (d) => (isCapped(d) ? Infinity : spineForced(d)) }),
   * ]);
   * ```
   */
  forcedWhen<X>(condition: (resultDemand: R, ...inputs: [...A]) => boolean): ArgumentDemand<A, R, X>;
  /**
   * Spine-strict, element-lazy: whenever the result is demanded, the list argument's whole
   * spine, down to its `[]`, and none of its elements (`length`).
   *
   * @example
   * ```ts
   * const lengthSpec = specOf([list(number)], number, ({ spineStrict }) => [spineStrict]);
   * ```
   */
  spineStrict<X>(resultDemand: R, argument: List<X>, inputs: A): List<X>;
  /**
   * Forces as much of the list argument as of the result: a constructor of the list for each
   * constructor of the result demand (cons cells, and the `[]` ending it), as `take` and `++`
   * walk their lists, element `i` as the result's element `i`. For a list of another type than
   * the result, or elements demanded otherwise, give `elements`: the demand on element `i` of the
   * list from the demand on element `i` of the result (`thunk` past its end), the element itself
   * and the inputs (`map`: `(dy, x, f) => specify1(f, dy, x)`).
   *
   * @example
   * ```ts
   * // zip: xs as far as the result, ys too but only beside a cons of xs, components as the pairs'
   * const zipSpec = specOf([list(number), list(number)], list(tuple(lazyOf(number), lazyOf(number))), ({ asResult }) => [
   *   asResult({ elements: (p) => fieldDemand(p, 0) }),
   *   asResult({ elements: (p) => fieldDemand(p, 1), atMost: (xs) => List.length(xs) }),
   * ]);
   * ```
   */
  asResult<X>(options: AsResultOptions<A> & { readonly elements: (resultElement: ElementOf<R>, element: Lazy<X>, ...inputs: [...A]) => Lazy<X> }): ArgumentDemand<A, R, List<X>>;
  /** {@link asResult} for a list of the result's type, element `i` demanded as the result's element `i`. */
  asResult(options?: AsResultOptions<A>): ArgumentDemand<A, R, R>;
  /**
   * The list argument is demanded as the rest of the result from cell `offset` on, when the
   * result is demanded past it, and not at all otherwise (`xs ++ ys`'s `ys`, from the length of
   * `xs`). `reversed`: as `reverse` demands its list when that rest is its result: its whole
   * spine, and element `i` as the rest's element `n − 1 − i` (`reverse`, `fs ++ reverse bs`'s `bs`).
   *
   * @example
   * ```ts
   * // rotNaive fs bs = fs ++ reverse bs (the paper's rot_simple_spec)
   * const rotSimpleSpec = specOf([list(number), list(number)], list(number), ({ asResult, resultFrom }) => [
   *   asResult({ atMost: (fs) => List.length(fs) + 1 }),
   *   resultFrom((fs) => List.length(fs), { reversed: true }),
   * ]);
   * ```
   */
  resultFrom(offset: (...inputs: [...A]) => number, options?: { readonly reversed?: boolean }): ArgumentDemand<A, R, R>;
  /**
   * Whenever the result is demanded, the list argument is walked, cells and elements (all of
   * each), until `count` of its elements match (default 1; `Infinity`: all of it), or to its
   * `[]`: a walk that stops at what it looks for (`filter`, `elem`).
   *
   * @example
   * ```ts
   * // elem x xs: up to the first element equal to x
   * const elemSpec = specOf([number, list(number)], boolean, ({ whenDemanded, untilFound }) => [whenDemanded, untilFound((y, x) => y === x)]);
   * ```
   */
  untilFound<X>(match: (element: X, ...inputs: [...A]) => boolean, options?: { readonly count?: (resultDemand: R, ...inputs: [...A]) => number }): ArgumentDemand<A, R, List<X>>;
  /**
   * Short-circuits on a value: whenever the result is demanded, the list argument up to its
   * first element equal to `value` (`Object.is`), cells and elements, or all of it when none is
   * (`and` on `false`, `or` on `true`).
   *
   * @example
   * ```ts
   * const andSpec = specOf([list(boolean)], boolean, ({ shortCircuits }) => [shortCircuits(false)]);
   * ```
   */
  shortCircuits<X>(value: X): ArgumentDemand<A, R, List<X>>;
}

/**
 * A spec made of one {@link ArgumentDemand} per argument, returned in order by `demands` from
 * the combinators of a {@link SpecLanguage} (or functions of your own): the shapes type them, as
 * they type the body of `spec`. It is a `Spec`, for every check.
 *
 * @example
 * ```ts
 * // take: n whenever the result is demanded; xs as far as the result, but for the [] that ends
 * // it when n runs out first (take stops without looking at the rest of xs)
 * const takeByCombinators = specOf([lazyOf(number), list(number)], list(number), ({ whenDemanded, asResult }) => [
 *   whenDemanded,
 *   asResult({ stopsEarly: (n, xs) => n.force() <= List.length(xs) }),
 * ]);
 * strictCheckSpecExact(takeByCombinators, take);
 *
 * // map: f when some element of the result is demanded; xs as far as the result, element i as f demands it under the result's element i
 * const mapByCombinators = specOf([fn([lazyOf(number)], number), list(number)], list(number), ({ forcedWhen, asResult }) => [
 *   forcedWhen(anyElementDemanded),
 *   asResult({ elements: (dy, x, f) => specify1(f, dy, x) }),
 * ]);
 * // length, and and reverse
 * const lengthSpec = specOf([list(number)], number, ({ spineStrict }) => [spineStrict]);
 * const andSpec = specOf([list(boolean)], boolean, ({ shortCircuits }) => [shortCircuits(false)]);
 * const reverseSpec = specOf([list(number)], list(number), ({ resultFrom }) => [resultFrom(() => 0, { reversed: true })]);
 * ```
 */
export function specOf<const A extends readonly unknown[], R>(
  args: ShapesOf<A>,
  result: Shape<R>,
  demands: NoInfer<(language: SpecLanguage<A, R>) => ArgumentDemands<A, R>>,
  names?: readonly string[],
): Spec<A, R> {
  // spec checks the shapes first; the rules are made after, from them, and read only when the spec is run.
  const made = spec(args, result, (predict, d, ...inputs) => predict(...(rules.map((rule, i) => rule(d, inputs[i], inputs, i, argNames[i]!)) as unknown as A)), names);
  // A strict argument has no unevaluated demand: the call evaluates it, whatever the result's demand.
  const lazyAt = (args as readonly Shape<unknown>[]).map((s) => s.kind === 'lazy' || s.kind === 'fn');
  const whenDemanded = (d: unknown, x: unknown, _inputs: unknown, i: number) => (isThunk(d) && lazyAt[i] ? thunk : x);
  const rules = demands({ ...language, whenDemanded } as unknown as SpecLanguage<A, R>) as unknown as readonly ArgumentDemand<A, R, unknown>[];
  const argNames = lazyAt.map((_, i) => argumentName(names, i));
  return made;
}

/**
 * The first `count` constructors of `xs` (its cons cells while it has them, then its `[]`),
 * element `i` as `element(i, x)` says, then an unevaluated tail. Forces that much of `xs`.
 */
function prefixOf<X>(xs: List<X>, count: number, element: (i: number, x: Lazy<X>) => Lazy<X>): List<X> {
  const heads: Lazy<X>[] = [];
  let ended = false;
  for (let l = xs; heads.length < count; ) {
    const c = l.force();
    if (c.tag === 'Nil') {
      ended = true;
      break;
    }
    heads.push(c.head);
    l = c.tail;
  }
  let out: List<X> = ended ? L.nil : thunk;
  for (let i = heads.length - 1; i >= 0; i--) out = L.lazyCons(element(i, heads[i]!), out);
  return out;
}

// One implementation for every A and R: the types only check the functions given.
type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any
type Inputs = Any[];

const forcedWhen = (condition: (d: unknown, ...inputs: Inputs) => boolean) => (d: unknown, x: unknown, inputs: Inputs) => (!isThunk(d) && condition(d, ...inputs) ? x : thunk);

const untilFound =
  (match: (x: unknown, ...inputs: Inputs) => boolean, options: { readonly count?: (d: unknown, ...inputs: Inputs) => number } = {}) =>
  (d: unknown, xs: List<unknown>, inputs: Inputs): List<unknown> => {
    if (isThunk(d)) return thunk;
    const wanted = options.count ? options.count(d, ...inputs) : 1;
    let cells = 0;
    let ended = false;
    for (let l = xs, found = 0; found < wanted; cells++) {
      const c = l.force();
      if (c.tag === 'Nil') {
        ended = true;
        break;
      }
      if (match(c.head.force(), ...inputs)) found++;
      l = c.tail;
    }
    return prefixOf(xs, ended ? cells + 1 : cells, (_i, x) => x);
  };

/** The options of the list combinators that take some: checked when the spec is made, as a misspelt one changed what the spec says without a word. */
const AS_RESULT_OPTIONS = { stopsEarly: FUNCTION_OPTION, atMost: FUNCTION_OPTION, elements: FUNCTION_OPTION };
const RESULT_FROM_OPTIONS = { reversed: BOOLEAN_OPTION };
const UNTIL_FOUND_OPTIONS = { count: FUNCTION_OPTION };

// whenDemanded is bound by specOf, to the shapes.
const language: Omit<SpecLanguage<Inputs, Any>, 'whenDemanded'> = {
  ...iterLanguage,
  neverForced: <X>() => thunk as X,
  forcedWhen: (condition) => forcedWhen(condition) as Any,
  spineStrict: (d, xs) => (isThunk(d) ? thunk : prefixOf(xs, Infinity, () => thunk)),
  asResult: (options: AsResultOptions<Inputs> & { readonly elements?: (dy: Any, x: Lazy<unknown>, ...inputs: Inputs) => Lazy<unknown> } = {}) => {
    checkDeclared(options, AS_RESULT_OPTIONS, 'asResult');
    const { elements, stopsEarly, atMost } = options;
    return (d: List<unknown>, xs: List<unknown>, inputs: Inputs) => {
      const count = Math.min(stopsEarly?.(...inputs) ? L.spineForced(d) : L.numCtrForced(d), atMost ? atMost(...inputs) : Infinity);
      return prefixOf(xs, count, (i, x) => (elements ? elements(L.elementAt(d, i), x, ...inputs) : L.elementAt(d, i)));
    };
  },
  resultFrom: (offset, options = {}) => {
    checkDeclared(options, RESULT_FROM_OPTIONS, 'resultFrom');
    return (d: List<unknown>, xs: List<unknown>, inputs: Inputs) => {
      const n = offset(...inputs);
      if (L.numCtrForced(d) <= n) return thunk;
      const rest = L.drop(n, d);
      return options.reversed ? L.reverse(L.take(L.length(xs), L.append(L.cap(rest), L.repeat(thunk)))) : rest;
    };
  },
  untilFound: (match, options = {}) => {
    checkDeclared(options, UNTIL_FOUND_OPTIONS, 'untilFound');
    return untilFound(match as Any, options) as Any;
  },
  shortCircuits: (value) => untilFound((x) => Object.is(x, value)) as Any,
};
