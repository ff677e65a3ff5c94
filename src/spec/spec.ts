/**
 * Specifications of strictness (paper, section 2): given the demand on a function's result and
 * its inputs, a spec predicts the demand on each input, by calling `predict` with one demand per
 * input. Demands come and go in value form, with `thunk` where nothing is evaluated.
 * @module
 */
import { inspect } from 'node:util';
import { counted } from './counted.ts';
import { ForceBudgetExceeded, forceCallCount, overBudget, rewindForceCalls, thunk, UnevaluatedError, withBudget, type GrowingBudget, type withForceBudget } from '../lazy/lazy.ts';
import { checkDemand, type Demand } from '../demand/demand.ts';
import { fromDemandGuided, inValueForm, toDemand, valueGuide } from '../demand/convert.ts';
import { argumentName, observeDetailed, refuseAsyncOrGenerator, toContext } from '../demand/observe.ts';
import { describeSafely } from '../demand/describe.ts';
import { ShapeMismatchError } from '../demand/shape-errors.ts';
import type { Shape } from '../demand/shape-types.ts';
import { someShapeWithin } from '../demand/shape-walk.ts';
import { checkShapes } from '../demand/shape-arguments.ts';
import { safeInstanceof } from '../lazy/thrown.ts';
import { matchesValueForm } from '../demand/value-form-match.ts';
import { lastAsked } from '../demand/last-asked.ts';
import { declareIterableInputs } from '../iter/demand.ts';

/** The shapes of a function's arguments, one per parameter. */
export type ShapesOf<A extends readonly unknown[]> = { readonly [K in keyof A]: Shape<A[K]> };

/**
 * The body of a spec, curried as in the paper: `predict`, then the demand on the result (in value
 * form), then the inputs. It must call `predict` exactly once, with one demand per input, before it
 * returns: a spec is synchronous (one that returns a Promise is refused with a {@link SpecError}).
 */
export type SpecBody<A extends readonly unknown[], R> = (predict: (...demands: A) => void, resultDemand: R, ...inputs: A) => void;

/** A strictness specification of functions `(...args: A) => R`, carrying the shapes of the arguments and result. */
export interface Spec<A extends readonly unknown[], R> {
  /** The shapes of the function's arguments. */
  readonly args: ShapesOf<A>;
  /** The shape of its result. */
  readonly result: Shape<R>;
  /** The prediction (see {@link SpecBody}). */
  readonly body: SpecBody<A, R>;
  /** Names of the arguments, for messages. */
  readonly names?: readonly string[];
  /** Who predicts, as a report names it: `'Spec'` unless said (`'Reference'` for {@link sameStrictnessAs}). */
  readonly predictor?: string;
  /**
   * @internal For an asynchronous check, the body of one case, made asynchronously in place of
   * {@link Spec.body}: for a prediction that must await something first (a reference observed
   * over async iterables), under the case's force budget.
   */
  bodyAsync?(resultDemand: Demand, inputs: A, budget: number): Promise<SpecBody<A, R>>;
}

/**
 * Declares a spec. The argument shapes fix the types of `predict`, the inputs, and the functions
 * the spec can check.
 *
 * @example
 * ```ts
 * // take's strictness (paper, section 2.2): n always, then as much of xs as the result, plus
 * // one more cell when the list is longer than n.
 * const takeSpec = spec([lazyOf(number), list(number)], list(number), (predict, d, n, xs) =>
 *   predict(n, n.force() > List.length(xs) ? d : List.append(d, thunk)));
 * ```
 */
// NoInfer: the shapes type the body; a body that leaves out inputs it does not use must not type them (it made A `[]`, and the error blamed the shapes).
export function spec<const A extends readonly unknown[], R>(args: ShapesOf<A>, result: Shape<R>, body: NoInfer<SpecBody<A, R>>, names?: readonly string[]): Spec<A, R> {
  checkShapes(args, result);
  return { args, result, body, ...(names ? { names } : {}) };
}

