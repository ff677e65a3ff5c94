/** Runs a full garbage collection when possible (outside timed regions only), so that runs start from a clean heap. */
export function collectGarbage(): void;
