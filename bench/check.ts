/**
 * Benchmark of the checker: `take` against `takeSpec` (10,000 trials, default sizes), in checks
 * per second, and against a plain fast-check property testing `take` functionally with as many
 * runs, measured side by side in the same process. Prints nothing; the caller prints.
 * @module
 */
import fc from 'fast-check';
import { now } from '../src/lazy/lazy.ts';
import { fromArray, toArray } from '../src/lazy/list.ts';
import { take, takeSpec } from '../examples/take.ts';
import { median } from './util.ts';
import { checkSpec } from '../src/checks.ts';

const TRIALS = 10_000;
const RUNS = 15; // each run a tenth of a second or more: the medians of 15 are stable

/** One strict check of take against takeSpec; ms. Each run has its own seed (the same ones every time the bench runs). */
function timeStrictCheck(seed: number): number {
  const start = performance.now();
  const r = checkSpec(takeSpec, take, { trials: TRIALS, seed });
  const ms = performance.now() - start;
  if (!r.passed) throw new Error(`bench: take failed takeSpec\n${r.message}`);
  return ms;
}

/** One fast-check property testing take's values (the result is the array's prefix); ms. */
function timeFastCheck(seed: number): number {
  const start = performance.now();
  fc.assert(
    fc.property(fc.nat(30), fc.array(fc.integer(), { maxLength: 30 }), (n, xs) => {
      const got = toArray(take(now(n), fromArray(xs)));
      const want = xs.slice(0, n);
      return got.length === want.length && got.every((x, i) => x === want[i]);
    }),
    { numRuns: TRIALS, seed },
  );
  return performance.now() - start;
}

/**
 * `checksPerSecond`: trials of take against takeSpec per second (median of several runs after a
 * warm-up); `checkVsFastCheck`: how many times longer that check takes than a fast-check property
 * of take with as many runs; and the medians in milliseconds of both.
 */
export async function benchCheck(): Promise<Record<string, number>> {
  // Warm up both (JIT), with seeds not used below.
  for (let i = 0; i < 3; i++) {
    timeStrictCheck(1000 + i);
    timeFastCheck(1000 + i);
  }
  const strict: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    // Interleaved, so that both see the same state of the machine.
    strict.push(timeStrictCheck(i + 1));
    plain.push(timeFastCheck(i + 1));
    await new Promise((resolve) => setImmediate(resolve)); // let the caller's event loop breathe
  }
  const strictMs = median(strict);
  const fastCheckMs = median(plain);
  return {
    checksPerSecond: Math.round((TRIALS * 1000) / strictMs),
    checkVsFastCheck: Number((strictMs / fastCheckMs).toFixed(2)),
    strictCheckMs: Number(strictMs.toFixed(1)),
    fastCheckMs: Number(fastCheckMs.toFixed(1)),
  };
}
