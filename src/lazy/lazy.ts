/**
 * Memoising thunks: the explicit laziness that strictcheck observes.
 *
 * A `Lazy<T>` is computed at most once, on its first {@link Lazy.force}. Chains built with
 * {@link defer} and {@link Lazy.map} are forced by a loop, not by recursion, so a chain of a
 * million thunks that force each other does not overflow the stack.
 * @module
 */

const PENDING = 0;
const RUNNING = 1;
const DONE = 2;

const FN = 0; // run `f`, its result is the value
const DEFER = 1; // run `f`, its result is a Lazy whose value is the value
const MAP = 2; // force the Lazy `f`, apply `g` to its value
const CHAIN = 3; // force the Lazy `f`, apply `g` to its value, force the Lazy that returns
const FIELDS = 4; // run `f(g, v)`: state in fields, not in a closure

const CHAINED = 3; // state of a running CHAIN node whose `g` has been applied (waiting for the Lazy it returned)

/** Thrown when a thunk is forced while it is already being forced: a value that depends on itself (GHC's `<<loop>>`). */
export class LazyLoopError extends Error {
  override name = 'LazyLoopError';
  constructor() {
    super('<<loop>>: a Lazy was forced while it was being forced (the value depends on itself)');
  }
}

/**
 * Thrown when {@link thunk}, the "not evaluated" marker of hand-written demands, is forced or called.
 * Observation and specs catch it; anywhere else it means a demand in value form was used as data.
 */
export class UnevaluatedError extends Error {
  override name = 'UnevaluatedError';
  constructor() {
    super(
      'forced `thunk`: the marker of an unevaluated part of a demand was evaluated. ' +
        'In a spec, use isThunk/cap to inspect demands instead of forcing them.',
    );
  }
}

/** Thrown when a run forces more thunks than its budget allows (see {@link withForceBudget}). */
export class ForceBudgetExceeded extends Error {
  override name = 'ForceBudgetExceeded';
  constructor(readonly budget: number) {
    super(`forced more than ${budget} thunks: the function probably diverges (an infinite structure forced in full?)`);
  }
}

/** Thrown in place of a RangeError when forcing recursed too deeply through plain `lazy` thunks. */
export class LazyStackOverflow extends Error {
  override name = 'LazyStackOverflow';
  constructor(cause: unknown) {
    super(
      'stack overflow while forcing a chain of thunks: build long chains with `defer` or `Lazy.map`, ' +
        'which strictcheck forces without recursion',
      { cause },
    );
  }
}

let budgetLeft = Infinity;
let budgetTotal = Infinity;
let forceDepth = 0;
let forcesCounted = 0;

/**
 * Runs `body` allowing at most `budget` thunk evaluations; beyond that, forcing throws
 * {@link ForceBudgetExceeded}. Budgets nest; the innermost one applies.
 */
export function withForceBudget<R>(budget: number, body: () => R): R {
  const [savedLeft, savedTotal] = [budgetLeft, budgetTotal];
  budgetLeft = Math.min(budget, savedLeft);
  budgetTotal = budget;
  try {
    return body();
  } finally {
    const used = budgetTotal - budgetLeft;
    budgetTotal = savedTotal;
    budgetLeft = savedLeft - (savedLeft === Infinity ? 0 : used);
  }
}

/** How many thunks have been evaluated so far in this process (a cheap cost measure). */
export function forceCount(): number {
  return forcesCounted;
}

/**
 * A memoising thunk. Create one with {@link lazy}, {@link now}, {@link defer} or {@link Lazy.map}.
 *
 * @example
 * ```ts
 * const x = lazy(() => expensive());
 * x.force(); // computes
 * x.force(); // memoised
 * ```
 */
export class Lazy<T> {
  /** @internal */ s: number;
  /** @internal */ k: number;
  /** @internal */ f: unknown;
  /** @internal */ g: ((x: any) => T) | undefined;
  /** @internal */ v: T | undefined;

