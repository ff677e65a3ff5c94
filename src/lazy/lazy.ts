/**
 * Memoising thunks: the explicit laziness that strictcheck observes.
 *
 * A `Lazy<T>` is computed at most once, on its first {@link Lazy.force}. Chains built with
 * {@link defer} and {@link Lazy.map} are forced by a loop, not by recursion, so a chain of a
 * million thunks that force each other does not overflow the stack.
 * @module
 */
import { isInstance, safeInstanceof } from './thrown.ts';

// A thunk's mode `m` holds its state in the low two bits and its kind above them: one field for
// both, and the value in `f` once evaluated, so that a thunk has three fields (one is allocated
// for every lazy field of every value, and observation allocates several more).
const PENDING = 0;
const RUNNING = 1;
const CHAINED = 3; // a running CHAIN node whose `g` has been applied (waiting for the Lazy it returned)
const STATE = 3; // the bits of the state
const DONE = 2; // the whole mode of an evaluated thunk (the kind no longer matters), its value in `f`

// FN and DEFER nodes run `f()`, or `f(g)` when `g` is set: an argument in the thunk's own field
// instead of a closure (one object instead of three, for observation and list operations).
const FN = 0 << 2; // run `f`, its result is the value
const DEFER = 1 << 2; // run `f`, its result is a Lazy whose value is the value
const MAP = 2 << 2; // force the Lazy `f`, apply `g` to its value
const CHAIN = 3 << 2; // force the Lazy `f`, apply `g` to its value, force the Lazy that returns
// AT nodes run `f(g, i)`, the index `i` in the bits above the kind: a thunk that knows its place
// (the k-th cell of a list being recorded) in three fields.
const AT = 4 << 2;
// VIEW nodes run `f(g)` on every force and keep nothing: see lazyView.
const VIEW = 5 << 2;
const KIND = 7 << 2; // the bits of the kind
const INDEX_SHIFT = 5;
/** @internal The largest index of a {@link lazyAt} thunk (its mode stays a small integer). */
export const MAX_LAZY_INDEX = 2 ** 25 - 1;

/** Thrown when a thunk is forced while it is already being forced, or would have itself as its value (directly or through other Lazies): a value that depends on itself (GHC's `<<loop>>`). */
export class LazyLoopError extends Error {
  /** Always `'LazyLoopError'`, so that logs and `err.name` checks tell a `<<loop>>` apart. */
  override name = 'LazyLoopError';
  constructor(message = '<<loop>>: a Lazy was forced while it was being forced (the value depends on itself)') {
    super(message);
  }
}

/**
 * @internal Thrown when a `⊥` of a demand in value form (a part that was forced and threw, see
 * `fromDemand`) is forced: it is evaluated, not a {@link thunk}, so {@link isThunk} says `false`.
 */
export class BottomForced extends Error {
  override name = 'BottomForced';
}

/**
 * Thrown when {@link thunk}, the "not evaluated" marker of hand-written demands, is forced or called.
 * Observation and specs catch it; anywhere else it means a demand in value form was used as data.
 */
export class UnevaluatedError extends Error {
  /** Always `'UnevaluatedError'`, so that logs and `err.name` checks tell a forced {@link thunk} marker apart. */
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
  /** Always `'ForceBudgetExceeded'`, so that logs and `err.name` checks tell a run stopped by its budget apart. */
  override name = 'ForceBudgetExceeded';
  constructor(
    /** The budget that ran out: the most forces the run allowed. */
    readonly budget: number,
  ) {
    super(`${overBudget(budget)}: the function probably diverges (an infinite structure forced in full?)`);
  }
}

/** @internal What a run stopped by force budget `budget` did, for messages: thunks forced and iterator calls both count (see {@link countForceCall}). */
export const overBudget = (budget: number): string => `made more than ${budget} forces of thunks and pulls of iterators`;

/** Thrown in place of a RangeError when forcing recursed too deeply through plain `lazy` thunks. */
export class LazyStackOverflow extends Error {
  /** Always `'LazyStackOverflow'`, telling it apart from the `RangeError` it replaces (kept as its `cause`). */
  override name = 'LazyStackOverflow';
  constructor(cause: unknown) {
    super(
      'stack overflow while forcing a chain of thunks: build long chains with `defer` or `Lazy.map`, ' +
        'which strictcheck forces without recursion',
      { cause },
    );
  }
}

