/**
 * Random streams and seeds for the generators: pure-rand's xoroshiro128+ underneath, with
 * QuickCheck's `variant` as a hash that mixes an integer into a seed (pure-rand has no `split`,
 * and jumps commute, so a hash it is: `variant(a, variant(b, s))` differs from
 * `variant(b, variant(a, s))`).
 * @module
 */
import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';

/** murmur3's 32-bit finaliser: a bijective avalanche of one word. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

/** The words {@link mixed} writes, one array for every call: a stream is perturbed at each step of a random context's walk. */
const MIXED = [0, 0, 0, 0];

/** The state `a b c d` perturbed by `n` (see {@link Seed.variant}), in {@link MIXED}, which the next call overwrites. */
function mixed(a: number, b: number, c: number, d: number, n: number): number[] {
  const k = fmix((n | 0) ^ 0x9e3779b9);
  a = fmix(a ^ k);
  b = fmix(b ^ a ^ 0x85ebca6b);
  c = fmix(c ^ b ^ k);
  d = fmix(d ^ c ^ 0xc2b2ae35);
  // xoroshiro's state must not be all zero.
  const all0 = (a | b | c | d) === 0;
  MIXED[0] = all0 ? 1 : a;
  MIXED[1] = b;
  MIXED[2] = c;
  MIXED[3] = d;
  return MIXED;
}

/** An immutable seed: the 128-bit state of a generator. */
export class Seed {
  constructor(
    /** Word 1 of the xoroshiro128+ state (32 bits, in pure-rand's `getState` order). */
    readonly a: number,
    /** Word 2 of the xoroshiro128+ state. */
    readonly b: number,
    /** Word 3 of the xoroshiro128+ state. */
    readonly c: number,
    /** Word 4 of the xoroshiro128+ state. */
    readonly d: number,
  ) {}

  /**
   * A seed made from an integer, for the generators (`arbitrary`, `randomFunction`,
   * `randomContext`): nearby integers give unrelated seeds.
   */
  static of(n: number): Seed {
    // pure-rand seeds xoroshiro128+ with the state [-1, ~n, n, 0], whose first outputs follow n
    // (the first is ~n: the first coin was n's parity); variant mixes n into every word.
    return Seed.ofRun(n).variant(n);
  }

  /**
   * @internal The seed of the checker's run with integer seed `n`, from which trial `i` takes
   * `variant(i)` (which mixes): pure-rand's generator seeded with `n`, kept as it was so that a
   * seed reproduces the runs it gave before.
   */
  static ofRun(n: number): Seed {
    // pure-rand reads only the low 32 bits of its seed (7 and 7 + 2^32 gave the same run): the
    // high part is mixed into the state's first word, which pure-rand sets to -1. `hi` is 0 for a
    // signed 32-bit seed, whose run stays as it was; fmix is a bijection, so distinct safe
    // integers (distinct `lo` and `hi`) give distinct seeds.
    const lo = n | 0;
    const hi = (n - lo) / 2 ** 32;
    const s = Seed.fromRng(xoroshiro128plus(lo));
    return new Seed(s.a ^ fmix(hi), s.b, s.c, s.d);
  }

  /** @internal */
  static fromRng(rng: RandomGenerator): Seed {
    const [a, b, c, d] = rng.getState() as [number, number, number, number];
    return new Seed(a, b, c, d);
  }

  /**
   * This seed perturbed by `n` (QuickCheck's `variant`): each word is mixed with `n` and with
   * the words before it, so perturbations do not commute and nearby integers give unrelated seeds.
   */
  variant(n: number): Seed {
    const w = mixed(this.a, this.b, this.c, this.d, n);
    return new Seed(w[0]!, w[1]!, w[2]!, w[3]!);
  }

  /** `variant(n).stream()`, without the seed and the array of its words made between (a check's every trial asks it). */
  variantStream(n: number): Random {
    return new Random(xoroshiro128plusFromState(mixed(this.a, this.b, this.c, this.d, n)));
  }

  /** A fresh random stream starting from this seed. */
  stream(): Random {
    return new Random(xoroshiro128plusFromState([this.a, this.b, this.c, this.d]));
  }
}

/** A mutable random stream: each draw advances it. */
export class Random {
  constructor(
    /** The pure-rand generator that each draw advances (replaced by {@link perturb}). */
    public rng: RandomGenerator,
  ) {}

  /** A uniform integer in `[lo, hi]`. */
  int(lo: number, hi: number): number {
    const range = hi - lo + 1;
    if (!(range >= 1 && range <= 0x100000000)) return uniformInt(this.rng, lo, hi);
    // pure-rand's uniformInt, its draws the same, the remainder taken by a division: its `%` of a
    // double (a draw moved to [0, 2^32)) is a call into the runtime. The quotient's floor is exact:
    // its rounding error (under 2^-21 / range) is less than its distance to the next integer (1 / range).
    const most = range > 2 ? Math.floor(0x100000000 / range) * range : 0x100000000;
    let d = this.rng.next() + 0x80000000;
    while (d >= most) d = this.rng.next() + 0x80000000;
    return d - Math.floor(d / range) * range + lo;
  }

  /** A fair coin. */
  bool(): boolean {
    return (this.rng.next() & 1) === 1;
  }

  /** A uniform choice from a non-empty array. */
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(0, xs.length - 1)]!;
  }

  /**
   * Perturbs this stream in place by `n` (`variant` on its current state): what it draws next
   * depends on `n`, without allocating a new stream.
   */
  perturb(n: number): this {
    const [a, b, c, d] = this.rng.getState() as [number, number, number, number];
    // No seed made on the way: the generator reads the words and keeps none of the array.
    this.rng = xoroshiro128plusFromState(mixed(a, b, c, d, n));
    return this;
  }

  /** A new independent seed drawn from this stream (the role of QuickCheck's `split`). */
  split(): Seed {
    return new Seed(this.rng.next(), this.rng.next(), this.rng.next(), this.rng.next() | 1);
  }
}

/** A generator: a value from a random stream and a size (QuickCheck's `Gen`). */
export type Gen<T> = (random: Random, size: number) => T;

/** A hash of a primitive for `variant`: numbers by value, strings and bigints by content. */
export function hashPrimitive(v: unknown): number {
  switch (typeof v) {
    case 'number':
      return Number.isInteger(v) && Math.abs(v) < 2 ** 31 ? v | 0 : hashString(String(v));
    case 'boolean':
      return v ? 1 : 0;
    case 'string':
      return hashString(v);
    case 'bigint':
      return hashString(v.toString());
    default:
      return 0;
  }
}

function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return fmix(h);
}
