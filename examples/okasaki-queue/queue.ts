/**
 * Persistent FIFO queues (paper, section 5): Okasaki's real-time queue built on `rot`, and the
 * naive two-list queue it improves on.
 *
 * **Okasaki's real-time queue** (Okasaki 1995) keeps a front list `f`, a back list `r` (newest
 * first) and a *schedule* `s`, a suffix of `f` not evaluated yet, with the invariant
 * `|s| = |f| - |r|` (so `|f| >= |r|`). Every operation forces one cell of the schedule; when the
 * schedule runs out (`|r|` is about to exceed `|f|`), the queue starts a new rotation
 * `f' = rot f r` and schedules all of `f'`. Because `rot` does one step of the reversal per cell,
 * every operation does a constant amount of work, in the worst case, whichever old version of the
 * queue it is applied to: the thunks of a version are shared by all versions made from it, and
 * each is evaluated once (memoised).
 *
 * The same code with `rotNaive` in place of `rot` ({@link QueueOnRotNaive}) computes exactly the
 * same queue (no functional test can tell them apart), but one operation in a while forces a
 * whole `reverse`: the bug the paper's `rot_spec` catches.
 *
 * **The naive two-list queue** ({@link NaiveQueue}) reverses the back list all at once when the
 * front runs out. That is O(1) amortised when used *ephemerally*, but the reversal is done by
 * the operation, and its result lives in the new version only: applying the same operation to
 * the same old version again redoes the reversal every time (O(n) each), so persistence breaks
 * the amortisation.
 * @module
 */
import { inspect } from 'node:util';
import { Cons, nil, type List } from '../../src/lazy/cell.ts';
import * as L from '../../src/lazy/list.ts';
import { evaluatedPart } from '../../src/demand/convert.ts';
import { prettyDemand } from '../../src/demand/print.ts';
import { rot, rotNaive } from './rot.ts';

/** The operations every queue here has. All are persistent: a queue is never changed, operations return new versions. */
export interface PersistentQueue<T> {
  /** Number of elements. */
  readonly size: number;
  /** Whether the queue is empty. */
  isEmpty(): boolean;
  /** The queue with `x` added at the back. */
  snoc(x: T): PersistentQueue<T>;
  /** The first element and the rest, or `undefined` when empty. */
  uncons(): [T, PersistentQueue<T>] | undefined;
  /** The first element; throws when empty. */
  head(): T;
  /** The queue without its first element; throws when empty. */
  tail(): PersistentQueue<T>;
  /** The elements, first to last (by repeated `uncons`: forces the rotations as the operations would). */
  toArray(): T[];
}

/** How a queue's internals print in the REPL: each list as far as it is evaluated, nothing forced. */
const show = (l: List<unknown>) => prettyDemand(evaluatedPart(l), { maxItems: 12, maxWidth: 200 });

/** A rotation: a function equal to `fs ++ reverse bs`. */
export type Rotation = <T>(fs: List<T>, bs: List<T>) => List<T>;

/**
 * What both queues share: a front list in order and a back list newest first, with their
 * lengths; `head`, `tail` and `toArray` follow from `uncons`.
 */
abstract class TwoLists<T, Q extends TwoLists<T, Q>> implements PersistentQueue<T> {
  protected constructor(
    /** The front list: the first elements, in order. */
    readonly front: List<T>,
    readonly frontLength: number,
    /** The back list: the last elements, newest first; always evaluated. */
    readonly back: List<T>,
    readonly backLength: number,
  ) {}

  abstract snoc(x: T): Q;
  abstract uncons(): [T, Q] | undefined;

  get size(): number {
    return this.frontLength + this.backLength;
  }

  isEmpty(): boolean {
    return this.size === 0;
  }

  head(): T {
    const c = this.front.force();
    if (!(c instanceof Cons)) throw new Error('head: empty queue');
    return c.head.force();
  }

  tail(): Q {
    const u = this.uncons();
    if (u === undefined) throw new Error('tail: empty queue');
    return u[1];
  }

  toArray(): T[] {
    const out: T[] = [];
    for (let u = this.uncons(); u !== undefined; u = u[1].uncons()) out.push(u[0]);
    return out;
  }
}

/**
 * Okasaki's real-time queue over a given rotation (paper: `rot`). Build one with
 * {@link Queue}`.empty()` (or {@link QueueOnRotNaive} for the broken variant).
 */
