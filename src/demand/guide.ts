/**
 * Guides: how a walk that records demands treats the lazy positions it meets (force all, one layer,
 * none, read what is evaluated, force a demand written as a value, or follow a demand), and how it
 * reads a `Lazy` under one.
 * @module
 */
import { ForceBudgetExceeded, forceOrThunk, Lazy, peek, thunk, UNEVALUATED, UnevaluatedError } from '../lazy/lazy.ts';
import type { Demand, Forced } from './demand.ts';
import { isInputFailure } from './input-failures.ts';

/**
 * How a walk treats the lazy positions it meets, from one position down: force all of them
 * (`normalize`), force this one and none below (`whnf`), force none, read what is evaluated
 * already (what a run evaluated), force all but those that reach `thunk` (a demand
 * written as a value, `toDemand`), or force as far as a demand says.
 * @internal
 */
export type Guide = typeof ALL | typeof WHNF | typeof NONE | typeof EVALUATED | typeof VALUE_FORM | Demand;
export const ALL = 0;
export const WHNF = 1;
export const NONE = 2;
export const EVALUATED = 3;
export const VALUE_FORM = 4;

/** @internal The guide for field `i` of a layer walked under `g`. */
export function below(g: Guide, i: number): Guide {
  return typeof g === 'number' ? (g === WHNF ? NONE : g) : (g as Forced).field(i);
}

/** @internal A `Lazy` read by a walk under guide `g`: its value, or {@link UNREAD} where the guide leaves it unforced. */
export function read(l: Lazy<unknown>, g: Guide): unknown {
  if (g === NONE || (g === EVALUATED && !l.isEvaluated)) return UNREAD;
  return g === EVALUATED ? peek(l) : g === VALUE_FORM ? forceValueForm(l) : forceReached(l);
}

/**
 * A lazy position a walk forces: its value, or {@link THREW} where forcing it passed on a failure
 * of the observation's inputs (see `input-failures.ts`): the result is ⊥ there, and the walk goes
 * on with the rest, as a consumer of an iterable result does past a pull that threw.
 */
function forceReached(l: Lazy<unknown>): unknown {
  try {
    return l.force();
  } catch (err) {
    if (isInputFailure(err)) return THREW;
    throw err;
  }
}

/** A lazy position the walk leaves unforced. @internal */
export const UNREAD = Symbol('unread');

/** @internal What {@link read} returns for a lazy position of a demand in value form that is a {@link markBottom known ⊥}, or one that passed on an input's failure. */
export const THREW = Symbol('threw');

/**
 * The parts known to throw when forced: those of inputs that threw when an observed function
 * forced them, and the `⊥`s of demands in value form. Only these are `⊥` when a demand in value
 * form is converted: any other that throws is a mistake of the spec, which must stay an error.
 * Weak: a part is kept by its value, not by this.
 */
const knownBottoms = new WeakSet<Lazy<unknown>>();

/** @internal Marks `l` as a part known to throw when forced (see {@link knownBottoms}). */
export function markBottom(l: Lazy<unknown>): void {
  knownBottoms.add(l);
}

/** @internal Whether `l` is a part known to throw when forced (see {@link knownBottoms}). */
export function isKnownBottom(l: Lazy<unknown>): boolean {
  return knownBottoms.has(l);
}

/**
 * A lazy position of a demand in value form (or of a value being printed): its value, or {@link UNREAD} where forcing reaches
 * `thunk`, or {@link THREW} where it throws and is a {@link markBottom known ⊥} (a part of an input
 * that the function forced and saw throw, passed through by a spec). Reaching `thunk` is routine here (a spec's `xs ++ thunk` ends in one), and capturing
 * the stack trace of its `UnevaluatedError` was the largest single cost of checking a spec; so it
 * is forced with stack traces off. Any other error is raised again by forcing once more with them
 * on (what threw is not memoised), so that it carries its stack.
 */
function forceValueForm(l: Lazy<unknown>): unknown {
  if (l === thunk) return UNREAD;
  if (l.isEvaluated) return l.force();
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    const x = forceOrThunk(l);
    return x === UNEVALUATED ? UNREAD : x;
  } catch (err) {
    if (err instanceof UnevaluatedError) return UNREAD;
    if (knownBottoms.has(l) && !(err instanceof ForceBudgetExceeded)) return THREW;
    Error.stackTraceLimit = limit;
    return l.force();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