/**
 * The force counters live in a typed array, not in module variables: a variable holding a number
 * that is not a small integer (the limit Infinity, a count past 2^30) is boxed, and updating it
 * allocated a heap number on every force.
 */
const counters = new Float64Array([0, Infinity, 0, 0, 0, 0]);
const FORCES = 0; // thunks evaluated so far in this process
const LIMIT = 1; // the value of STEPS at which the budget in force runs out
const STEPS = 2; // calls of force so far, evaluated thunks included
// Of the growing budget in force, not worked out yet (see `growing`): the STEPS it began at, and the limit and total of the budget around it.
const GROWTH_START = 3;
const OUTER_LIMIT = 4;
const OUTER_TOTAL = 5;
let budgetTotal = Infinity; // that budget, for the message
// The LIMIT at which a force was last refused: the budget whose limit it is ran out, and stays so
// (a body that catches the error cannot hide it). Limits only grow with STEPS, so a later budget
// of at least 1 never has this limit unless it is bound by the one that ran out.
let refusedAt = NaN;
// The error of that first refusal, thrown again by every later one and on return, so that its
// stack shows where the budget ran out.
let refusal: ForceBudgetExceeded | undefined;
let forceDepth = 0;
// The error last thrown out of a force, and the nesting of forces it left first (its deepest): a
// stack overflow is a chain of thunks' only where it came through many nested forces (see
// overflowError). Kept with its error: one caught inside a force never reaches depth 1, and its
// depth must not be read for a later error.
let thrown: unknown;
let thrownDepth = 0;
/** The nesting of forces from which a stack overflow is read as a chain of plain thunks' (one overflows through thousands). */
const CHAIN_DEPTH = 100;

/**
 * Runs `body` allowing at most `budget` forces (calls of `force`, on thunks evaluated or not:
 * walking a cyclic structure forever evaluates nothing new, yet must stop too); beyond that,
 * forcing throws {@link ForceBudgetExceeded}. Budgets nest: an inner budget cannot extend an
 * outer one, and what the inner body forces counts against both.
 *
 * A budget that ran out stays spent: every later force in `body` throws again, and if `body`
 * catches the error and returns, `withForceBudget` throws it instead of returning, so a function
 * that catches everything cannot hide that it diverged.
 *
 * @example
 * ```ts
 * withForceBudget(100, () => List.length(List.repeat(1)));
 * // throws ForceBudgetExceeded: 'made more than 100 forces of thunks and pulls of iterators: the function probably diverges …'
 * withForceBudget(100, () => { try { List.length(List.repeat(1)); } catch {} return 0; });
 * // throws ForceBudgetExceeded too: the body caught it, but the budget ran out
 * ```
 */
export function withForceBudget<R>(budget: number, body: () => R): R {
  return withBudget(budget, body);
}

/**
 * @internal A force budget of `least` forces, or of `more()` forces where that is more, `more`
 * asked only if the run spends `least` (a check's budget scaled by a walk of its inputs, which
 * most trials never need). `more` must give the same answer whenever it is asked during the run.
 */
export interface GrowingBudget {
  readonly least: number;
  more(): number;
}

/** The growing budget in force, not worked out yet: where it began and the budget around it are in `counters` (an object for them was made twice a trial). */
let growing: GrowingBudget | undefined;

/**
 * @internal {@link withForceBudget} of a number of forces or of a {@link GrowingBudget}: the same as
 * the budget `max(least, more())` given at once. `body` is called on `self`, if given: a method
 * needs no closure made for it.
 */
export function withBudget<R, T = undefined>(budget: number | GrowingBudget, body: (this: T) => R, self?: T): R {
  // A budget inside one that may grow is bounded by what that one allows: worked out first.
  grow();
  const savedLimit = counters[LIMIT]!;
  const savedTotal = budgetTotal;
  const start = counters[STEPS]!;
  setLimit(start, typeof budget === 'number' ? budget : budget.least, savedLimit, savedTotal);
  if (typeof budget !== 'number') {
    growing = budget;
    counters[GROWTH_START] = start;
    counters[OUTER_LIMIT] = savedLimit;
    counters[OUTER_TOTAL] = savedTotal;
  }
  try {
    const result = body.call(self as T);
    if (refusedAt === counters[LIMIT]) throw refusal;
    return result;
  } finally {
    counters[LIMIT] = savedLimit;
    budgetTotal = savedTotal;
    growing = undefined;
  }
}

