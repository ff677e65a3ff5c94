/**
 * The sources a check generates for iterable arguments: a plan (elements, finite or cycling for
 * ever, throwing at a pull, with or without `return`) from which each iteration is a fresh
 * generator, so that a source is the same in every run of a case, and its `finally` runs when it
 * is closed, as in real code.
 * @module
 */
import { prettyDemand } from '../demand/print.ts';
import { valuePrefix } from '../demand/convert.ts';
import type { Shape } from '../demand/shape-types.ts';
import { safeInstanceof } from '../lazy/thrown.ts';
import type { Lazy } from '../lazy/lazy.ts';
import { Cons } from '../lazy/cell.ts';

/** What a generated source does: the answers of its pulls. */
export interface SourcePlan<T> {
  /** The elements its pulls answer, in order. */
  readonly elements: readonly T[];
  /** Whether it cycles through its elements for ever (then it has some) instead of answering done after them. */
  readonly infinite: boolean;
  /** The pull (from 0) that throws a {@link SourceError} instead of answering, if any. */
  readonly throwAt?: number | undefined;
  /** Whether its iterators have a `return` method (a `for…of` that stops early calls it). */
  readonly hasReturn: boolean;
  /**
   * Whether that `return` throws a {@link SourceError} once it has closed the iteration (its
   * `finally` run): a function closing the source passes the error on, as `for…of` does.
   */
  readonly returnThrows?: boolean | undefined;
}

/**
 * What a generated source throws at its {@link SourcePlan.throwAt} pull, or from a `return` that
 * throws ({@link SourcePlan.returnThrows}): a source's failure, which a function may pass on.
 */
export class SourceError extends Error {
  /** Always `'SourceError'`. */
  override name = 'SourceError';
  constructor(
    /** The pull (from 0) that threw; for `return`, how many pulls came before it. */
    readonly pull: number,
    /** Whether `return()` threw it, not a pull. */
    readonly inReturn = false,
  ) {
    super(inReturn ? `the source's return() threw after ${pull} pulls` : `the source threw at pull ${pull + 1}`);
  }
}

/**
 * A re-iterable source made from a plan: every `[Symbol.iterator]()` call is a new iteration from
 * the start, a generator (without `return` if the plan says so).
 *
 * @example
 * ```ts
 * [...new Source({ elements: [1, 2], infinite: false, hasReturn: true })]; // [1, 2]
 * ```
 */
export class Source<T> implements Iterable<T> {
  constructor(
    /** What its pulls answer. */
    readonly plan: SourcePlan<T>,
  ) {}

  /** A new iteration from the start: a generator, wrapped to hide its `return` if the plan has none, or to throw from it. */
  [Symbol.iterator](): Iterator<T> {
    const g = this.pulls();
    if (!this.plan.hasReturn) return new WithoutReturn(g);
    return this.plan.returnThrows ? new ThrowingReturn(g) : g;
  }

  /**
   * A one-shot iterator of this source's plan, which a check gives where an iterator is expected:
   * instrumented, it is replaced by a fresh iteration of its source each run.
   */
  iterator(): Iterator<T> & Iterable<T> {
    const it = this[Symbol.iterator]() as Iterator<T> & Iterable<T>;
    sources.set(it, this);
    return it;
  }

  /** The generator of one iteration's answers. */
  protected pulls(): Generator<T, undefined> {
    return planIteration(this.plan);
  }
}

/** @internal The end of a {@link SeriesSource}'s pulls that throws. */
export const PULL_THROWS = Object.freeze({ pullThrows: true });

/**
 * @internal A source of the exhaustive mode whose pulls are read off a lazy list of cells, some
 * of them holes that the enumeration refines when a pull forces them. Its plan says how it closes
 * only: a case that finishes stands for a {@link Source} with its pulls filled.
 */
export class SeriesSource<T> extends Source<T> {
  constructor(
    private readonly cells: Lazy<unknown>,
    closing: Pick<SourcePlan<T>, 'hasReturn' | 'returnThrows'>,
  ) {
    super({ elements: [], infinite: false, ...closing });
    seriesCells.set(this, cells);
  }

  protected override pulls(): Generator<T, undefined> {
    return readCells(this.cells);
  }
}

/** @internal The cells of the sources of the exhaustive mode ({@link SeriesSource}, and async ones), which a spec reads rather than their plans. */
export const seriesCells = new WeakMap<object, Lazy<unknown>>();

/**
 * @internal Reads the answers of a source's pulls off its cells ({@link SeriesSource}), one pull at
 * a time: each read forces the next cell (an unfilled one is refined).
 */
export class CellReader {
  constructor(private cells: Lazy<unknown>) {}

  /** Whether the next pull's cell is filled: reading it refines nothing. */
  get filled(): boolean {
    return this.cells.isEvaluated;
  }

  /** What the next pull answers: its element, {@link ENDS}, or {@link THROWS} at {@link PULL_THROWS}. */
  next(): { readonly value: unknown } | typeof ENDS | typeof THROWS {
    const cell = this.cells.force();
    if (!(cell instanceof Cons)) return cell === PULL_THROWS ? THROWS : ENDS;
    this.cells = cell.tail;
    return { value: cell.head.force() };
  }
}

