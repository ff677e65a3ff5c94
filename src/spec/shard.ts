/**
 * Shards: one check's trials (or an exhaustive check's cases) split over CI runners, `"i/n"`.
 * @module
 */

/** @internal A shard as a run reads it (the `shard` option, parsed once by its resolution in options.ts). */
export interface Shard {
  /** Its 0-based index. */
  readonly index: number;
  /** The number of shards. */
  readonly count: number;
}

/** @internal A run without a shard: the only part of one. */
export const WHOLE_RUN: Shard = { index: 0, count: 1 };

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
  return indicesOf(trials, shard === undefined ? WHOLE_RUN : parseShard(shard));
}

/** @internal The trial indices of `shard` of a run of `trials` trials (see {@link shardIndices}). */
export function indicesOf(trials: number, { index, count }: Shard = WHOLE_RUN): number[] {
  const out: number[] = [];
  for (let i = index; i < trials; i += count) out.push(i);
  return out;
}

/** @internal Shard `"i/n"`, parsed, or an error that says what is expected. */
export function parseShard(shard: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(shard);
  if (!m || +m[2]! < 1 || +m[1]! < 1 || +m[1]! > +m[2]!) throw new TypeError(`shard: expected "i/n" with 1 <= i <= n, got ${JSON.stringify(shard)}`);
  return { index: +m[1]! - 1, count: +m[2]! };
}

/** @internal A shard as the option writes it: `"i/n"`. */
export function showShard({ index, count }: Shard): string {
  return `${index + 1}/${count}`;
}