/** Sets the limit of a budget of `budget` forces from `start` inside one of limit `outerLimit` and total `outerTotal`. */
function setLimit(start: number, budget: number, outerLimit: number, outerTotal: number): void {
  const limit = start + budget;
  // The error names the budget that runs out first: this one, or an outer one with less left.
  counters[LIMIT] = Math.min(limit, outerLimit);
  budgetTotal = limit <= outerLimit ? budget : outerTotal;
  // A budget of 0 can start at the limit where another ran out: it is spent only if the outer one is.
  if (refusedAt === counters[LIMIT] && refusedAt !== outerLimit) refusedAt = NaN;
}

/** Works out the growing budget in force, if any: its limit is then the one it always had. */
function grow(): void {
  const g = growing;
  if (g === undefined) return;
  growing = undefined;
  const start = counters[GROWTH_START]!;
  const outerLimit = counters[OUTER_LIMIT]!;
  const outerTotal = counters[OUTER_TOTAL]!;
  setLimit(start, Math.max(g.least, g.more()), outerLimit, outerTotal);
}

/** Counts one evaluation (for {@link forceCount}). */
function countForce(): void {
  counters[FORCES]!++;
}

/** Counts one call of `force` against the budget, throwing {@link ForceBudgetExceeded} (counting nothing) once it is spent. */
function countStep(): void {
  if (counters[STEPS]! >= counters[LIMIT]!) {
    grow();
    if (counters[STEPS]! < counters[LIMIT]!) return void counters[STEPS]!++;
    if (refusedAt !== counters[LIMIT]) [refusedAt, refusal] = [counters[LIMIT]!, new ForceBudgetExceeded(budgetTotal)];
    throw refusal;
  }
  counters[STEPS]!++;
}

/** @internal Counts a call of `force` against the budget where there is no thunk to force: a pull of an iterable, which counts as one (`src/iter`). */
export const countForceCall: () => void = countStep;

/**
 * How many times `force` has been called so far in this process, on thunks evaluated or not (a measure of work).
 *
 * @example
 * ```ts
 * const before = forceCallCount();
 * List.length(fromArray([1, 2, 3]));
 * forceCallCount() - before; // 4: the four cells, already evaluated, each forced once
 * ```
 */
export function forceCallCount(): number {
  return counters[STEPS]!;
}

/**
 * @internal Takes the calls of `force` back to `count`, a {@link forceCallCount} of the budget in
 * force: for a walk that the library makes again from its start (a prediction compared as it is
 * read, then converted), whose second run forces only what the first did, so that it counts once.
 */
export function rewindForceCalls(count: number): void {
  counters[STEPS] = count;
}

/**
 * How many thunks have been evaluated so far in this process (a cheap cost measure).
 *
 * @example
 * ```ts
 * const before = forceCount();
 * List.toArray(List.map((x: number) => x + 1, fromArray([1, 2, 3])));
 * forceCount() - before; // 7: map's four cells (the last one []) and its three elements
 * ```
 */
export function forceCount(): number {
  return counters[FORCES]!;
}

/**
 * A memoising thunk. Create one with {@link lazy}, {@link now}, {@link defer} or {@link Lazy.map}.
 *
 * @example
 * ```ts
 * const x = lazy(() => [1, 2, 3].reduce((a, b) => a + b));
 * x.force(); // 6, computed
 * x.force(); // 6, memoised
 * ```
 */
export class Lazy<T> {
  /** @internal The state and the kind (see above). */ m: number;
  /** @internal By kind, the function or the Lazy to force; the value once evaluated. */ f: unknown;
  /** @internal By kind, the function to apply or the argument of `f`. */ g: unknown;

  /** @internal Use {@link lazy}, {@link now}, {@link defer} or {@link Lazy.map}. */
  constructor(mode: number, f: unknown, g: unknown) {
    this.m = mode;
    this.f = f;
    this.g = g;
  }

  /** Whether the value has been computed (forcing it would not run anything). */
  get isEvaluated(): boolean {
    return this.m === DONE;
  }

  /** Computes the value once and returns it; later calls return the memoised value. */
  force(): T {
    countStep();
    return forceUncounted(this);
  }

  /** A lazy value that applies `fn` to this one's value when forced; stack-safe in long chains. */
  map<U>(fn: (value: T) => U): Lazy<U> {
    return following(MAP, this, fn);
  }