  /** @internal Use {@link lazy}, {@link now}, {@link defer} or {@link Lazy.map}. */
  constructor(state: number, kind: number, f: unknown, g: ((x: any) => T) | undefined, v: T | undefined) {
    this.s = state;
    this.k = kind;
    this.f = f;
    this.g = g;
    this.v = v;
  }

  /** Whether the value has been computed (forcing it would not run anything). */
  get isEvaluated(): boolean {
    return this.s === DONE;
  }

  /** Computes the value once and returns it; later calls return the memoised value. */
  force(): T {
    if (this.s === DONE) return this.v as T;
    const k = this.k;
    return k === FN || k === FIELDS || (k === MAP && (this.f as Lazy<unknown>).s === DONE) ? forceSimple(this) : forceSlow(this);
  }

  /** A lazy value that applies `fn` to this one's value when forced; stack-safe in long chains. */
  map<U>(fn: (value: T) => U): Lazy<U> {
    return new Lazy<U>(PENDING, MAP, this, fn, undefined);
  }

  /** A lazy value that continues with the `Lazy` returned by `fn`; stack-safe in long chains. */
  chain<U>(fn: (value: T) => Lazy<U>): Lazy<U> {
    return new Lazy<U>(PENDING, CHAIN, this, fn as (x: any) => U, undefined);
  }

  /** Prints as `Lazy(value)` once evaluated, `Lazy(<unevaluated>)` before: printing never forces. */
  toString(): string {
    return this.s === DONE ? `Lazy(${String(this.v)})` : 'Lazy(<unevaluated>)';
  }
}

/** Forces a thunk that computes its value directly (or maps an evaluated one): the common case, without forceSlow's stack. */
function forceSimple<T>(node: Lazy<T>): T {
  if (node.s !== PENDING) throw new LazyLoopError();
  if (--budgetLeft < 0) {
    budgetLeft = 0;
    throw new ForceBudgetExceeded(budgetTotal);
  }
  forcesCounted++;
  node.s = RUNNING;
  forceDepth++;
  let value: T;
  try {
    const k = node.k;
    value =
      k === FN ? (node.f as () => T)() : k === FIELDS ? (node.f as (a: unknown, b: unknown) => T)(node.g, node.v) : node.g!((node.f as Lazy<unknown>).v);
  } catch (err) {
    node.s = PENDING;
    throw forceDepth === 1 ? overflowError(err) : err;
  } finally {
    forceDepth--;
  }
  setDone(node, value);
  return value;
}

/** A RangeError from a too deep recursion of plain thunks becomes a {@link LazyStackOverflow} that says what to do. */
function overflowError(err: unknown): unknown {
  return err instanceof RangeError && /call stack/.test(err.message) ? new LazyStackOverflow(err) : err;
}

function forceSlow<T>(start: Lazy<T>): T {
  const stack: Lazy<any>[] = [];
  let cur: Lazy<any> = start;
  let value: any;
  forceDepth++;
  try {
    for (;;) {
      // Descend: follow DEFER, MAP and CHAIN nodes down to one that computes a value.
      for (;;) {
        if (cur.s === DONE) {
          value = cur.v;
          break;
        }
        if (cur.s !== PENDING) throw new LazyLoopError();
        if (--budgetLeft < 0) {
          budgetLeft = 0;
          throw new ForceBudgetExceeded(budgetTotal);
        }
        forcesCounted++;
        cur.s = RUNNING;
        if (cur.k === FN) {
          value = (cur.f as () => unknown)();
          setDone(cur, value);
          break;
        }
        if (cur.k === FIELDS) {
          value = (cur.f as (a: unknown, b: unknown) => unknown)(cur.g, cur.v);
          setDone(cur, value);
          break;
        }
        stack.push(cur);
        cur = cur.k === DEFER ? (cur.f as () => Lazy<unknown>)() : (cur.f as Lazy<unknown>);
        if (!(cur instanceof Lazy)) throw new TypeError('defer: the function must return a Lazy');
      }
      // Ascend: hand the value up, until a CHAIN node continues with the Lazy its function returns.
      let next: Lazy<any> | undefined;
      while (stack.length > 0) {
        // The node stays on the stack while its function runs, so that a throw resets it to pending.
        const node = stack[stack.length - 1]!;
        if (node.k === CHAIN && node.s === RUNNING) {
          next = node.g!(value) as unknown as Lazy<any>;
          if (!(next instanceof Lazy)) throw new TypeError('chain: the function must return a Lazy');
          node.s = CHAINED;
          break;
        }
        if (node.k === MAP) value = node.g!(value);
        stack.pop();
        setDone(node, value);
      }
      if (next === undefined) return value as T;
      cur = next;
    }
  } catch (err) {
    // Nothing that threw is memoised: every node still running goes back to pending.
    if (cur.s === RUNNING || cur.s === CHAINED) cur.s = PENDING;
    for (const node of stack) if (node.s === RUNNING || node.s === CHAINED) node.s = PENDING;
    throw forceDepth === 1 ? overflowError(err) : err;
  } finally {
    forceDepth--;
  }
}

