/**
 * Observing async iterables, in an asynchronous observation (`observeDetailedAsync`): a source
 * given to the function is instrumented as a sync one is, each pull recorded when it settles,
 * in the order the pulls were made whatever order they settle in, with the most pulls pending at
 * once (reading ahead); a context consumes an async iterable result as it would a sync one, and
 * may have several pulls pending at once. Pulls count against the observation's budget.
 * @module
 */
import { countForceCall } from '../lazy/lazy.ts';
import type { Demand, Forced } from '../demand/demand.ts';
import type { Path } from '../demand/path.ts';
import type { RandomConsumer, Shape } from '../demand/shape-types.ts';
import { ALL, EVALUATED, NONE, VALUE_FORM, WHNF, type Guide } from '../demand/guide.ts';
import type { Recording } from '../demand/instrument.ts';
import { currentAsyncWork, withAsyncWork, type AsyncWork } from '../demand/async-work.ts';
import { AsyncSource } from './source.ts';
import { RefusingCopy, refusingAssignments } from '../demand/input-copy.ts';
import { allowedPulls, answered, elementPath, hasMethod, isIteratorResult, iteratorOf, notAClosingResult, notAnIteratorResult, IterableRecord, IterationLog, iterationTaken, kindOf, noteFailure, passedOn, planOf, primitiveElement, randomPlan, RecordedSourceCopy, newIteration, SourceRecord, returnFromAsync, throwIntoAsync, type Plan } from './observe.ts';

/** Whether `value` has a `[Symbol.asyncIterator]` method. */
export const isAsyncIterable = (value: unknown): boolean => hasMethod(value, Symbol.asyncIterator);

/** The work of the asynchronous observation running now; a synchronous one is refused, saying what to use. */
function workOrRefuse(shape: Shape<unknown>): AsyncWork {
  const work = currentAsyncWork();
  if (work !== undefined) return work;
  throw new TypeError(`${shape.name} is observed only by an asynchronous check, which awaits its pulls: use checkSpecAsync or assertSpecAsync (or observeDetailedAsync), see docs/iterators.md`);
}

/** The instrumented copy of async iterable `value` (`oneShot`: an async iterator), recording as {@link instrumentIterable} does. */
export function instrumentAsyncIterable(value: unknown, shape: Shape<unknown>, elem: Shape<unknown>, oneShot: boolean, path: Path, into: object, at: number, rec: Recording): unknown {
  const work = workOrRefuse(shape);
  const source = new AsyncSourceRecord(value, shape, elem, path, into, at, rec, work);
  return oneShot ? source.iteration() : new RecordedAsyncIterable(source);
}

/** @internal The record of an async source (see {@link SourceRecord}). */
export class AsyncSourceRecord extends SourceRecord<AsyncIterable<unknown>> {
  /** Whether its pulls answer within a few turns (a generated source's): the observation waits for those the function made (see {@link AsyncWork.unsettled}), not for a pull of any other, which may never answer. */
  readonly answersSoon: boolean;
  constructor(value: unknown, shape: Shape<unknown>, elem: Shape<unknown>, path: Path, into: object, at: number, rec: Recording, readonly work: AsyncWork) {
    super(value, shape, Symbol.asyncIterator, elem, path, into, at, rec);
    this.answersSoon = this.real instanceof AsyncSource;
  }

  /** Counts against the observation's pull budget too. */
  override countCall(): void {
    this.work.pull();
    countForceCall();
  }

  iteration(): AsyncIterator<unknown> {
    const real = this.iterator<AsyncIterator<unknown>>(Symbol.asyncIterator);
    return new (kindOf(real, RecordedAsyncIterator, AsyncReturnable, AsyncThrowable, AsyncClosable))(real, this.nextLog(), this) as AsyncIterator<unknown>;
  }
}

/** @internal The instrumented copy of a re-iterable async source given to the function: `[Symbol.asyncIterator]()` alone (see {@link RecordedSourceCopy}). */
export class RecordedAsyncIterable extends RecordedSourceCopy {
  [Symbol.asyncIterator](): AsyncIterator<unknown> {
    return newIteration(this);
  }
}
refusingAssignments(RecordedAsyncIterable.prototype, [Symbol.asyncIterator]);

/** How pull k settled: its result, or what it threw. */
type Settled = { readonly ok: true; readonly r: IteratorResult<unknown> } | { readonly ok: false; readonly err: unknown };

