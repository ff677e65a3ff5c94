/**
 * Observing iterables: a source given to a function is instrumented (a wrapper whose iterators
 * record each pull and event, forwarding to the real source), and a context consumes an iterable
 * result (pulls k, then leaves it, closes it, throws into it, or pulls it to its end). Both record
 * an iteration's demand as it goes: list cells for the pulls answered, then its end. Each pull
 * (and each `return()`, `throw()`), past the end too, and each iterator taken of a source,
 * counts as a force against the force budget, so a walk that pulls or iterates for ever is stopped.
 * @module
 */
import { countForceCall, now } from '../lazy/lazy.ts';
import { forcedNode, Forced, isTaken, setField, type Demand } from '../demand/demand.ts';
import { lazyOf } from '../demand/lazy-positions.ts';
import { child, showPath, type Path } from '../demand/path.ts';
import type { RandomConsumer, Shape } from '../demand/shape-types.ts';
import { perShape } from '../demand/shape-walk.ts';
import { record } from '../demand/record.ts';
import { RecordSite } from '../demand/record-site.ts';
import { normalizeUpTo } from '../engine/context.ts';
import { HEAD, put, putPrimitive, recordedAt, Spine, SpineCell } from '../demand/compact-demand.ts';
import { ALL, EVALUATED, NONE, VALUE_FORM, WHNF, type Guide } from '../demand/guide.ts';
import { isPrimitive, primitiveFits } from '../demand/shape-fit.ts';
import { instrument, Recording } from '../demand/instrument.ts';
import { addIteration, AHEAD_CTOR, DONE_CTOR, END_CTORS, isReiterableShape, iterationsNode, noteIteratorMethods, TAKEN_CTOR } from './demand.ts';
import { isSourceFailure, sourceOf } from './source.ts';
import { isInputFailure } from '../demand/input-failures.ts';
import { isInstance } from '../lazy/thrown.ts';
import { withAsyncWork, type AsyncWork } from '../demand/async-work.ts';
import { describeValue, ShapeMismatchError } from '../demand/shape-errors.ts';
import { RefusingCopy, refusingAssignments, type ChangeOwner } from '../demand/input-copy.ts';

/** What a random context throws into an iterable with `throw()`; caught when it comes back out (one, made once: a stack trace per throw cost more than the trial). */
export const CONSUMER_THROW = new Error('thrown into the iterable by the context');

/** @internal Where the demand on one iterable (all its iterations) is recorded. */
export class IterableRecord {
  /** The demand of a one-shot iterator's one iteration, put as itself (until a second begins). */
  private only: Demand | undefined = undefined;
  /** The `Iterations` node, put once and grown in place: recording an iteration costs the same however many came before. */
  private node: Forced | undefined = undefined;
  /** Whether the iterable is a re-iterable source, whose demand is its `Iterations`, one begun too (a one-shot iterator's is its one iteration). */
  readonly reiterable: boolean;
  constructor(
    /** Where its demand is recorded: field `at` of `into`. */
    readonly into: object,
    readonly at: number,
    /** The iterable's shape. */
    shape: Shape<unknown>,
  ) {
    this.reiterable = isReiterableShape(shape);
  }

  /** An iteration starts recording when its iterator is taken or, of a one-shot iterator, at its first event: one demand, or `Iterations` of several (of one, for a re-iterable source). Returns its index. */
  started(root: Demand): number {
    if (this.node === undefined) {
      if (!this.reiterable && this.only === undefined) {
        this.replace(0, root);
        return 0;
      }
      // A Lazy source forced again is copied again, with a record of its own: its iterations join those already recorded.
      const there = this.only === undefined ? recordedAt(this.into as Forced, this.at) : undefined;
      if (there instanceof Forced && there.ctor.iterations !== undefined) this.node = there;
      else {
        this.node = iterationsNode();
        if (this.only !== undefined) addIteration(this.node, this.only);
        put(this.into as Forced, this.at, this.node);
      }
    }
    return addIteration(this.node, root);
  }

  /** The demand of iteration `i` is now `root`. */
  replace(i: number, root: Demand): void {
    if (this.node !== undefined) setField(this.node, i, root);
    else put(this.into as Forced, this.at, (this.only = root));
  }
}

/**
 * @internal The demand of one iteration being recorded, in the compact form of a list's: a spine
 * whose cells are the pulls answered a value (a primitive element as itself), its rest the end;
 * inside `Ahead n` if `n` pulls of an async iteration were pending at once.
 */