function setDone(node: Lazy<any>, value: unknown): void {
  node.s = DONE;
  node.v = value;
  node.f = undefined; // let the closure and what it holds be collected
  node.g = undefined;
}

/** A thunk computing `fn()` on first force. */
export function lazy<T>(fn: () => T): Lazy<T> {
  return new Lazy<T>(PENDING, FN, fn, undefined, undefined);
}

/**
 * A thunk computing `compute(a, b)`: two arguments kept in the thunk's own fields instead of a
 * closure (one object instead of three, for the hot paths of observation).
 * @internal
 */
export function fieldThunk<T>(compute: (a: unknown, b: unknown) => T, a: unknown, b: unknown): Lazy<T> {
  return new Lazy<T>(PENDING, FIELDS, compute, a as never, b as T);
}

/** An already evaluated `Lazy`. */
export function now<T>(value: T): Lazy<T> {
  return new Lazy<T>(DONE, FN, undefined, undefined, value);
}

/** A thunk whose value is that of the `Lazy` returned by `fn`; forced by a loop, so chains of any length are safe. */
export function defer<T>(fn: () => Lazy<T>): Lazy<T> {
  return new Lazy<T>(PENDING, DEFER, fn, undefined, undefined);
}

/** Forces a `Lazy` (the same as `l.force()`). */
export function force<T>(l: Lazy<T>): T {
  return l.force();
}

/** Whether `x` is a `Lazy` (including {@link thunk}). */
export function isLazy(x: unknown): x is Lazy<unknown> {
  return x instanceof Lazy;
}

/** Thrown where stack traces are off (`Error.stackTraceLimit === 0`: conversions that catch it at once), so they cost nothing. */
const QUIET_UNEVALUATED = new UnevaluatedError();

function throwUnevaluated(): never {
  throw Error.stackTraceLimit === 0 ? QUIET_UNEVALUATED : new UnevaluatedError();
}

const thunkValue: Lazy<never> & (() => never) = Object.setPrototypeOf(function thunk(): never {
  throw new UnevaluatedError();
}, Lazy.prototype);
Object.assign(thunkValue, { s: PENDING, k: FN, f: throwUnevaluated, g: undefined, v: undefined });

/**
 * The "not evaluated" marker for demands written as ordinary values (paper, section 4).
 * It has type `never`, like Haskell's `thunk :: forall a. a`, so it fits any position of a
 * demand: a lazy field, a lazy list's tail, a function argument. Forcing it (or calling it)
 * throws {@link UnevaluatedError}.
 *
 * @example
 * ```ts
 * // the demand _ : 2 : _ on a list of numbers
 * const d = cons(thunk, cons(2, thunk));
 * ```
 */
export const thunk: never = thunkValue as never;

/**
 * Whether `x` is an unevaluated part of a demand in value form: {@link thunk} itself, or a `Lazy`
 * whose forcing reaches `thunk` (as Haskell's `isThunk` evaluates to weak head normal form).
 */
export function isThunk(x: unknown): boolean {
  if (x === thunkValue) return true;
  if (!(x instanceof Lazy)) return false;
  try {
    x.force();
    return false;
  } catch (err) {
    if (err instanceof UnevaluatedError) return true;
    throw err;
  }
}