  /** A lazy value that continues with the `Lazy` returned by `fn`; stack-safe in long chains. */
  chain<U>(fn: (value: T) => Lazy<U>): Lazy<U> {
    return following(CHAIN, this, fn);
  }

  /** Prints as `Lazy(value)` once evaluated, `Lazy(<unevaluated>)` before: printing never forces. */
  toString(): string {
    return this.m === DONE ? `Lazy(${String(this.f)})` : 'Lazy(<unevaluated>)';
  }

  /** `JSON.stringify` writes it as {@link toString} prints it, never forcing, rather than its internal fields (an observed input's would show the value it wraps, read without a force to record). */
  toJSON(): string {
    return this.toString();
  }
}

/**
 * A Lazy of kind `mode` (MAP or CHAIN) that continues `from` with `fn`. Outside the class: a class
 * that names itself in its body is bundled as `var Lazy = class _Lazy` (esbuild), and every stack
 * frame of a function a thunk runs would then read `_Lazy.f`.
 */
function following<U>(mode: number, from: Lazy<unknown>, fn: unknown): Lazy<U> {
  return new Lazy<U>(mode, from, fn);
}

/**
 * @internal Forces `l` without counting the call against the force budget (what it evaluates
 * counts as usual): for a wrapper forcing the value it wraps, whose own force was counted, so that
 * observing a function does not spend its budget twice.
 */
export function forceUncounted<T>(l: Lazy<T>): T {
  const m = l.m;
  if (m === DONE) return l.f as T;
  return computesDirectly(m) || (m === MAP && (l.f as Lazy<unknown>).m === DONE) ? forceSimple(l, m) : forceSlow(l);
}

/** Whether a pending thunk in mode `m` computes its value by running its function (FN, AT and VIEW nodes). */
function computesDirectly(m: number): boolean {
  return m === FN || m === VIEW || (m & (KIND | STATE)) === AT;
}

/** Runs the function of an FN, AT, VIEW or DEFER node in mode `mode` (marked running by the caller). */
function run(node: Lazy<unknown>, mode: number): unknown {
  if ((mode & KIND) === AT) return (node.f as (arg: unknown, index: number) => unknown)(node.g, mode >>> INDEX_SHIFT);
  return node.g === undefined ? (node.f as () => unknown)() : (node.f as (arg: unknown) => unknown)(node.g);
}

/**
 * Forces a pending thunk that computes its value directly (FN, AT, VIEW, or MAP of an evaluated
 * one): the common case, without forceSlow's stack.
 */
function forceSimple<T>(node: Lazy<T>, mode: number): T {
  countForce();
  node.m = mode | RUNNING;
  forceDepth++;
  let value: unknown;
  try {
    value = mode === MAP ? (node.g as (x: unknown) => unknown)((node.f as Lazy<unknown>).f) : run(node, mode);
    // In the try: on a stack that has just overflowed, calling settle can overflow too.
    settle(node, value, mode);
  } catch (err) {
    node.m = mode;
    // Written out, as in forceSlow, not a call of a helper: after a stack overflow this frame may have no room for one.
    if (err !== thrown) {
      thrown = err;
      thrownDepth = forceDepth;
    }
    throw forceDepth === 1 ? overflowError(err) : err;
  } finally {
    forceDepth--;
  }
  return value as T;
}

/**
 * A RangeError from a too deep recursion of plain thunks becomes a {@link LazyStackOverflow} that
 * says what to do; one that came through few nested forces is the function's own recursion (inside
 * one thunk, say), which `defer` would not help, and stays as it is.
 */
function overflowError(err: unknown): unknown {
  const nested = thrownDepth;
  thrown = undefined;
  return nested >= CHAIN_DEPTH && isInstance(err, RangeError) && /call stack/.test((err as RangeError).message) ? new LazyStackOverflow(err) : err;
}

/**
 * The DEFER, MAP and CHAIN nodes that the forceSlow calls in progress are waiting on, innermost
 * last. One array for all calls, each working above the length it found (a call nested in the
 * computation of a node returns before its caller goes on): a call allocates nothing.
 */
const forcing: Lazy<any>[] = [];