export class IterationLog {
  private cell: SpineCell | undefined = undefined;
  /**
   * The spine of {@link cell}, where each pull answered a value adds a cell. `cell.spine` holds it
   * too, but read through the cell on every pull, observing a function over 10^5 elements took 5%
   * longer (5.7 ms against 5.4, the least of 40 runs, in 6 runs of each, alternated).
   */
  private spine: Spine | undefined = undefined;
  private base: Demand | undefined = undefined;
  private index = 0;
  private ahead = 1;
  /** How it ended, once it has (see {@link end}). */
  endedBy: 'done' | keyof typeof END_CTORS | undefined = undefined;
  /** Whether it has ended. */
  get ended(): boolean {
    return this.endedBy !== undefined;
  }
  constructor(
    private readonly owner: IterableRecord,
    /** Which iteration of its source this is, from 0. */
    readonly iteration: number,
  ) {}

  private start(base: Demand): void {
    const taken = this.base !== undefined;
    this.base = base;
    if (taken) this.owner.replace(this.index, this.root());
    else this.index = this.owner.started(this.root());
  }

  /** Its iterator was taken (`[Symbol.iterator]()`): begun, `taken` until its first event. */
  took(): void {
    this.start(TAKEN_NODE);
  }

  /** The demand recorded, wrapped in `Ahead n` where the iteration was read ahead. */
  private root(): Demand {
    if (this.ahead <= 1) return this.base!;
    const node = forcedNode(AHEAD_CTOR, 2, undefined, true);
    putPrimitive(node, 0, this.ahead, false);
    setField(node, 1, this.base!);
    return node;
  }

  /** `n` pulls are pending at once. */
  pending(n: number): void {
    if (n <= this.ahead || this.ended) return;
    this.ahead = n;
    if (this.base !== undefined) this.owner.replace(this.index, this.root());
  }

  /** A pull answered a value: where its element's demand goes, `HEAD - k` of {@link first}. */
  pulled(): number {
    return HEAD - (this.spine ?? this.startSpine()).grow();
  }

  /** A pull answered primitive `x`, which the spine holds as itself. */
  pulledPrimitive(x: unknown): void {
    (this.spine ?? this.startSpine()).push(x);
  }

  /** The first pull answered a value: the iteration's demand is a spine from now on. */
  private startSpine(): Spine {
    const cell = (this.cell = new SpineCell((this.spine = new Spine()), 0));
    this.start(cell as unknown as Forced);
    return this.spine;
  }

  /**
   * The first cell, where {@link pulled} records: made by the first pull answered a value, asked
   * before or after {@link pulled} (a caller reads both for one element, in either order).
   */
  get first(): SpineCell {
    if (this.cell === undefined) this.startSpine();
    return this.cell!;
  }

  /** A pull answered done (`[]`), the consumer closed (`return()`, `throw()`), or a pull threw (`⊥`). */
  end(how: 'done' | keyof typeof END_CTORS): void {
    this.endedBy = how;
    const node = how === 'done' ? DONE : forcedNode(END_CTORS[how], 0, undefined, true);
    if (this.spine === undefined) this.start(node);
    else this.spine.rest = node;
  }
}

/** @internal Where iteration `iteration` of `owner` records, its iterator taken: `taken` until its first event, on a re-iterable source or result. */
export function iterationTaken(owner: IterableRecord, iteration: number): IterationLog {
  const log = new IterationLog(owner, iteration);
  if (owner.reiterable) log.took();
  return log;
}

/** `taken`: an iterator taken, no event yet. */
const TAKEN_NODE = forcedNode(TAKEN_CTOR, 0, undefined, true);

/** `[]`: a pull answered done. */
const DONE = forcedNode(DONE_CTOR, 0, undefined, true);

/** `lazyOf(elem)`, one per element shape: the shape an element is recorded at. */
export const headShape = perShape((elem) => lazyOf(elem) as Shape<unknown>);

/** The `typeof` of the values of a primitive shape (not opaque), `''` for any other: the cheap test of the common element. */
const primitiveType = perShape((elem) => (elem.kind === 'prim' && elem.prim !== 'opaque' ? (elem.prim === 'unit' ? 'undefined' : elem.prim) : ''));

/** The element shape last asked of {@link primitiveElement}, and its primitive type: every pull of an iteration asks of the same one, which then costs no WeakMap lookup. */
let lastElem: Shape<unknown> | undefined;
let lastType = '';

/** @internal Whether element `x` of shape `elem` is a primitive, recorded as itself on the spine without the generic walk (the common case). */
export function primitiveElement(x: unknown, elem: Shape<unknown>): boolean {
  if (elem !== lastElem) lastType = primitiveType((lastElem = elem));
  return typeof x === lastType || (isPrimitive(x) && primitiveFits(x, elem));
}

/** The path of iteration `iteration` of the iterable at `path`, for messages. */
function iterationPath(path: Path, iteration: number): Path {
  return path === null ? null : child(path, iteration === 0 ? 'iteration' : `iteration${iteration + 1}`);
}