/** Thrown when a spec itself is wrong: it never calls `predict`, calls it with the wrong number of demands, throws, or runs past the force budget. */
export class SpecError extends Error {
  /** Always `'SpecError'`: a worker's report rebuilds a spec error by this name. */
  override name = 'SpecError';
  /** @internal The demand on the result that the spec failed on, if a check ran it (see `predictMatching`): a report names its case with it. Not enumerable, so not printed with the error. */
  declare readonly resultDemand?: Demand;
}

/** @internal Throws a TypeError saying what `fn` (`what`: "the function to check") is, where it is not a function. */
export function refuseNonFunction(fn: unknown, what: string): void {
  if (typeof fn !== 'function') throw new TypeError(`${what} is not a function: got ${inspect(fn, { depth: 0, breakLength: Infinity })}`);
}

/** @internal A function's name for messages, or "an anonymous function" (whatever `fn` is: a check refuses a non-function later, saying so). */
export const nameOf = (fn: unknown): string => (typeof fn === 'function' && fn.name) || 'an anonymous function';

/**
 * @internal Checks what a check of `mode` is called with, before it runs: throws a TypeError when
 * the spec's shapes are async (unless the check is `async`; the message names the mode's
 * asynchronous checks), when `fn` is not a function (the second argument of a check) or is an async
 * or generator function (unless the check is `async`: it awaits them), and a {@link SpecError} when
 * it declares a number of parameters other than the spec's arguments.
 */
export function checkCall(s: Spec<readonly unknown[], unknown>, fn: (...args: any[]) => unknown, async = false, mode: 'random' | 'exhaustive' = 'random'): void {
  if (!async) refuseAsync(s, mode === 'random' ? 'checkSpecAsync or assertSpecAsync' : 'checkSpecExhaustiveAsync or assertSpecExhaustiveAsync');
  refuseNonFunction(fn, 'the function to check');
  if (!async) refuseAsyncOrGenerator(fn, 'the function to check', s.result.protocol !== undefined);
  const arity = s.args.length;
  if (fn.length !== 0 && fn.length !== arity) {
    // fn.length stops at a parameter with a default value or a rest parameter: say so, as that may be why.
    throw new SpecError(
      `the spec is for functions of ${counted(arity, 'argument')}, but the function takes ${fn.length}` +
        (fn.length < arity ? ' (JavaScript counts the parameters before the first one with a default value; to check such a function, wrap it: (a, b) => f(a, b))' : ''),
    );
  }
}

/** @internal Refuses, for a synchronous check, shapes of which one is async, saying what to `use` instead (an async function is refused by {@link checkCall}). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function refuseAsync(shapes: { readonly args: readonly Shape<any>[]; readonly result: Shape<any> }, use: string): void {
  const asyncShape = [...shapes.args, shapes.result].find((shape) => someShapeWithin(shape, (x) => x.protocol?.async === true));
  if (asyncShape === undefined) return;
  throw new TypeError(`the spec's shape ${asyncShape.name} is async: its check is asynchronous. Use ${use}, which return a promise (docs/iterators.md)`);
}

/**
 * Runs a spec on an observed result demand and the inputs: the predicted input demands, or a {@link SpecError}.
 * Run under a force budget ({@link withForceBudget}), as checks run it, a spec (or its prediction)
 * that forces past it is a {@link SpecError} too.
 *
 * @example
 * ```ts
 * // take 2 [5, 6, 7] with its first result cell demanded
 * predictDemands(takeSpec, toDemand(cons(thunk, thunk)), [now(2), fromArray([5, 6, 7])]).map((d) => prettyDemand(d)); // ['2', '_ : _']
 * ```
 */
export function predictDemands<A extends readonly unknown[], R>(s: Spec<A, R>, resultDemand: Demand, inputs: A): Demand[] {
  checkDemand(resultDemand, 'predictDemands', 'resultDemand');
  return readPrediction(s, prediction(s, resultDemand, inputs), undefined, allDemands);
}