function forceSlow<T>(start: Lazy<T>, stopAtThunk = false): T {
  const base = forcing.length;
  let cur: Lazy<any> = start;
  // The node this call marked running and has not settled or stacked: one that threw goes back to pending.
  let marked: Lazy<any> | undefined;
  let value: any;
  forceDepth++;
  try {
    for (;;) {
      // Descend: follow DEFER, MAP and CHAIN nodes down to one that computes a value.
      for (;;) {
        if (stopAtThunk && cur === thunkValue) {
          // As if `thunk` had thrown, without the cost of a throw: nothing is memoised.
          while (forcing.length > base) resetRunning(forcing.pop()!);
          return UNEVALUATED as T;
        }
        const kind = cur.m;
        if (kind === DONE) {
          value = cur.f;
          break;
        }
        // A node running already is another call's, still at work on it: it stays running.
        if ((kind & STATE) !== PENDING) throw new LazyLoopError();
        countForce();
        // A node is marked running only where the catch below will find it (in `marked` or on
        // `forcing`): any call can throw a RangeError when the stack is nearly full.
        if (computesDirectly(kind)) {
          marked = cur;
          cur.m = kind | RUNNING;
          value = run(cur, kind);
          settle(cur, value, kind);
          marked = undefined;
          break;
        }
        forcing.push(cur);
        cur.m = kind | RUNNING;
        cur = kind === DEFER ? (run(cur, kind) as Lazy<unknown>) : (cur.f as Lazy<unknown>);
        if (!(cur instanceof Lazy)) throw new TypeError('defer: the function must return a Lazy');
      }
      // Ascend: hand the value up, until a CHAIN node continues with the Lazy its function returns.
      let next: Lazy<any> | undefined;
      while (forcing.length > base) {
        // The node stays on the stack while its function runs, so that a throw resets it to pending.
        const node = forcing[forcing.length - 1]!;
        if (node.m === (CHAIN | RUNNING)) {
          next = (node.g as (x: unknown) => Lazy<any>)(value);
          if (!(next instanceof Lazy)) throw new TypeError('chain: the function must return a Lazy');
          node.m = CHAIN | CHAINED;
          break;
        }
        if (node.m === (MAP | RUNNING)) value = (node.g as (x: unknown) => unknown)(value);
        settle(node, value);
        forcing.pop();
      }
      if (next === undefined) return value as T;
      cur = next;
    }
  } catch (err) {
    // Nothing that threw is memoised: every node this call left running goes back to pending.
    // Written out, not calls of resetRunning: after a stack overflow, this frame may have no room for a call.
    if (marked !== undefined && marked.m !== DONE) marked.m &= ~STATE;
    for (let i = forcing.length - 1; i >= base; i--) {
      const node = forcing[i]!;
      if (node.m !== DONE) node.m &= ~STATE;
    }
    forcing.length = base;
    if (err !== thrown) {
      thrown = err;
      thrownDepth = forceDepth;
    }
    throw forceDepth === 1 ? overflowError(err) : err;
  } finally {
    forceDepth--;
  }
}

/** Puts a node that was being forced back to pending (a pending one stays so). */
function resetRunning(node: Lazy<unknown>): void {
  if (node.m !== DONE) node.m &= ~STATE;
}

/**
 * Memoises the value of a node that was forced in mode `mode`; a VIEW keeps nothing, and is
 * pending again. A value that is the node itself, or an evaluated Lazy whose value is, directly
 * or through more of them, is refused (see {@link refuseLoop}).
 */
function settle(node: Lazy<any>, value: unknown, mode = DONE): void {
  if (mode === VIEW) {
    node.m = VIEW;
    return;
  }
  if (value instanceof Lazy) refuseLoop(node, value);
  node.m = DONE;
  node.f = value; // the function or Lazy it replaces, and what they hold, can be collected
  node.g = round;
}

// The round of evaluation in progress: a thunk keeps the round it was evaluated in in its field
// `g`, which an evaluated thunk does not use otherwise (`now` leaves it undefined, no round).
let round = 0;

/** @internal Begins a new round of evaluation (see {@link evaluatedBefore}) and returns it. */
export function newRound(): number {
  return (round = (round + 1) | 0);
}

/**
 * @internal Whether `l` is evaluated and was before round `r` began, evaluated in no round since
 * (one in 2^32 rounds would be taken for `r`): what a walk of a check's inputs made when its case
 * ends reads as they were when it began.
 */
export function evaluatedBefore(l: Lazy<unknown>, r: number): boolean {
  return l.m === DONE && l.g !== r;
}