/** The path of element `k` of an iteration, for messages. */
export function elementPath(path: Path, iteration: number, k: number): Path {
  return path === null ? null : child(iterationPath(path, iteration), `next${k + 1}`);
}

/**
 * @internal The iterator that `iterable[key]()` gives for iteration `iteration` at `path`, refused
 * where it is not an object with a `next` method, as JavaScript's `for…of` refuses it, naming
 * where (the refusal passed through `rec.pullFailed`, for a source: the observation's error).
 */
export function iteratorOf<I>(iterable: unknown, key: symbol, path: Path, iteration: number, rec?: Recording): I {
  const it: unknown = (iterable as Record<symbol, () => unknown>)[key]!();
  let found: string | undefined;
  if (!isIteratorResult(it)) found = `${describeValue(it)}: [${key.description}]() gave no object (JavaScript throws TypeError: Result of the ${key.description} method is not an object)`;
  else {
    const next = (it as { next?: unknown }).next;
    if (next === undefined) found = `${describeValue(it)} without a next method (JavaScript throws TypeError: undefined is not a function)`;
    else if (typeof next !== 'function') found = `${describeValue(it)} whose next is ${describeValue(next)}, not a method (JavaScript throws a TypeError: it is not a function)`;
  }
  if (found === undefined) return it as I;
  const err = new ShapeMismatchError(showPath(iterationPath(path, iteration)), 'an iterator (an object with a next method)', it, found);
  throw rec === undefined ? err : rec.pullFailed(err);
}

/** Whether `r`, what a `next()` answered, is an iterator result: an object, as the protocol requires (its fields are read as they are). */
export function isIteratorResult(r: unknown): r is IteratorResult<unknown> {
  return (typeof r === 'object' && r !== null) || typeof r === 'function';
}

/** The refusal of `r`, what the pull at `path` answered, which is not an object: what JavaScript's `for…of` throws there, and where. */
export function notAnIteratorResult(r: unknown, path: Path): ShapeMismatchError {
  return new ShapeMismatchError(showPath(path), 'an iterator result (an object { done, value })', r, `${describeValue(r)}: the iterator result is not an object (JavaScript throws ${notAnObject(r)})`);
}

/** The TypeError JavaScript throws where an iterator result `r` is not an object. */
function notAnObject(r: unknown): string {
  return `TypeError: Iterator result ${typeof r === 'symbol' ? r.toString() : String(r)} is not an object`;
}

/**
 * The instrumented copy of `value`, an iterable (`oneShot`: an iterator, one iteration): its
 * iterators record their pulls and events at `at` of `into` while `rec` is open, and forward to
 * the real ones. A generated source's one-shot iterator is replaced by a fresh iteration of its
 * source, so that every run of a case gets it whole.
 */
export function instrumentIterable(value: unknown, shape: Shape<unknown>, elem: Shape<unknown>, oneShot: boolean, path: Path, into: object, at: number, rec: Recording): unknown {
  const source = new SyncSourceRecord(value, shape, elem, path, into, at, rec);
  return oneShot ? source.iteration() : new RecordedIterable(source);
}

/** Whether `value` is an object with a method under `key` (`Symbol.iterator`, `Symbol.asyncIterator`). */
export function hasMethod(value: unknown, key: symbol): boolean {
  return typeof value === 'object' && value !== null && typeof (value as Record<symbol, unknown>)[key] === 'function';
}

/** Whether `value` has a `[Symbol.iterator]` method. */
export const isIterable = (value: unknown): boolean => hasMethod(value, Symbol.iterator);

/**
 * @internal What the instrumented copy of a source records, sync or async (its iterators made by
 * the subclass, under `key`): each iteration apart. A generated source's one-shot iterator stands
 * for its source. The function never gets it: the copy it is given, and the copy's iterators, hold
 * it in a private field, so that it cannot read the source forwarded to nor change the recording.
 */
export abstract class SourceRecord<S> implements ChangeOwner {
  private count = 0;
  private readonly owner: IterableRecord;
  /** The source forwarded to. */
  protected readonly real: S;
  /** Whether it is a generated source, whose plan says what its iterators have. */
  private readonly generated: boolean;
  /** Whom its iterators tell of a change to them (see `input-copy.ts`): an input's only. */
  readonly iterators: ChangeOwner | undefined;
  constructor(
    value: unknown,
    shape: Shape<unknown>,
    key: symbol,
    /** The shape of the elements. */
    readonly elem: Shape<unknown>,
    readonly path: Path,
    into: object,
    at: number,
    readonly rec: Recording,
  ) {
    const source = sourceOf(value);
    if (source === undefined && !hasMethod(value, key)) shape.project(value, path); // throws the mismatch
    this.real = (source ?? value) as S;
    this.generated = source !== undefined;
    this.owner = new IterableRecord(into, at, shape);
    this.iterators = rec.inputs ? new IteratorChanges(this) : undefined;
  }

