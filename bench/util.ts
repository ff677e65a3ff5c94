/** Helpers shared by the bench modules. @module */
import v8 from 'node:v8';
import vm from 'node:vm';

/** What every bench module accepts. */
export interface BenchOptions {
  /** Where a module prints its readable table (nothing is printed without it, as with `--json`). */
  readonly log?: ((line: string) => void) | undefined;
}

let gc: (() => void) | undefined;
try {
  // Expose V8's collector without a command-line flag, so that runs start from a clean heap.
  v8.setFlagsFromString('--expose-gc');
  gc = vm.runInNewContext('gc') as () => void;
} catch {
  gc = undefined;
}

/** Runs a full garbage collection when possible (outside timed regions only). */
export function collectGarbage(): void {
  gc?.();
}

/** The median of some numbers (the mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
