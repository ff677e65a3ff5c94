// The CPU time of each thread of this process, for the parallel bench to tell what a first run with
// workers spends where: its worker threads, this thread, and V8's own (its optimising compiler's,
// which compiles hot code concurrently, and the collector's helpers). Linux only (/proc).
import { readdirSync, readFileSync } from 'node:fs';

/** Each thread's CPU time so far, in ms, by thread id; undefined where /proc cannot be read. */
export function threadTimes() {
  try {
    return new Map(
      // schedstat's first field: the ns the thread has run on a CPU.
      readdirSync('/proc/self/task').map((tid) => [Number(tid), Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6]),
    );
  } catch {
    return undefined;
  }
}

/**
 * What the threads spent between two {@link threadTimes}, in ms: those started meanwhile
 * (`started`: the workers, and any thread they started), this thread (`main`), and the others that
 * were there before (`others`: V8's compiler and collector threads, and libuv's).
 */
export function threadsSpent(before, after) {
  if (before === undefined || after === undefined) return undefined;
  const spent = { started: 0, main: 0, others: 0 };
  for (const [tid, ms] of after) {
    const was = before.get(tid);
    if (was === undefined) spent.started += ms;
    else if (tid === process.pid) spent.main += ms - was;
    else spent.others += ms - was;
  }
  return spent;
}