  /** An input's copy, and its iterators, refuse a change (see `input-copy.ts`): the function would change what the source records. */
  changed(what: string): Error {
    return this.rec.changedInput(this.rec.pathAt(this.path, this.owner.into as never, this.owner.at), what, 'wrap the source in an iterable or iterator of your own');
  }

  /** {@link changed} of a change `what` to an iterator of this source: the input itself where it is one-shot (an iterator, its one iteration given as it is). */
  iteratorChanged(what: string): Error {
    return this.changed(this.owner.reiterable ? `${what}, on an iterator of it` : what);
  }

  /** A new recorded iteration, what the copy's `[key]()` gives. */
  abstract iteration(): object;

  /**
   * Pull `k` of iteration `log` answered `r`, an element that is not a primitive of its shape:
   * delivered as its instrumented copy, recorded at its place; what recording it throws is the
   * observation's (see `Recording.pullFailed`), not the function's.
   */
  copied(r: IteratorYieldResult<unknown>, log: IterationLog, k: number): IteratorResult<unknown> {
    let copy: unknown;
    try {
      copy = instrument(r.value, this.elem, elementPath(this.path, log.iteration, k), log.first, log.pulled(), this.rec, true);
    } catch (err) {
      throw this.rec.pullFailed(err);
    }
    return copy === r.value ? r : { done: false, value: copy };
  }

  /**
   * `r`, what pull `k` of iteration `iteration` answered after it ended (`how`), as it is; refused (the
   * observation's error, see `Recording.pullFailed`) where it is a value after the source answered
   * done or the function closed it with `return()`: an iteration is recorded up to its end, and the
   * element would reach the function unrecorded. ECMAScript asks an iterator to answer done after
   * done; after `return()` it asks only that the consumer pull no more, which a generator makes
   * sure of by answering done: an element then is the function's pull and the source's open end
   * both, and the message says so. One that a consumer's `throw()` resumes, or that answers again
   * after throwing, is within the protocol.
   */
  pastEnd<R>(r: R, how: IterationLog['endedBy'], iteration: number, k: number): R {
    if ((how !== 'done' && how !== 'return') || !isIteratorResult(r) || r.done) return r;
    throw this.rec.pullFailed(
      new ShapeMismatchError(
        showPath(elementPath(this.path, iteration, k)),
        'an iterator that answers done once it has answered done (as ECMAScript asks) or been closed with return() (as a generator does)',
        r,
        how === 'done'
          ? `one whose next() answered an element (${describeValue(r.value)}) after done: strictcheck records an iteration up to its end, and would hand the function an element it does not record. Make the source's iterator answer done from then on`
          : `one whose next() answered an element (${describeValue(r.value)}) after return(): the function pulled the iteration it had closed, and the source's return() did not end it. strictcheck records an iteration up to its close, and would hand the function an element it does not record. Make the source's return() end its iteration (answer done from then on, as a generator does), or see why the function pulls after closing`,
      ),
    );
  }

  /**
   * The iterator of the source forwarded to that the next iteration takes with `key` (refused if it
   * is none). Taking one counts against the force budget, as a pull does: a function may take
   * iterations for ever.
   */
  protected iterator<I>(key: symbol): I {
    this.countCall();
    const it = iteratorOf<I>(this.real, key, this.path, this.count, this.rec);
    // What a spec's closedAfter reads of the source, which it need not take an iterator of to know.
    if (!this.generated) noteIteratorMethods(this.real as object, it as object);
    return it;
  }

  /** Counts a call on the source or its iterators against the force budget, throwing `ForceBudgetExceeded` once it is spent. */
  countCall(): void {
    countForceCall();
  }

  /**
   * Where the next iteration records. Taking an iterator of a re-iterable source begins an
   * iteration (`taken`): one left without any event was left open, not never begun.
   */
  protected nextLog(): IterationLog {
    return this.rec.open ? iterationTaken(this.owner, this.count++) : new IterationLog(this.owner, this.count++);
  }
}

/** Whom the iterators of a source tell of a change to them. */
class IteratorChanges implements ChangeOwner {
  constructor(private readonly source: SourceRecord<unknown>) {}
  changed(what: string): Error {
    return this.source.iteratorChanged(what);
  }
}

/** @internal The record of a sync source. */
export class SyncSourceRecord extends SourceRecord<Iterable<unknown>> {
  constructor(value: unknown, shape: Shape<unknown>, elem: Shape<unknown>, path: Path, into: object, at: number, rec: Recording) {
    super(value, shape, Symbol.iterator, elem, path, into, at, rec);
  }