/** What the spec predicts, in value form: its call of `predict`, one value per input; a {@link SpecError} if it does not make one. */
function prediction<A extends readonly unknown[], R>(s: Spec<A, R>, resultDemand: Demand, inputs: A): readonly unknown[] {
  const arity = s.args.length;
  let calls = 0;
  let predicted: readonly unknown[] = [];
  let returned: unknown;
  declareIterableInputs(s.args as readonly Shape<unknown>[], inputs);
  try {
    // `predict` is written in place: a named closure would be renamed (a defineProperty) on every call under tsx.
    returned = s.body(
      (...demands: A) => {
        calls++;
        predicted = demands;
      },
      inValueForm(resultDemand, s.result as Shape<unknown>) as R,
      ...inputs,
    );
  } catch (err) {
    if (err instanceof SpecError) throw err;
    const why =
      err instanceof ForceBudgetExceeded
        ? specDiverges(err)
        : err instanceof UnevaluatedError
        ? 'the spec forced `thunk` (an unevaluated part of the result demand); test with isThunk/cap before using it'
        : `the spec threw ${describeSafely(err)}`;
    throw new SpecError(why, { cause: err });
  }
  if (returned !== undefined) refuseThenable(returned);
  if (calls === 0) throw new SpecError('the spec never called predict');
  if (calls > 1) throw new SpecError(`the spec called predict ${calls} times; it must call it once`);
  if (predicted.length !== arity) {
    throw new SpecError(`the spec called predict with ${counted(predicted.length, 'demand')}, but the function has ${counted(arity, 'argument')}`);
  }
  return predicted;
}

/**
 * Throws a {@link SpecError} if a spec `returned` a thenable (an async spec's Promise): the check
 * reads the prediction when the spec returns, so what the spec does after an `await` is lost,
 * and "never called predict" would hide why. Its rejection, if any, is the refusal's, not unhandled.
 */
function refuseThenable(returned: unknown): void {
  let then: unknown;
  try {
    then = (typeof returned === 'object' || typeof returned === 'function') && returned !== null ? (returned as { then?: unknown }).then : undefined;
  } catch {
    return; // what a spec returns is not read otherwise: a throwing getter is no thenable
  }
  if (typeof then !== 'function') return;
  try {
    then.call(returned, undefined, () => {});
  } catch {
    // a thenable whose then throws is refused all the same
  }
  throw new SpecError(
    'the spec returned a Promise (an async function, or a thenable): specs are synchronous, and a check reads the prediction when the spec returns, so what it does after an await is lost. Write the spec as a plain function that calls predict before it returns: the result demand and the inputs it is given are there to read without awaiting (an async iterable\'s demand too, see docs/iterators.md)',
  );
}

/** What a spec predicts (`values`), read by `read` as {@link toDemand} reads it: what reading it throws is a {@link SpecError}. */
function readPrediction<M, T>(s: Pick<Spec<readonly unknown[], unknown>, 'args' | 'names'>, values: readonly unknown[], m: M, read: (s: Pick<Spec<readonly unknown[], unknown>, 'args' | 'names'>, values: readonly unknown[], m: M) => T): T {
  try {
    return read(s, values, m);
  } catch (err) {
    if (err instanceof ForceBudgetExceeded) throw new SpecError(specDiverges(err), { cause: err });
    // Reading the prediction forces it: a part of it may throw.
    const why = err instanceof ShapeMismatchError ? `does not fit its argument: ${err.message}` : `threw when it was read: ${describeSafely(err)}`;
    throw new SpecError(`the spec's prediction ${why}`, { cause: err });
  }
}

/** The path of the prediction for argument `i` in messages. */
function predictionPath(names: readonly string[] | undefined, i: number): string {
  return `prediction for ${argumentName(names, i)}`;
}

/** The demands of a prediction, in order. */
function allDemands(s: Pick<Spec<readonly unknown[], unknown>, 'args' | 'names'>, values: readonly unknown[]): Demand[] {
  return values.map((v, i) => toDemand(v, s.args[i] as Shape<unknown>, predictionPath(s.names, i)));
}

/** Whether every argument's prediction is its actual demand, in order, read up to the first that is not. */
function allMatch(s: Pick<Spec<readonly unknown[], unknown>, 'args' | 'names'>, values: readonly unknown[], actual: readonly Demand[]): boolean {
  const paths = predictionPaths(s.names, values.length);
  for (let i = 0; i < values.length; i++) if (!matchesValueForm(values[i], s.args[i] as Shape<unknown>, paths[i]!, actual[i]!)) return false;
  return true;
}

