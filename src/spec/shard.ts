/**
 * Shards: one check's trials (or an exhaustive check's cases) split over CI runners, `"i/n"`.
 * @module
 */

/**
 * The trial indices of shard `"i/n"` of a run of `trials` trials (all of them without a shard):
 * those ≡ i-1 (mod n). The n shards partition the trials of the run.
 *
 * @example
 * ```ts
 * shardIndices(10, '1/3'); // [0, 3, 6, 9]
 * shardIndices(10, '3/3'); // [2, 5, 8]
 * ```
 */
export function shardIndices(trials: number, shard: string | undefined): number[] {
  const { index, count } = parseShard(shard);
  const out: number[] = [];
  for (let i = index; i < trials; i += count) out.push(i);
  return out;
}

/** Shard `"i/n"` as its 0-based index and the number of shards (`0` of `1` without a shard). */
export function parseShard(shard: string | undefined): { readonly index: number; readonly count: number } {
  if (shard === undefined) return { index: 0, count: 1 };
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(shard);
  if (!m || +m[2]! < 1 || +m[1]! < 1 || +m[1]! > +m[2]!) throw new TypeError(`shard: expected "i/n" with 1 <= i <= n, got ${JSON.stringify(shard)}`);
  return { index: +m[1]! - 1, count: +m[2]! };
}