/**
 * Throws a {@link LazyLoopError} if `value`, the value of `node` being settled, is `node` or
 * reaches it through evaluated Lazies, and puts `node` back to pending: memoised, it would be a
 * Lazy that holds only Lazies, round and round (`const x = lazy(() => x)`), as Haskell's
 * `let x = x in x` is a `<<loop>>`. Every walk that takes a value out of its Lazies would go round
 * it for ever. Refused here, where every such loop closes, no walk meets one. Such a loop closes
 * only when a node settles (`now` wraps a value made before it), and every Lazy settled before
 * was refused so, so the chain followed ends: at a pending node or a value that is no Lazy.
 */
function refuseLoop(node: Lazy<unknown>, value: Lazy<unknown>): void {
  for (let v: unknown = value; v instanceof Lazy; v = v.f) {
    if (v === node) {
      resetRunning(node);
      throw new LazyLoopError('<<loop>>: a Lazy\'s value would be itself, directly or through other Lazies each holding the next (as `const x = lazy(() => x)`): it holds no value, and nothing could take one out of it');
    }
    if (v.m !== DONE) return;
  }
}

/**
 * A thunk computing `fn()` on first force.
 *
 * @example
 * ```ts
 * let runs = 0;
 * const x = lazy(() => { runs++; return 6 * 7; });
 * x.force(); // 42
 * x.force(); // 42, and runs === 1
 * ```
 */
export function lazy<T>(fn: () => T): Lazy<T> {
  return new Lazy<T>(FN, fn, undefined);
}

/** @internal A thunk computing `fn(arg)`, the argument (not `undefined`) in the thunk's own field rather than in a closure. */
export function lazyWith<A, T>(fn: (arg: A) => T, arg: A): Lazy<T> {
  return new Lazy<T>(FN, fn, arg);
}

/**
 * @internal A thunk computing `fn(arg, index)`, the index in the thunk's mode: one object where a
 * closure or an argument record would make two. `0 <= index <= MAX_LAZY_INDEX`.
 */
export function lazyAt<A, T>(fn: (arg: A, index: number) => T, arg: A, index: number): Lazy<T> {
  return new Lazy<T>(AT | (index << INDEX_SHIFT), fn, arg);
}

/**
 * @internal A thunk that computes `fn(arg)` on every force and keeps no value: for a view of a
 * value that must not be kept alive by whoever holds the view (an observed function holds its
 * instrumented arguments while it walks them). Forcing it while it is being forced is a loop, as
 * for any thunk; `isEvaluated` is always false.
 */
export function lazyView<A, T>(fn: (arg: A) => T, arg: A): Lazy<T> {
  return new Lazy<T>(VIEW, fn, arg);
}

/**
 * The value of an evaluated `Lazy`, read without counting a force (for the library's own walks
 * over what a run has evaluated, which must not spend the run's budget).
 * @internal
 */
export function peek<T>(l: Lazy<T>): T {
  if (l.m !== DONE) throw new TypeError('peek: the Lazy is not evaluated');
  return l.f as T;
}

/** What {@link forceOrThunk} returns when forcing reaches `thunk`. @internal */
export const UNEVALUATED: unique symbol = Symbol('strictcheck.unevaluated');

/**
 * Forces `l`, but returns {@link UNEVALUATED} instead of throwing when the forcing reaches
 * `thunk` through `defer`, `map` and `chain` links (a spec's `d ++ thunk`): demands in value form
 * end in `thunk` routinely, and a throw costs more than the rest of converting such a demand.
 * `thunk` forced inside a thunk's own function still throws {@link UnevaluatedError}.
 * @internal
 */
export function forceOrThunk<T>(l: Lazy<T>): T | typeof UNEVALUATED {
  if (l === thunkValue) return UNEVALUATED;
  countStep();
  return l.m === DONE ? (l.f as T) : forceSlow(l, true);
}

/**
 * An already evaluated `Lazy`.
 *
 * @example
 * ```ts
 * const one = now(1);
 * one.isEvaluated; // true
 * ```
 */
export function now<T>(value: T): Lazy<T> {
  return new Lazy<T>(DONE, value, undefined);
}

/**
 * A thunk whose value is that of the `Lazy` returned by `fn`; forced by a loop, so chains of any length are safe.
 *
 * @example
 * ```ts
 * const countdown = (n: number): Lazy<number> => (n === 0 ? now(0) : defer(() => countdown(n - 1)));
 * countdown(1_000_000).force(); // 0, without a stack overflow
 * ```
 */
