/** Each thread's CPU time so far, in ms, by thread id; undefined where /proc cannot be read. */
export function threadTimes(): Map<number, number> | undefined;
/** What the threads spent between two {@link threadTimes}, in ms: those started meanwhile, this thread, and the others. */
export function threadsSpent(before: Map<number, number> | undefined, after: Map<number, number> | undefined): { started: number; main: number; others: number } | undefined;