  iteration(): Iterator<unknown> {
    const real = this.iterator<Iterator<unknown>>(Symbol.iterator);
    // `return` and `throw` only where the real iterator has them: a for…of closes what has `return`.
    return new (kindOf(real, RecordedIterator, Returnable, Throwable, Closable))(real, this.nextLog(), this);
  }
}

/** @internal A new recorded iteration of the source of `copy`, what its protocol's method gives: set in its static block, where alone its private field is read. */
export let newIteration: <I>(copy: RecordedSourceCopy) => I;

/** @internal The instrumented copy of a re-iterable source given to the function: the protocol's method its subclass adds alone, its record out of reach. */
export class RecordedSourceCopy extends RefusingCopy {
  readonly #source: SourceRecord<unknown>;
  constructor(source: SourceRecord<unknown>) {
    super(source.rec.inputs ? source : undefined);
    this.#source = source;
  }

  static {
    newIteration = (copy) => copy.#source.iteration() as never;
  }
}

/** @internal The instrumented copy of a re-iterable sync source given to the function: `[Symbol.iterator]()` alone. */
export class RecordedIterable extends RecordedSourceCopy {
  [Symbol.iterator](): Iterator<unknown> {
    return newIteration(this);
  }
}
refusingAssignments(RecordedIterable.prototype, [Symbol.iterator]);

/** @internal Of the four kinds of recorded iterator, the one with the methods `real` has: `return`, `throw`, both or neither. */
export function kindOf<K>(real: { return?: unknown; throw?: unknown }, neither: K, returnable: K, throwable: K, closable: K): K {
  return typeof real.return === 'function' ? (typeof real.throw === 'function' ? closable : returnable) : typeof real.throw === 'function' ? throwable : neither;
}

/** Closes recorded iterator `it` with `return(arg)` or `throw(arg)` forwarded: set in its static block, where alone its private fields are read. */
let closeIteration: (it: RecordedIterator, how: 'return' | 'throw', arg: unknown) => IteratorResult<unknown>;

/**
 * An iterator forwarding to `real` that records its pulls and events in `log` (classes, not
 * closures: one is made per iteration). Its fields are private, and its methods the protocol's:
 * the function can neither pull the real iterator unrecorded nor change what it records.
 */
export class RecordedIterator extends RefusingCopy {
  #k = 0;
  readonly #elem: Shape<unknown>;
  readonly #rec: Recording;
  readonly #real: Iterator<unknown>;
  readonly #log: IterationLog;
  /** The source this is an iteration of. */
  readonly #of: SyncSourceRecord;
  constructor(real: Iterator<unknown>, log: IterationLog, of: SyncSourceRecord) {
    super(of.iterators);
    this.#real = real;
    this.#log = log;
    this.#of = of;
    this.#elem = of.elem;
    this.#rec = of.rec;
  }