/** Closes recorded async iterator `it` with `forward`, the real one's `return` or `throw` (see {@link RecordedAsyncIterator}): set in its static block, where alone its private fields are read. */
let closeAsyncIteration: (it: RecordedAsyncIterator, how: 'return' | 'throw', forward: (real: AsyncIterator<unknown>, rec: Recording, where: { readonly path: Path; readonly iteration: number }) => Promise<IteratorResult<unknown>>) => Promise<IteratorResult<unknown>>;

/**
 * @internal An async iterator forwarding to `real` that records its pulls in the order they were made: a
 * pull that settles before an earlier one waits to be recorded (an element that is not a
 * primitive, whose copy depends on its place, waits to be delivered too). `return` and `throw`
 * only where the real iterator has them. Its fields and helpers are private, its methods the
 * protocol's: the function can neither pull the real iterator unrecorded nor change what it records.
 */
export class RecordedAsyncIterator extends RefusingCopy {
  #calls = 0;
  #pendingNow = 0;
  #recorded = 0;
  readonly #settled = new Map<number, Settled>();
  readonly #waiting = new Map<number, { resolve(r: IteratorResult<unknown>): void; reject(err: unknown): void }>();
  readonly #real: AsyncIterator<unknown>;
  readonly #log: IterationLog;
  readonly #of: AsyncSourceRecord;
  /** The consumer's close and how many pulls came before it (see {@link closeAsyncIteration}), until it is recorded. */
  #closing: { readonly how: 'return' | 'throw'; readonly after: number } | undefined = undefined;
  constructor(real: AsyncIterator<unknown>, log: IterationLog, of: AsyncSourceRecord) {
    super(of.iterators);
    this.#real = real;
    this.#log = log;
    this.#of = of;
  }

