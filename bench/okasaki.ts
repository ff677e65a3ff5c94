/**
 * Benchmark of Okasaki's queue used persistently (paper, section 5; examples/okasaki-queue/).
 *
 * Workload, 15,000 operations on each queue:
 * 1. 5,000 `snoc`s, each on the newest version, from the empty queue, giving a version `q`;
 * 2. 5,000 times, on that SAME version `q`: `uncons`, then `head` of the queue it returns.
 * Step 2 is the persistent use that breaks the amortised bound of the naive two-list queue:
 * `q` has one element in front and 4,999 behind, so each `uncons` of `q` reverses the back list
 * again (the reversal lives in the new version only). Okasaki's real-time queue does at most a
 * constant amount of work per operation, whatever version it is given.
 *
 * Work is counted in steps: calls of `force()`, evaluated or not, i.e. looks at lazy cells and
 * elements (see examples/okasaki-queue/cost.ts; `forceCount()` alone would see the naive reversal
 * as one evaluation). Time is measured separately, without the counting.
 * @module
 */
import { Naive, Queue, type QueueKind } from '../examples/okasaki-queue/queue.ts';
import { measure } from '../examples/okasaki-queue/cost.ts';

const SNOCS = 5_000;
const REUSES = 5_000;

/** Runs the workload; `wrap` runs each operation (to count it, or not). */
function workload(K: QueueKind, wrap: (op: () => unknown) => number): { total: number; max: number } {
  let total = 0;
  let max = 0;
  const add = (c: number) => {
    total += c;
    max = Math.max(max, c);
  };
  let q = K.empty<number>();
  for (let i = 0; i < SNOCS; i++) {
    let next = q;
    add(wrap(() => (next = q.snoc(i))));
    q = next;
  }
  const version = q;
  for (let i = 0; i < REUSES; i++) {
    let rest = version;
    add(wrap(() => (rest = version.uncons()![1])));
    add(wrap(() => rest.head()));
  }
  return { total, max };
}

const countSteps = (op: () => unknown) => measure(op)[1].steps;
const noCount = (op: () => unknown) => {
  op();
  return 0;
};

function timeOf(K: QueueKind): number {
  workload(K, noCount); // warm up
  const t0 = performance.now();
  workload(K, noCount);
  return performance.now() - t0;
}

/**
 * `okasakiPersistentRatio`: steps of the naive queue over steps of Okasaki's queue on the
 * persistent workload above (15,000 operations each); also the time ratio, and the mean and largest
 * steps of one operation for each queue.
 */
export async function benchOkasaki(): Promise<Record<string, number>> {
  const okasaki = workload(Queue, countSteps);
  const naive = workload(Naive, countSteps);
  const ops = SNOCS + 2 * REUSES;
  const okasakiMs = timeOf(Queue);
  const naiveMs = timeOf(Naive);
  return {
    okasakiPersistentRatio: naive.total / okasaki.total,
    okasakiPersistentTimeRatio: naiveMs / okasakiMs,
    okasakiStepsPerOp: okasaki.total / ops,
    okasakiMaxStepsPerOp: okasaki.max,
    naiveQueueStepsPerOp: naive.total / ops,
    naiveQueueMaxStepsPerOp: naive.max,
  };
}

if (process.argv[1] && import.meta.url === `file://${process.argv[1]}`) console.log(await benchOkasaki());
