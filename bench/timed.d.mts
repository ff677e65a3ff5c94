/** The milliseconds `run` takes, the CPU time of all the process's threads meanwhile, and its result, which must pass; after a full collection. */
export function timed<R extends { readonly passed: boolean; readonly message: string }>(run: () => R | Promise<R>): Promise<{ ms: number; cpu: number; r: R }>;