export function defer<T>(fn: () => Lazy<T>): Lazy<T> {
  return new Lazy<T>(DEFER, fn, undefined);
}

/** @internal {@link defer} of `fn(arg)`, the argument (not `undefined`) in the thunk's own field: see {@link deferredWith}. */
export function deferWith<A, T>(fn: (arg: A) => Lazy<T>, arg: A): Lazy<T> {
  return new Lazy<T>(DEFER, fn, arg);
}

/** @internal The argument of `l` if it is a {@link deferWith} thunk of `fn` not yet forced, or `undefined`. */
export function deferredWith<A>(l: Lazy<unknown>, fn: (arg: A) => Lazy<unknown>): A | undefined {
  return l.m === DEFER && l.f === fn ? (l.g as A) : undefined;
}

/**
 * Forces a `Lazy` (the same as `l.force()`).
 *
 * @example
 * ```ts
 * force(now('a')); // 'a'
 * ```
 */
export function force<T>(l: Lazy<T>): T {
  return l.force();
}

/**
 * Whether `x` is a `Lazy` (including {@link thunk}).
 *
 * @example
 * ```ts
 * isLazy(now(1)); // true
 * isLazy(1);      // false
 * ```
 */
export function isLazy(x: unknown): x is Lazy<unknown> {
  return x instanceof Lazy;
}

/** Thrown where stack traces are off (`Error.stackTraceLimit === 0`: conversions that catch it at once), so they cost nothing. */
const QUIET_UNEVALUATED = new UnevaluatedError();

function throwUnevaluated(): never {
  throw Error.stackTraceLimit === 0 ? QUIET_UNEVALUATED : new UnevaluatedError();
}

const thunkValue: Thunk = Object.setPrototypeOf(function thunk(): never {
  throw new UnevaluatedError();
}, Lazy.prototype);
Object.assign(thunkValue, { m: FN, f: throwUnevaluated, g: undefined, [Symbol.iterator]: throwUnevaluated });

/**
 * The type of {@link thunk}: a `Lazy` of nothing that is also a function of anything and an
 * iterable of nothing. It fits every position of a demand that can be unevaluated, as Haskell's
 * `thunk :: forall a. a` does: a `Lazy<T>` of any `T` (a lazy field, an element, a list's tail),
 * a function argument, and an iterable never iterated.
 * Unlike `never`, it is a type inference can use and whose members can be read: `defer(() =>
 * thunk)` is a `Lazy<never>`, a `Lazy<number>` wherever one is expected, and `thunk.force()`
 * type-checks (and throws), with no type argument or cast; a strict position (a `number`, a
 * tuple), where a demand cannot be unevaluated, does not take it.
 */
export interface Thunk extends Lazy<never>, Iterable<never> {
  (...args: readonly unknown[]): never;
}

/**
 * The "not evaluated" marker for demands written as ordinary values (paper, section 4).
 * Its type, {@link Thunk}, fits any position of a demand that can be unevaluated: a lazy field,
 * a lazy list's tail, a function argument, an iterable never iterated. Forcing it (or calling or
 * iterating it) throws {@link UnevaluatedError}.
 *
 * @example
 * ```ts
 * // the demand _ : 2 : _ on a list of numbers
 * const d = cons(thunk, cons(2, thunk));
 * ```
 */
export const thunk: Thunk = thunkValue;

/**
 * Whether `x` is an unevaluated part of a demand in value form: {@link thunk} itself, or a `Lazy`
 * whose forcing reaches `thunk` (as Haskell's `isThunk` evaluates to weak head normal form). A `⊥`
 * (a part that was forced and threw, see `isBottom`) is evaluated: not a thunk.
 *
 * @example
 * ```ts
 * isThunk(thunk);                             // true
 * isThunk(defer(() => thunk));                // true: forcing it reaches thunk
 * isThunk(List.append(fromArray([1]), thunk)); // false: a cons cell comes first
 * ```
 */
export function isThunk(x: unknown): boolean {
  if (x === thunkValue) return true;
  if (!(x instanceof Lazy)) return false;
  try {
    return forceOrThunk(x) === UNEVALUATED;
  } catch (err) {
    if (err instanceof UnevaluatedError) return true;
    if (err instanceof BottomForced) return false;
    throw err;
  }
}

safeInstanceof(LazyLoopError, UnevaluatedError, ForceBudgetExceeded, LazyStackOverflow, BottomForced);