/** @internal The answers of the pulls read off `cells` as they are pulled, the last throwing at {@link PULL_THROWS}. */
export function* readCells<T>(cells: Lazy<unknown>): Generator<T, undefined> {
  const read = new CellReader(cells);
  for (let k = 0; ; k++) {
    const answer = read.next();
    if (answer === THROWS) throw sourceError(k);
    if (answer === ENDS) return;
    yield answer.value as T;
  }
}

/** A generator's iteration without its `return` and `throw`: a source whose iterators cannot be closed. */
class WithoutReturn<T> implements IterableIterator<T> {
  constructor(private readonly g: Generator<T, undefined>) {}
  next(): IteratorResult<T, undefined> {
    return this.g.next();
  }
  [Symbol.iterator](): this {
    return this;
  }
}

/** A generator's iteration whose `return` closes it, then throws a {@link SourceError}. */
class ThrowingReturn<T> implements IterableIterator<T> {
  private pulls = 0;
  constructor(private readonly g: Generator<T, undefined>) {}
  next(): IteratorResult<T, undefined> {
    this.pulls++;
    return this.g.next();
  }
  return(v?: undefined): IteratorResult<T, undefined> {
    this.g.return(v);
    throw sourceError(this.pulls, true);
  }
  throw(e?: unknown): IteratorResult<T, undefined> {
    return this.g.throw(e);
  }
  [Symbol.iterator](): this {
    return this;
  }
}

/** What a generated async source does: the answers of its pulls, and how late each comes. */
export interface AsyncSourcePlan<T> extends SourcePlan<T> {
  /**
   * How many turns of the event loop the answer of pull k waits, `delays[k]`, none past them
   * (an infinite source's later rounds, pulls after the end): several `next()` calls pending at
   * once may settle in another order than they were made, each with its own answer. A throwing
   * pull rejects.
   */
  readonly delays: readonly number[];
}

/**
 * A re-iterable async source made from a plan: every `[Symbol.asyncIterator]()` call is a new
 * iteration from the start, whose pull k answers element k after its delay, in whatever order
 * pulls pending at once settle; `return()` (if the plan has it) ends the iteration.
 *
 * @example
 * ```ts
 * const xs = new AsyncSource({ elements: [1, 2], infinite: false, hasReturn: true, delays: [2, 0] });
 * for await (const x of xs) console.log(x); // 1, then 2
 * ```
 */
export class AsyncSource<T> implements AsyncIterable<T> {
  /** What its pulls answer, and when: its delays end at its last late pull. */
  readonly plan: AsyncSourcePlan<T>;

  constructor(plan: AsyncSourcePlan<T>) {
    // A delay of 0 is the delay of a pull past the delays: trailing ones are no part of how the source behaves, nor of how it prints, and shrinking a delay to 0 drops it.
    let n = plan.delays.length;
    while (n > 0 && plan.delays[n - 1] === 0) n--;
    this.plan = n === plan.delays.length ? plan : { ...plan, delays: plan.delays.slice(0, n) };
  }

  /** A new iteration from the start. */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    const answers = this.answers();
    return this.plan.hasReturn ? new ClosableAsyncRun(this.plan, answers) : new AsyncRun(this.plan, answers);
  }

  /** @internal What the pulls of a new iteration answer, and when: read off the plan. */
  protected answers(): AsyncAnswers<T> {
    const { plan } = this;
    return {
      at: (k) => {
        const at = answerOf(plan, k);
        return at === ENDS || at === THROWS ? at : { value: plan.elements[at]! };
      },
      deliver: (k, answer) => {
        // Only the planned pulls wait (see delays): a function pulling an infinite source for ever waits no timer a pull until the budget stops it.
        return later(k < plan.delays.length ? plan.delays[k]! : 0, answer);
      },
    };
  }

  /** A one-shot async iterator of this source's plan, which a check gives where an async iterator is expected (see {@link Source.iterator}). */
  iterator(): AsyncIterator<T> & AsyncIterable<T> {
    const it = this[Symbol.asyncIterator]() as AsyncIterator<T> & AsyncIterable<T>;
    sources.set(it, this);
    return it;
  }
}

/** @internal What the pulls of one iteration of an async source answer ({@link AsyncSource.answers}). */
export interface AsyncAnswers<T> {
  /** What pull k answers, asked in order until it ends: an element, done, or a throw. */
  at(k: number): { readonly value: T } | typeof ENDS | typeof THROWS;
  /** Pull k's answer, given (or thrown) when it comes. */
  deliver(k: number, answer: () => IteratorResult<T, undefined>): Promise<IteratorResult<T, undefined>>;
}

/** An iteration of an async source: pull k's answer is fixed when it is called, and given when its answers say. */
class AsyncRun<T> {
  protected k = 0;
  protected ended = false;
  constructor(
    protected readonly plan: AsyncSourcePlan<T>,
    private readonly answers: AsyncAnswers<T>,
  ) {}

