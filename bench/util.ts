/** Helpers shared by the bench modules. @module */

/** What every bench module accepts. */
export interface BenchOptions {
  /** Where a module prints its readable table (nothing is printed without it, as with `--json`). */
  readonly log?: ((line: string) => void) | undefined;
}

/** The median of some numbers (the mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