  next(...args: [] | [unknown]): Promise<IteratorResult<unknown>> {
    const log = this.#log;
    const real = this.#real;
    const of = this.#of;
    const spent = this.#counted();
    if (spent !== undefined) return spent;
    // A pull after the consumer closed the iteration is none of it, as in a sync one, but for a value it answers after return() or done (see pastEnd).
    if (!of.rec.open) return real.next(...args);
    if (log.ended || this.#closing !== undefined) {
      const how = log.ended ? log.endedBy : this.#closing!.how;
      const k = this.#calls;
      return Promise.resolve(real.next(...args)).then((r) => (of.rec.open ? of.pastEnd(r, how, log.iteration, k) : r));
    }
    let answer: Promise<IteratorResult<unknown>>;
    try {
      answer = Promise.resolve(real.next(...args));
    } catch (err) {
      answer = Promise.reject(err);
    }
    const k = this.#calls++;
    log.pending(++this.#pendingNow);
    if (of.answersSoon) of.work.unsettled++;
    return answer.then(
      (r) => this.#settle(k, isIteratorResult(r) ? { ok: true, r } : { ok: false, err: of.rec.pullFailed(notAnIteratorResult(r, elementPath(of.path, log.iteration, k))) }),
      (err: unknown) => this.#settle(k, { ok: false, err }),
    );
  }

  /** Pull `k` settled: records every pull settled, in order, from the first not recorded, and delivers `k`'s answer. */
  #settle(k: number, s: Settled): IteratorResult<unknown> | Promise<IteratorResult<unknown>> {
    this.#pendingNow--;
    // A source's failure is the input's as soon as the function gets it, recorded in order or not: one that rejects before an earlier pull settles may end the function (a Promise.all of pulls) first.
    if (!s.ok) noteFailure(this.#of.rec, s.err);
    if (this.#of.answersSoon) this.#of.work.unsettled--;
    const settled = this.#settled;
    if (k === this.#recorded && settled.size === 0) {
      // The next in order, none settled behind it (the common case): recorded and delivered at once.
      this.#recorded++;
      const delivered = this.#record(k, s);
      this.#endIfClosed();
      if (!s.ok) throw s.err;
      return delivered!;
    }
    settled.set(k, s);
    let mine: IteratorResult<unknown> | undefined;
    let refused: { readonly err: unknown } | undefined;
    while (settled.has(this.#recorded)) {
      const i = this.#recorded++;
      // Recording a pull may refuse it (an element after done): that pull rejects, and the ones behind it are still recorded and delivered.
      let delivered: IteratorResult<unknown> | undefined;
      let failed: { readonly err: unknown } | undefined;
      try {
        delivered = this.#record(i, settled.get(i)!);
      } catch (err) {
        failed = { err };
      }
      this.#endIfClosed();
      settled.delete(i);
      if (i === k) {
        mine = delivered;
        refused = failed;
      }
      else if (failed) this.#waiting.get(i)?.reject(failed.err);
      else if (delivered !== undefined) this.#waiting.get(i)?.resolve(delivered);
      this.#waiting.delete(i);
    }
    if (refused) throw refused.err;
    if (!s.ok) throw s.err;
    if (mine !== undefined || s.r.done || primitiveElement(s.r.value, this.#of.elem)) return mine ?? s.r;
    // An element whose copy is made at its place in the order waits for the earlier pulls.
    return new Promise((resolve, reject) => this.#waiting.set(k, { resolve, reject }));
  }

  /** Records pull `i`, settled as `s`; what to deliver for it (its element's instrumented copy), `undefined` for a throw. */
  #record(i: number, s: Settled): IteratorResult<unknown> | undefined {
    const log = this.#log;
    const of = this.#of;
    if (!s.ok) {
      if (of.rec.open && !log.ended) log.end('threw');
      return undefined;
    }
    const r = s.r;
    if (!of.rec.open) return r;
    // A pull made before an earlier one answered done.
    if (log.ended) return of.pastEnd(r, log.endedBy, log.iteration, i);
    if (r.done) {
      log.end('done');
      return r;
    }
    const x = r.value;
    if (primitiveElement(x, of.elem)) {
      log.pulledPrimitive(x);
      return r;
    }
    return withAsyncWork(of.work, () => of.copied(r, log, i));
  }

  /** Records the consumer's close once every pull made before it is recorded. */
  #endIfClosed(): void {
    const closing = this.#closing;
    const log = this.#log;
    if (closing !== undefined && this.#recorded >= closing.after && !log.ended && this.#of.rec.open) log.end(closing.how);
  }

  /**
   * Counts a call of `next`, `return` or `throw` against the observation's budget, whatever the
   * iteration's state (a pull past the end too, as a force of an evaluated thunk counts): the
   * rejection to answer once the budget is spent, else `undefined`.
   */
  #counted(): Promise<never> | undefined {
    try {
      this.#of.countCall();
      return undefined;
    } catch (err) {
      return Promise.reject(err);
    }
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  static {
    closeAsyncIteration = (it, how, forward) => {
      const spent = it.#counted();
      if (spent !== undefined) return spent;
      if (it.#of.rec.open && !it.#log.ended && it.#closing === undefined) {
        // Pulls made before the close, still pending, are recorded before it when they settle: the element one delivers is the function's.
        it.#closing = { how, after: it.#calls };
        it.#endIfClosed();
      }
      return forward(it.#real, it.#of.rec, { path: it.#of.path, iteration: it.#log.iteration });
    };
  }
}
// `return` and `throw` only on the subclasses, as the real iterator has them (for await closes only what has `return`; `'return' in it` is the real one's).
refusingAssignments(RecordedAsyncIterator.prototype, ['next', Symbol.asyncIterator]);

/** A recorded async iterator whose real one has `return`: a source's failure from it is noted as the input's. */
export class AsyncReturnable extends RecordedAsyncIterator {
  return(v?: unknown): Promise<IteratorResult<unknown>> {
    return closeAsyncIteration(this, 'return', (real, rec, where) =>
      Promise.resolve(real.return!(v)).then(
        // The source's fault, as a next() resolving to no object is (see the sync closing).
        (r) => (rec.open && !isIteratorResult(r) ? Promise.reject(rec.pullFailed(notAClosingResult(r, where.path, where.iteration))) : r),
        (err: unknown) => {
          noteFailure(rec, err);
          throw err;
        },
      ),
    );
  }
}

/** A recorded async iterator whose real one has `throw`. */
export class AsyncThrowable extends RecordedAsyncIterator {
  throw(e?: unknown): Promise<IteratorResult<unknown>> {
    return closeAsyncIteration(this, 'throw', (real) => real.throw!(e));
  }
}

/** A recorded async iterator whose real one has both. */
export class AsyncClosable extends AsyncReturnable {
  throw(e?: unknown): Promise<IteratorResult<unknown>> {
    return closeAsyncIteration(this, 'throw', (real) => real.throw!(e));
  }
}
refusingAssignments(AsyncReturnable.prototype, ['return']);
refusingAssignments(AsyncThrowable.prototype, ['throw']);
refusingAssignments(AsyncClosable.prototype, ['throw']);

/** Consumes async iterable `value` as {@link consumeIterable} does a sync one; the observation awaits it. */
export function consumeAsyncIterable(value: unknown, shape: Shape<unknown>, elem: Shape<unknown>, path: Path, guide: Guide, into: object, at: number, fit: boolean): boolean {
  if (guide === EVALUATED || guide === VALUE_FORM) return false;
  if (guide === NONE) return true;
  const work = workOrRefuse(shape);
  if (!isAsyncIterable(value)) shape.project(value, path); // throws the mismatch
  const iterable = value as AsyncIterable<unknown>;
  const owner = new IterableRecord(into, at, shape);
  if (guide === WHNF || guide === ALL) {
    work.add(consumeAsyncIteration(iterable, owner, elem, path, 0, guide === WHNF ? { pulls: 1, then: 'open', head: WHNF } : { pulls: Infinity, then: 'done', head: ALL }, true, work));
    return true;
  }
  const d = guide as Demand;
  if (!d.forced) return true;
  const each = d.ctor.name === 'Iterations' ? Array.from({ length: d.arity }, (_, i) => d.field(i)) : [d];
  // Iterations one after the other, as the demand lists them.
  work.add(
    each.reduce<Promise<void>>((done, one, i) => (one.forced ? done.then(() => consumeAsyncIteration(iterable, owner, elem, path, i, planOf(one as Forced), fit, work)) : done), Promise.resolve()),
  );
  return true;
}

/**
 * Consumes an async iterable as a random context of size `size`: as a sync one's random context
 * (pull k then leave it, close it as a `for await` with `break` does, throw into it, or pull it
 * to its end, within the allowance of `consumer`), with one in three keeping 2 or 3 pulls pending at once.
 */
export function consumeAsyncRandomly(value: unknown, shape: Shape<unknown>, elem: Shape<unknown>, path: Path, consumer: RandomConsumer, into: object, at: number): void {
  const work = workOrRefuse(shape);
  if (!isAsyncIterable(value)) shape.project(value, path); // throws the mismatch
  const plan = randomPlan(consumer);
  const { r } = consumer;
  const ahead = r.int(0, 2) === 0 ? r.int(2, 3) : 1;
  work.add(consumeAsyncIteration(value as AsyncIterable<unknown>, new IterableRecord(into, at, shape), elem, path, 0, { ...plan, ahead }, true, work));
}

/** Runs one iteration of `iterable` by `plan`, recording it, with up to `plan.ahead` pulls pending at once; stops early at its end. */
async function consumeAsyncIteration(iterable: AsyncIterable<unknown>, owner: IterableRecord, elem: Shape<unknown>, path: Path, iteration: number, plan: Plan, fit: boolean, work: AsyncWork): Promise<void> {
  const it = iteratorOf<AsyncIterator<unknown>>(iterable, Symbol.asyncIterator, path, iteration);
  const log = iterationTaken(owner, iteration);
  const ahead = plan.ahead ?? 1;
  for (let k = 0; k < plan.pulls || plan.then === 'done'; ) {
    // A plan that pulls to the end keeps `ahead` pulls pending to the end, those past it answered done, as a random consumer did: `Ahead 2 []` is two pulls pending, each answered done.
    const batch = allowedPulls(plan, Math.max(1, plan.then === 'done' ? ahead : Math.min(ahead, plan.pulls - k)), k);
    if (batch === 0) break;
    const calls: Promise<IteratorResult<unknown>>[] = [];
    for (let j = 0; j < batch; j++) {
      work.pull();
      calls.push(Promise.resolve().then(() => it.next()));
    }
    log.pending(batch);
    const answers = await Promise.allSettled(calls);
    for (const answer of answers) {
      if (answer.status === 'rejected') return withAsyncWork(work, () => passedOn(log, answer.reason));
      if (withAsyncWork(work, () => answered(log, answer.value, k++, plan, elem, path, fit))) return;
    }
  }
  if (plan.then === 'return' && typeof it.return === 'function') {
    log.end('return');
    await returnFromAsync(it, work, path, iteration);
  } else if (plan.then === 'throw' && typeof it.throw === 'function') {
    log.end('throw');
    await throwIntoAsync(it, work);
  }
}