  next(): Promise<IteratorResult<T, undefined>> {
    const k = this.k++;
    const at = this.ended ? ENDS : this.answers.at(k);
    if (typeof at === 'number') this.ended = true;
    return this.answers.deliver(k, () => this.answer(k, at));
  }

  /** The answer of pull `k`, which answers `at` (see {@link AsyncAnswers.at}). */
  private answer(k: number, at: ReturnType<AsyncAnswers<T>['at']>): IteratorResult<T, undefined> {
    if (at === THROWS) throw sourceError(k);
    return at === ENDS ? { done: true, value: undefined } : { done: false, value: at.value };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

class ClosableAsyncRun<T> extends AsyncRun<T> {
  return(): Promise<IteratorResult<T, undefined>> {
    this.ended = true;
    return this.plan.returnThrows ? Promise.reject(sourceError(this.k, true)) : Promise.resolve({ done: true, value: undefined });
  }
  throw(e?: unknown): Promise<IteratorResult<T, undefined>> {
    this.ended = true;
    return Promise.reject(e);
  }
}

/** @internal What `answer` gives (or throws), after `turns` turns of the event loop. */
export function later<R>(turns: number, answer: () => R): Promise<R> {
  // At once, with no closure: a function pulling an infinite source makes a million pulls.
  if (turns === 0) {
    try {
      return Promise.resolve(answer());
    } catch (err) {
      return Promise.reject(err);
    }
  }
  return new Promise<R>((resolve, reject) => {
    const step = (left: number) => {
      if (left > 0) return void setImmediate(step, left - 1);
      try {
        resolve(answer());
      } catch (err) {
        reject(err);
      }
    };
    step(turns);
  });
}

/** The sources of the one-shot iterators made by {@link Source.iterator}. */
const sources = new WeakMap<object, Source<unknown> | AsyncSource<unknown>>();

/** @internal The source of a one-shot iterator made by {@link Source.iterator}, if it is one. */
export function sourceOf(value: unknown): Source<unknown> | AsyncSource<unknown> | undefined {
  return value instanceof Source || value instanceof AsyncSource ? value : typeof value === 'object' && value !== null ? sources.get(value) : undefined;
}

/** @internal An iteration of `plan`: a generator of its pulls' answers, throwing a {@link SourceError} at its `throwAt`. */
export function* planIteration<T>(plan: SourcePlan<T>): Generator<T, undefined> {
  for (let i = 0; ; i++) {
    const at = answerOf(plan, i);
    if (at === THROWS) throw sourceError(i);
    if (at === ENDS) return;
    yield plan.elements[at]!;
  }
}

/** @internal What {@link answerOf} says of a pull that answers done. */
export const ENDS = -1;
/** @internal What {@link answerOf} says of a pull that throws. */
export const THROWS = -2;

/**
 * @internal What pull `k` (from 0) of an iteration of `plan` answers: the index of its element,
 * or {@link ENDS} past the elements of a finite plan (or of one without any), or {@link THROWS}
 * at its `throwAt`; an infinite plan cycles through its elements.
 */
export function answerOf(plan: SourcePlan<unknown>, k: number): number {
  if (k === plan.throwAt) return THROWS;
  const n = plan.elements.length;
  if (k < n) return k;
  return plan.infinite && n > 0 ? k % n : ENDS;
}

/**
 * A {@link SourceError} without a stack trace: capturing one cost more than a check's trial, and a
 * report names the error, not where a generated source threw it. Kept in {@link raised}.
 */
function sourceError(pull: number, inReturn = false): SourceError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    const err = new SourceError(pull, inReturn);
    raised.add(err);
    return err;
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** The errors generated sources threw: a `SourceError` made by anyone else is not a source's failure. */
const raised = new WeakSet<SourceError>();

/** @internal Whether `err` was thrown by a generated source (a pull, or its `return`), not made elsewhere. */
export function isSourceFailure(err: unknown): boolean {
  return err instanceof SourceError && raised.has(err);
}

/**
 * How a source prints in a report: what its pulls answer, `throw` for the pull that throws, `…`
 * for a source that cycles through its elements for ever, then how it closes.
 */
export function describeSource(source: Source<unknown> | AsyncSource<unknown>, elem: Shape<unknown>): string {
  const { elements, infinite, throwAt, hasReturn, returnThrows } = source.plan;
  const delays = source instanceof AsyncSource && source.plan.delays.some((d) => d > 0) ? ` delays [${source.plan.delays.join(', ')}]` : '';
  const shown = elements.slice(0, throwAt).map((x) => prettyDemand(valuePrefix(x, elem, 20, true, true), { maxWidth: 40 }));
  if (throwAt !== undefined) {
    for (let i = elements.length; i < throwAt && infinite && elements.length > 0; i++) shown.push(shown[i % elements.length]!);
    shown.push('throw');
  } else if (infinite && elements.length > 0) shown.push('…');
  return `${source instanceof AsyncSource ? 'async ' : ''}iter [${shown.join(', ')}]${hasReturn ? (returnThrows ? ' return throws' : '') : ' without return'}${delays}`;
}

safeInstanceof(SourceError);
