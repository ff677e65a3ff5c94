/**
 * Benchmark of the checker: `take` against `takeSpec` (10,000 trials, default sizes), in checks
 * per second, and against a plain fast-check property testing `take` functionally with as many
 * runs, measured side by side in the same process. Both run as their users get them: fast-check
 * from its package, strictcheck from the built one (`dist/`, see `built-package.ts`), with `take`
 * and its spec in plain JavaScript (`parallel-checks.mjs`). Prints nothing; the caller prints.
 * @module
 */
import fc from 'fast-check';
import type * as Strictcheck from '../src/index.ts';
import type { Lazy, LazyList, Spec } from '../src/index.ts';
import { builtPackage } from './built-package.ts';
import { median } from './util.ts';

const TRIALS = 10_000;
const RUNS = 15; // each run a tenth of a second or more: the medians of 15 are stable

type Take = (n: Lazy<number>, xs: LazyList<number>) => LazyList<number>;
/** The built package, and take and its spec over it. */
interface Under {
  readonly sc: typeof Strictcheck;
  readonly take: Take;
  readonly takeSpec: Spec<[Lazy<number>, LazyList<number>], LazyList<number>>;
}

/** One strict check of take against takeSpec; ms. Each run has its own seed (the same ones every time the bench runs). */
function timeStrictCheck({ sc: { checkSpec }, take, takeSpec }: Under, seed: number): number {
  const start = performance.now();
  const r = checkSpec(takeSpec, take, { trials: TRIALS, seed });
  const ms = performance.now() - start;
  if (!r.passed) throw new Error(`bench: take failed takeSpec\n${r.message}`);
  return ms;
}

/** One fast-check property testing take's values (the result is the array's prefix); ms. */
function timeFastCheck({ sc: { now, fromArray, toArray }, take }: Under, seed: number): number {
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
  const sc = (await import(await builtPackage())) as typeof Strictcheck;
  // A URL in a variable: the type check does not read JavaScript modules.
  const checks: string = new URL('./parallel-checks.mjs', import.meta.url).href;
  const u: Under = { sc, ...((await import(checks)) as Pick<Under, 'take' | 'takeSpec'>) };
  // Warm up both (JIT), with seeds not used below.
  for (let i = 0; i < 3; i++) {
    timeStrictCheck(u, 1000 + i);
    timeFastCheck(u, 1000 + i);
  }
  const strict: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    // Interleaved, so that both see the same state of the machine.
    strict.push(timeStrictCheck(u, i + 1));
    plain.push(timeFastCheck(u, i + 1));
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
