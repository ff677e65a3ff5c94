/**
 * The asynchronous work of one observation of an async function (see `observeDetailedAsync`): the
 * consumptions of its async iterables that the observation awaits before it ends, and the pulls
 * counted against its budget, which the force budget cannot count once an `await` has left it.
 * Protocols of async shapes (`src/iter`) find the work of the observation that runs them with
 * {@link currentAsyncWork} while it runs synchronously, and keep it.
 * @module
 */
import { ForceBudgetExceeded } from '../lazy/lazy.ts';
import { withInputFailures, type InputFailures } from './input-failures.ts';

/** The work of one asynchronous observation. */
export class AsyncWork {
  private pulls = 0;
  private readonly pending: Promise<unknown>[] = [];
  /** The budget's error, once it ran out: the observation reports it even if the function caught it. */
  exceeded: ForceBudgetExceeded | undefined;

  constructor(
    /** Most pulls of async iterables the observation may make before it counts as diverging. */
    readonly budget: number,
    /** The failures its inputs raised: known to the walks that run in its work (see {@link withAsyncWork}). */
    readonly failures?: InputFailures,
  ) {}

  /** Counts one pull, throwing {@link ForceBudgetExceeded} once the budget is spent. */
  pull(): void {
    if (++this.pulls > this.budget) throw (this.exceeded ??= new ForceBudgetExceeded(this.budget));
  }

  /**
   * Pulls of generated sources (whose answers come within a few turns) made and not yet settled:
   * the observation waits for them too, so that a pull the function made and never awaited has
   * answered (and, if it rejected, been reported unhandled) before it ends.
   */
  unsettled = 0;

  /** Work the observation must await before it ends. */
  add(p: Promise<unknown>): void {
    p.catch(() => {}); // awaited by settle: not an unhandled rejection meanwhile
    this.pending.push(p);
  }

  /**
   * Awaits every piece of work added, those added meanwhile too, and the {@link unsettled} pulls,
   * then lets the function's own pending steps run (a macrotask later): what it does after that
   * is not observed. Rethrows the first error of a piece.
   */
  async settle(): Promise<void> {
    for (let i = 0; ; ) {
      if (i < this.pending.length) {
        await this.pending[i++];
        continue;
      }
      await new Promise((resolve) => setImmediate(resolve));
      if (i >= this.pending.length && this.unsettled === 0) break;
    }
    if (this.exceeded) throw this.exceeded;
  }
}

let current: AsyncWork | undefined;

/** The work of the asynchronous observation running now, synchronously; `undefined` in a synchronous one. */
export function currentAsyncWork(): AsyncWork | undefined {
  return current;
}

/** Runs `body` with `work` as the current asynchronous work, and its inputs' failures as those of the observation running now. */
export function withAsyncWork<R>(work: AsyncWork | undefined, body: () => R): R {
  const saved = current;
  current = work;
  try {
    return withInputFailures(work?.failures, body);
  } finally {
    current = saved;
  }
}
