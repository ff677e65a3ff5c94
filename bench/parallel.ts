/**
 * Benchmark of parallel checking: the speed-up of 2 workers over 1 on a check whose trials cost
 * about 10 ms each, and the time to start the workers.
 * @module
 */
import { type ParallelCheckResult } from '../src/parallel/random.ts';
import { busyCheck } from '../test/fixtures/checks.ts';
import { checkSpec } from '../src/checks.ts';

/** `parallelSpeedup`: wall time with 1 worker over 2 workers (trials only, worker start excluded); `parallelStartup`: ms to start 2 workers. */
export async function benchParallel(): Promise<Record<string, number>> {
  const run = async (workers: number) => {
    const t0 = performance.now();
    const r = (await checkSpec(busyCheck, { workers, trials: 200, seed: 1 })) as ParallelCheckResult;
    if (!r.passed) throw new Error(r.message);
    return { total: performance.now() - t0, startup: r.startupMs };
  };
  await run(1); // warm up
  const one = await run(1);
  const two = await run(2);
  return {
    parallelSpeedup: (one.total - one.startup) / (two.total - two.startup),
    parallelSpeedupWithStartup: one.total / two.total,
    parallelStartup: two.startup,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchParallel());