  next(value?: unknown): IteratorResult<unknown> {
    const log = this.#log;
    const real = this.#real;
    // Without an argument where none is given, as for…of calls it (and without a rest array to make per pull).
    const given = arguments.length > 0;
    // Every call counts against the force budget, as a force of an evaluated thunk does: a pull past the end too.
    countForceCall();
    if (!this.#rec.open) return given ? real.next(value) : real.next();
    if (log.ended) return this.#of.pastEnd(given ? real.next(value) : real.next(), log.endedBy, log.iteration, this.#k);
    let r: IteratorResult<unknown>;
    try {
      r = given ? real.next(value) : real.next();
    } catch (err) {
      log.end('threw');
      noteFailure(this.#rec, err);
      throw err;
    }
    if (!isIteratorResult(r)) throw this.#rec.pullFailed(notAnIteratorResult(r, elementPath(this.#of.path, log.iteration, this.#k)));
    if (r.done) {
      log.end('done');
      return r;
    }
    const x = r.value;
    // Primitives, the common case, without the generic copy.
    if (primitiveElement(x, this.#elem)) {
      log.pulledPrimitive(x);
      this.#k++;
      return r;
    }
    return this.#of.copied(r, log, this.#k++);
  }

  [Symbol.iterator](): this {
    return this;
  }

  static {
    // The consumer's closing counts as a pull, and is recorded if the iteration still is; a source's failure from `return` is the input's.
    closeIteration = (it, how, arg) => {
      countForceCall();
      if (it.#rec.open && !it.#log.ended) it.#log.end(how);
      if (how === 'throw') return it.#real.throw!(arg);
      let r: IteratorResult<unknown>;
      try {
        r = it.#real.return!(arg);
      } catch (err) {
        noteFailure(it.#rec, err);
        throw err;
      }
      // The source's fault, as a next() answering no object is: not the function's, whose closing would throw the TypeError.
      if (it.#rec.open && !isIteratorResult(r)) throw it.#rec.pullFailed(notAClosingResult(r, it.#of.path, it.#log.iteration));
      return r;
    };
  }
}

// Not `return` and `throw`, which only the subclasses have, as the real iterator has them: `'return' in it` is what it is of the real one (a function may test it before closing).
refusingAssignments(RecordedIterator.prototype, ['next', Symbol.iterator]);

export class Returnable extends RecordedIterator {
  return(v?: unknown): IteratorResult<unknown> {
    return closeIteration(this, 'return', v);
  }
}

export class Throwable extends RecordedIterator {
  throw(e?: unknown): IteratorResult<unknown> {
    return closeIteration(this, 'throw', e);
  }
}

export class Closable extends Returnable {
  throw(e?: unknown): IteratorResult<unknown> {
    return closeIteration(this, 'throw', e);
  }
}
refusingAssignments(Returnable.prototype, ['return']);
refusingAssignments(Throwable.prototype, ['throw']);
refusingAssignments(Closable.prototype, ['throw']);

/**
 * What a consumer does to one iteration: pull `pulls` times, then end so. Element `k` is walked
 * under `heads[k]` where that is forced (a demand's), else under `head`.
 */
export interface Plan {
  readonly pulls: number;
  /** For an async iteration, how many `next()` calls to have pending at once (default 1). */
  readonly ahead?: number;
  readonly then: 'open' | 'done' | 'return' | 'throw';
  readonly head: Guide;
  readonly heads?: readonly Demand[];
  /**
   * For a random consumer: an element that is an iterable itself is consumed by one too (see
   * {@link RandomConsumer}); under `ALL` (pulling to the end), an element is forced as a random
   * context normalizing forces one, within the consumer's allowance (an element may never end).
   */
  readonly random?: RandomConsumer;
}

/**
 * How many of `n` more pulls, after `k`, `plan` may make: all of them, but for a random consumer
 * no more than its allowance left, which they take; its first pull always (a consumer begun once
 * the allowance is spent, an iterable's last element, is not left `taken`, which no consumer does).
 */
export function allowedPulls(plan: Plan, n: number, k: number): number {
  const { random } = plan;
  if (random === undefined) return n;
  const m = Math.min(n, Math.max(random.pulls, k === 0 ? 1 : 0));
  random.pulls = Math.max(0, random.pulls - m);
  return m;
}

/**
 * Consumes iterable `value` as a walk under `guide` would (see `record`), recording at `at` of
 * `into`: `whnf` pulls once, `normalize` to the end (stopped by the force budget if there is
 * none), a demand as far as it says, and past the end of the value no further where `fit`, else
 * with an error. `false` where the guide reads only what is evaluated already.
 */
export function consumeIterable(value: unknown, shape: Shape<unknown>, elem: Shape<unknown>, path: Path, guide: Guide, into: object, at: number, fit: boolean): boolean {
  if (guide === EVALUATED || guide === VALUE_FORM) return false;
  if (guide === NONE) return true;
  if (!isIterable(value)) shape.project(value, path); // throws the mismatch
  const iterable = value as Iterable<unknown>;
  const owner = new IterableRecord(into, at, shape);
  if (guide === WHNF || guide === ALL) {
    consumeIteration(iterable, owner, elem, path, 0, guide === WHNF ? { pulls: 1, then: 'open', head: WHNF } : { pulls: Infinity, then: 'done', head: ALL }, true);
    return true;
  }
  const d = guide as Demand;
  if (!d.forced) return true;
  const each = d.ctor.name === 'Iterations' ? Array.from({ length: d.arity }, (_, i) => d.field(i)) : [d];
  each.forEach((one, i) => {
    if (one.forced) consumeIteration(iterable, owner, elem, path, i, planOf(one), fit);
  });
  return true;
}

/** The plan that follows the demand of one iteration. */
export function planOf(d: Forced): Plan {
  const heads: Demand[] = [];
  const ahead = d.ctor === AHEAD_CTOR ? (d.field(0) as Forced).value as number : 1;
  let x: Demand = ahead > 1 ? d.field(1) : d;
  for (; x.forced && x.ctor.style === 'cons'; x = x.field(1)) heads.push(x.field(0));
  const then = !x.forced || isTaken(x) ? 'open' : x.ctor === END_CTORS.return ? 'return' : x.ctor === END_CTORS.throw ? 'throw' : 'done';
  // A head left unforced in a spec's demand is an element the consumer got all the same: its outer layer.
  return { pulls: heads.length, then, head: WHNF, heads, ahead };
}

/**
 * Consumes an iterable as a random context of size `size`: pulls up to `size` times then leaves
 * it open, or closes it (`return()`, before any pull too), throws into it, or pulls it to its end.
 * Never leaves it untouched. Elements that are iterables are consumed so too, each its own way,
 * whichever way the outer one is: all within the allowance of `consumer` (see {@link RandomConsumer}),
 * where a consumer that runs out stops pulling, then closes or leaves the iteration as it would have.
 */
export function consumeRandomly(value: unknown, shape: Shape<unknown>, elem: Shape<unknown>, path: Path, consumer: RandomConsumer, into: object, at: number): void {
  if (!isIterable(value)) shape.project(value, path); // throws the mismatch
  consumeIteration(value as Iterable<unknown>, new IterableRecord(into, at, shape), elem, path, 0, randomPlan(consumer), true);
}

/** The plan of an iteration by the random consumer `random` (see {@link consumeRandomly}), drawn from its stream, within its allowance. */
export function randomPlan(random: RandomConsumer): Plan {
  const { r, size } = random;
  const how = r.int(0, 3);
  const k = r.int(how === 0 ? 1 : 0, Math.max(1, size));
  return how === 3 ? { pulls: Infinity, then: 'done', head: ALL, random } : { pulls: k, then: how === 0 ? 'open' : how === 1 ? 'return' : 'throw', head: WHNF, random };
}

function misfit(path: Path, what: string): Error {
  return new Error(`toContext: the demand does not fit the iterable at ${showPath(path)}: the demand ${what}`);
}

/**
 * @internal An input's iteration threw `err` from a pull or its `return`: a generated source's
 * failure is the input's ⊥ there, which the function may pass on (see `input-failures.ts`); an
 * error thrown into it (`throw()`) is not, nor one the source did not make.
 */
export function noteFailure(rec: Recording, err: unknown): void {
  if (rec.open && isSourceFailure(err)) rec.failures?.add(err);
}

/** @internal A pull of the result threw `err`: an input's failure passed on ends the iteration (`⊥`); any other error is the function's. */
export function passedOn(log: IterationLog, err: unknown): void {
  log.end('threw');
  closedThrowing(err);
}

/**
 * @internal The consumer's `return()` threw `err`: an input's failure passed on (its `return`
 * threw, which TC39's closing passes on) ends nothing more; any other error is the function's.
 */
export function closedThrowing(err: unknown): void {
  if (!isInputFailure(err)) throw err;
}

/**
 * @internal A consumer's `throw()` into `it`, if it has one. An error it throws back is the
 * exception the consumer asked for, the outcome of its throw, where it is the error thrown in
 * passed back, the TypeError of a `yield*` over an iterator without `throw` (the protocol's rule),
 * or an input's failure (a source's from its `return`). Any other is the function's, as a throw
 * out of `next()` is: a generator's throw() runs its code (a `catch` or a `finally` that throws),
 * and a hand-written `throw` that crashes is the function's crash. A budget spent or a recording
 * broken meanwhile the observation keeps, and reports all the same.
 */
function throwInto(it: Iterator<unknown>): void {
  try {
    it.throw?.(CONSUMER_THROW);
  } catch (err) {
    thrownBack(err);
  }
}

/**
 * @internal `return()` on `it` (iteration `iteration` at `path`), if it has one, as a consumer
 * closes it: a `return` that throws is a source's failure passed on, or the function's (see
 * {@link closedThrowing}); one that answers no object is refused, as JavaScript's closing (a
 * `break` out of a `for…of`) throws a TypeError there, which a consumer that never closed would not see.
 */
export function returnFrom(it: Iterator<unknown>, path: Path, iteration: number): void {
  let r: unknown;
  try {
    if (it.return === undefined || it.return === null) return;
    r = it.return();
  } catch (err) {
    return closedThrowing(err);
  }
  if (!isIteratorResult(r)) throw notAClosingResult(r, path, iteration);
}

/** @internal {@link returnFrom} an async iterator (its promise rejecting, or its `return` throwing), in `work`. */
export async function returnFromAsync(it: AsyncIterator<unknown>, work: AsyncWork, path: Path, iteration: number): Promise<void> {
  let r: unknown;
  try {
    if (it.return === undefined || it.return === null) return;
    r = await it.return();
  } catch (err) {
    return withAsyncWork(work, () => closedThrowing(err));
  }
  if (!isIteratorResult(r)) throw notAClosingResult(r, path, iteration);
}

/** @internal The refusal of `r`, what `return()` on iteration `iteration` at `path` answered, which is not an object: what JavaScript's closing of an iterator throws there. */
export function notAClosingResult(r: unknown, path: Path, iteration: number): ShapeMismatchError {
  return new ShapeMismatchError(showPath(child(iterationPath(path, iteration), 'return')), 'an iterator result (an object { done, value }) from return()', r, `${describeValue(r)}: return() must answer an object, even where it ends nothing (JavaScript throws ${notAnObject(r)} when a for…of is left by break)`);
}

/** @internal {@link throwInto} an async iterator (its promise rejecting, or its `throw` throwing), in `work`. */
export async function throwIntoAsync(it: AsyncIterator<unknown>, work: AsyncWork): Promise<void> {
  try {
    await it.throw?.(CONSUMER_THROW);
  } catch (err) {
    withAsyncWork(work, () => thrownBack(err));
  }
}

/** What a consumer's `throw()` threw back, `err`: the function's error, thrown, unless it is the outcome the consumer asked for (see {@link throwInto}). */
function thrownBack(err: unknown): void {
  if (err !== CONSUMER_THROW && !isNoThrowMethodError(err)) closedThrowing(err);
}

/** The message of the TypeError that a `yield*` throws where the iterator it delegates to has no `throw`, as this engine writes it; found once, by making one. */
let noThrowMethod: string | undefined;

/** Whether `err` is the TypeError of a `yield*` whose delegate has no `throw` (ECMA-262, yield*, step 7.b.iii), sync or async. */
function isNoThrowMethodError(err: unknown): boolean {
  if (!isInstance(err, TypeError)) return false;
  if (noThrowMethod === undefined) {
    const delegating = (function* () {
      yield* { [Symbol.iterator]: () => ({ next: () => ({ done: false, value: undefined }) }) };
    })();
    delegating.next();
    try {
      delegating.throw(undefined);
    } catch (e) {
      noThrowMethod = (e as TypeError).message;
    }
  }
  return (err as TypeError).message === noThrowMethod;
}

/**
 * @internal Records pull `k` of a consumer following `plan`, answered `r`: its element, walked
 * as the plan says (with `fit`, as far as it fits the plan's demand on it: a case run again to
 * shrink or report it may yield other elements), or the end. Whether the iteration stops there
 * (it ended, or answered past the plan's pulls, which is a misfit unless `fit`).
 */
export function answered(log: IterationLog, r: IteratorResult<unknown>, k: number, plan: Plan, elem: Shape<unknown>, path: Path, fit: boolean): boolean {
  if (!isIteratorResult(r)) throw notAnIteratorResult(r, elementPath(path, log.iteration, k));
  if (r.done) {
    log.end('done');
    if (k < plan.pulls && !fit) throw misfit(path, `pulls ${plan.pulls} times, the iterable ended after ${k}`);
    return true;
  }
  const x = r.value;
  // An element is recorded at a lazy position, as a list's head (in value form, a Lazy); a primitive, the common case, without the generic walk.
  if (primitiveElement(x, elem)) log.pulledPrimitive(x);
  else {
    const at = log.pulled();
    const { random } = plan;
    const given = plan.heads?.[k];
    // An element a demand leaves `_` the consumer got all the same (its outer layer, see planOf), but an iterable's outer layer would be a pull it never made.
    // (Decided here, not in planOf: there, the observation of a 10^5-element source took a tenth longer, as V8 compiled this function otherwise.)
    const head = k >= plan.pulls ? WHNF : given?.forced ? given : given !== undefined && elem.protocol !== undefined ? NONE : plan.head;
    const where = elementPath(path, log.iteration, k);
    if (random !== undefined && elem.protocol !== undefined) elem.protocol.consumeRandomly(x, where, random, log.first, at);
    // A random consumer pulling to the end forces each element as a random context normalizing does: bounded, within its allowance.
    else if (random !== undefined && head === ALL) normalizeUpTo(random, RecordSite.root(now(x), headShape(elem), where, log.first as unknown as Forced, at), random);
    else record(now(x), headShape(elem), where, head, log.first as unknown as Forced, at, fit);
  }
  if (k < plan.pulls) return false;
  if (!fit) throw misfit(path, `ends after ${plan.pulls} pulls, the iterable answered a value`);
  return true;
}

/** Runs one iteration of `iterable` by `plan`, recording it; stops early at its end. */
function consumeIteration(iterable: Iterable<unknown>, owner: IterableRecord, elem: Shape<unknown>, path: Path, iteration: number, plan: Plan, fit: boolean): void {
  const it = iteratorOf<Iterator<unknown>>(iterable, Symbol.iterator, path, iteration);
  const log = iterationTaken(owner, iteration);
  const { pulls } = plan;
  const toEnd = plan.then === 'done';
  for (let k = 0; (k < pulls || toEnd) && allowedPulls(plan, 1, k) === 1; k++) {
    countForceCall(); // a pull counts against the force budget as a force does
    let r: IteratorResult<unknown>;
    try {
      r = it.next();
    } catch (err) {
      return passedOn(log, err);
    }
    if (answered(log, r, k, plan, elem, path, fit)) return;
  }
  if (plan.then === 'return' && typeof it.return === 'function') {
    log.end('return');
    returnFrom(it, path, iteration);
  } else if (plan.then === 'throw' && typeof it.throw === 'function') {
    log.end('throw');
    throwInto(it);
  }
}
