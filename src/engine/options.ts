/**
 * Checks of option objects shared by every entry point: running through tsx checks no types, so a
 * misspelt option would otherwise be ignored without a word.
 * @module
 */

/** @internal An option's value as an error message shows it. */
export function showOption(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

/** @internal Throws a RangeError naming an option of `options` that is not one of `known`, and the known one closest to it. */
export function checkKnownOptions(options: object, known: readonly string[]): void {
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const near = known.find((k) => editDistance(k.toLowerCase(), key.toLowerCase()) <= 2);
    throw new RangeError(`unknown option ${showOption(key)}${near ? ` (did you mean ${near}?)` : ''}; the options here are ${known.join(', ')}`);
  }
}

/** Levenshtein distance, for suggesting an option name. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}