export class RealTimeQueue<T> extends TwoLists<T, RealTimeQueue<T>> {
  /** The front is lazy here: a pending rotation. */
  private constructor(
    private readonly rotation: Rotation,
    front: List<T>,
    frontLength: number,
    back: List<T>,
    backLength: number,
    /** The part of `front` not forced yet; `|schedule| = frontLength - backLength`. */
    readonly schedule: List<T>,
  ) {
    super(front, frontLength, back, backLength);
  }

  /** The empty queue rotating with `rotation` (default Okasaki's `rot`). */
  static empty<T>(rotation: Rotation = rot): RealTimeQueue<T> {
    return new RealTimeQueue<T>(rotation, nil, 0, nil, 0, nil);
  }

  /** Forces one cell of the schedule, or starts a rotation when it is used up (Okasaki's `exec`). */
  private static exec<T>(rotation: Rotation, f: List<T>, lf: number, r: List<T>, lr: number, s: List<T>): RealTimeQueue<T> {
    const c = s.force();
    if (c.tag === 'Cons') return new RealTimeQueue(rotation, f, lf, r, lr, c.tail);
    // |s| = 0 and one more element in r than the invariant allows: |r| = |f| + 1.
    const rotated = rotation(f, r);
    return new RealTimeQueue(rotation, rotated, lf + lr, nil, 0, rotated);
  }

  snoc(x: T): RealTimeQueue<T> {
    return RealTimeQueue.exec(this.rotation, this.front, this.frontLength, L.cons(x, this.back), this.backLength + 1, this.schedule);
  }

  uncons(): [T, RealTimeQueue<T>] | undefined {
    const c = this.front.force();
    if (c.tag === 'Nil') return undefined;
    return [c.head.force(), RealTimeQueue.exec(this.rotation, c.tail, this.frontLength - 1, this.back, this.backLength, this.schedule)];
  }

  [inspect.custom](): string {
    const name = this.rotation === (rot as Rotation) ? 'Queue' : 'QueueOnRotNaive';
    return `${name}(size ${this.size}) { front: ${show(this.front)}, back: ${show(this.back)}, schedule: ${show(this.schedule)} }`;
  }
}

/**
 * The naive two-list queue: front in order, back newest first; when the front runs out, the back
 * is reversed at once (the classic "batched" queue).
 */
export class NaiveQueue<T> extends TwoLists<T, NaiveQueue<T>> {

  static empty<T>(): NaiveQueue<T> {
    return new NaiveQueue<T>(nil, 0, nil, 0);
  }

  /** Keeps the front non-empty unless the queue is: reverses the whole back list, now. */
  private static check<T>(f: List<T>, lf: number, r: List<T>, lr: number): NaiveQueue<T> {
    if (lf > 0) return new NaiveQueue(f, lf, r, lr);
    const reversed = L.reverse(r);
    reversed.force(); // the whole reversal happens here, in the operation that needs it
    return new NaiveQueue(reversed, lr, nil, 0);
  }

  snoc(x: T): NaiveQueue<T> {
    return NaiveQueue.check(this.front, this.frontLength, L.cons(x, this.back), this.backLength + 1);
  }

  uncons(): [T, NaiveQueue<T>] | undefined {
    const c = this.front.force();
    if (c.tag === 'Nil') return undefined;
    return [c.head.force(), NaiveQueue.check(c.tail, this.frontLength - 1, this.back, this.backLength)];
  }

  [inspect.custom](): string {
    return `NaiveQueue(size ${this.size}) { front: ${show(this.front)}, back: ${show(this.back)} }`;
  }
}

/** A family of queues: how to make an empty one, and a name for messages. */
export interface QueueKind {
  readonly name: string;
  empty<T>(): PersistentQueue<T>;
  /** The queue of these elements, by `snoc`s from the empty queue. */
  of<T>(...xs: T[]): PersistentQueue<T>;
}

function kind(name: string, empty: <T>() => PersistentQueue<T>): QueueKind {
  return {
    name,
    empty,
    of<T>(...xs: T[]) {
      let q = empty<T>();
      for (const x of xs) q = q.snoc(x);
      return q;
    },
  };
}

/** Okasaki's real-time queue on `rot`: O(1) work per operation, worst case, even used persistently. */
export const Queue: QueueKind = kind('Okasaki queue (rot)', () => RealTimeQueue.empty(rot));

/** The same real-time queue code on `rotNaive`: the same values, but an occasional O(n) `reverse`. */
export const QueueOnRotNaive: QueueKind = kind('real-time queue on rotNaive', () => RealTimeQueue.empty(rotNaive));

/** The naive two-list queue: O(n) to uncons a version whose front has one element, every time. */
export const Naive: QueueKind = kind('naive two-list queue', () => NaiveQueue.empty());
