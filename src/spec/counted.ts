/**
 * Counts as messages write them.
 * @module
 */

/** @internal `n` and the noun, plural unless `n` is 1: `1 trial`, `0 shrinks`. */
export const counted = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