/** The paths of the predictions for `n` arguments named `names` (see {@link predictionPath}), those last asked for kept: a check compares on every trial. */
const predictionPaths = lastAsked((names: readonly string[] | undefined, n: number): readonly string[] => Array.from({ length: n }, (_, i) => predictionPath(names, i)));

/**
 * @internal {@link predictDemands} under a force budget of its own: a spec that runs out of it is a
 * {@link SpecError}, even one that caught the error and predicted (then {@link withForceBudget}
 * throws on return). Where every argument's comparison holds of equal demands, the check gives the
 * `actual` demands, and each prediction is compared with its own as it is read, without converting
 * it (see `matchesValueForm`): {@link MATCHED} where every one is the demand observed. Otherwise the
 * predicted demands, converted as {@link predictDemands} converts them: the forces of the
 * comparison are taken back first, as the conversion makes them again (each force counts, of an
 * evaluated Lazy too), so that the budget counts what it counted without the comparison.
 */
export function predictMatching<A extends readonly unknown[], R>(
  budget: number | GrowingBudget,
  s: Spec<A, R>,
  resultDemand: Demand,
  inputs: A,
  actual: readonly Demand[] | undefined,
): Demand[] | typeof MATCHED {
  try {
    return withBudget(budget, () => {
      // The result demand is the checker's own (not checked as predictDemands checks a caller's).
      const values = prediction(s, resultDemand, inputs);
      const before = forceCallCount();
      if (actual !== undefined && readPrediction(s, values, actual, allMatch)) return MATCHED;
      rewindForceCalls(before);
      return readPrediction(s, values, undefined, allDemands);
    });
  } catch (err) {
    const e = err instanceof ForceBudgetExceeded ? new SpecError(specDiverges(err), { cause: err }) : err;
    if (e instanceof SpecError && e.resultDemand === undefined) Object.defineProperty(e, 'resultDemand', { value: resultDemand });
    throw e;
  }
}

/** @internal What {@link predictMatching} returns where every prediction is the demand observed. */
export const MATCHED = Symbol('matched');

/** Why a spec (or the conversion of its prediction) that ran out of the force budget is wrong: it would not have ended. */
function specDiverges(err: ForceBudgetExceeded): string {
  return `the spec ${overBudget(err.budget)} (the force budget): it probably walks an infinite input or returns an infinite demand`;
}

/**
 * The demand a function actually puts on its inputs under a demand on its result, in value form
 * (paper, `specify`): for specs of higher-order functions, which depend on their function
 * arguments' strictness. A result demand of `thunk` means the function is not applied at all.
 *
 * @example
 * ```ts
 * const mapSpec = spec([fn([lazyOf(number)], number), list(number)], list(number), (predict, d, f, xs) =>
 *   // `all isThunk (cap d)`: List.all would force the elements (and so throw at a thunk); test the lazy heads instead.
 *   predict(List.toLazyArray(List.cap(d)).every((h) => isThunk(h)) ? thunk : f, List.zipWithLazy((dy, x) => specify1(f, dy, x), d, xs)));
 * ```
 */
export function specify<A extends unknown[]>(f: (...args: A) => unknown, resultDemand: unknown, ...inputs: A): A {
  const demand = toDemand(resultDemand);
  if (!demand.forced) return inputs.map(() => thunk) as unknown as A;
  const obs = observeDetailed(toContext(demand), f, inputs);
  if (obs.error) throw obs.error.thrown;
  // Rebuilt with each input's own nesting of Lazies (a list of lists holds two at each element).
  return obs.inputs.map((d, i) => fromDemandGuided(d, inputs[i], valueGuide, undefined)) as A;
}

/**
 * {@link specify} for a function of one argument (paper, `specify1`).
 *
 * @example
 * ```ts
 * // the demand map (* 2) puts on its list when its result is demanded as 2 : _
 * prettyValue(specify1((xs: List.List<number>) => List.map((x: number) => x * 2, xs), cons(2, thunk), fromArray([1, 2, 3]))); // '1 : _'
 * ```
 */
export function specify1<A>(f: (a: A) => unknown, resultDemand: unknown, input: A): A {
  return specify(f, resultDemand, input)[0];
}

safeInstanceof(SpecError);
