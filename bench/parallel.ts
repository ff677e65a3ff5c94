/**
 * Benchmark of parallel checking, as users get it: the built package (`dist/`, built first if
 * stale, see `built-package.ts`) and a check module in plain JavaScript (`parallel-checks.mjs`).
 * Each figure is 2 workers against the same run in this thread:
 * - `parallelSpeedupVsSequential`: 100,000 `take` trials (microseconds each), the workers' startup
 *   excluded (runs alternate, medians of 3 each). Startup is compiling too: before the timed rounds
 *   the run in this thread runs once and the run with workers twice, so that each worker has run as
 *   many trials as this thread (after one run, a worker's next cost 1.2-1.4 times the CPU of those
 *   after the second: its code was still being optimised);
 * - `parallelSpeedupHeavy`: 300 trials of about a millisecond each, startup excluded;
 * - `exhaustiveParallelSpeedup`: `take`'s spec at depth 6, startup excluded;
 * - `parallelSpeedupWithStartup`: 100,000 `take` trials, a process's first run with workers (their
 *   start included: a fresh thread each, which loads the package and the check module, then
 *   compiles the hot code anew, as every V8 isolate does) against the run in this thread once
 *   compiled (warm: its second run); each sample a fresh `node` process (`parallel-first-run.mjs`),
 *   medians of 3;
 * - `parallelSpeedupWithStartupCold`: the same first run with workers against the process's first
 *   run in this thread (cold: it compiles too), as a user's first check in a process is;
 * - `parallelSpeedupWithStartupTypeScript`: the same with the check module in TypeScript
 *   (`parallel-checks-ts.ts`), the process under `node --import tsx`, each worker loading the
 *   module through tsx;
 * - `parallelSpeedupWithStartupBound`: the most `parallelSpeedupWithStartup` could be with the
 *   workers' start as measured: the run in this thread (warm) over that start plus half that run,
 *   as if each worker, once ready, ran its half at once and as fast as this thread does warm;
 * - `parallelColdStartup`, `parallelStartup`: milliseconds until 2 workers are ready, started
 *   (the process's first run), and pooled (a run after the first);
 * - where the first run's CPU time goes (Linux: each thread's clock), medians, in ms:
 *   `parallelFirstRunWorkersCpu`, the 2 workers' threads (their start, then their trials, compiled
 *   as they run), and `parallelFirstRunCompilerCpu`, V8's threads of the process (its optimising
 *   compiler, which compiles hot code concurrently, for each isolate anew, and the collector's helpers);
 *   and of a worker's start (`worker-start.mjs`, a fresh process each): `parallelWorkerThreadCpu`,
 *   Node's start of the thread, `parallelWorkerModulesCpu`, importing strictcheck's modules, and
 *   `parallelWorkerCheckModuleCpu`, then the check module;
 * - `parallelCpuRatio`, `exhaustiveCpuRatio`, `parallelFirstRunCpuRatio`,
 *   `parallelFirstRunColdCpuRatio`: the CPU time (all threads) of the sequential run (the cold one's,
 *   for the last) over that of the 2-worker run (the first's, for the last two), medians: below 1 by
 *   what working in workers costs more, whatever the load; on 2 idle cores the speedup would be at
 *   most twice it;
 * - `parallelCeiling`: what the machine gives two threads at the time: a fixed computation in 2
 *   worker threads at once against it twice in this thread, measured between the runs above.
 * On a machine shared with other work, the figures say as much about the load as about the
 * checker: run it several times, note the load, and read each speedup against the ceiling.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type * as Strictcheck from '../src/index.ts';
import type { DefinedCheck, Lazy, LazyList, ParallelCheckResult, ParallelExhaustiveResult } from '../src/index.ts';
import { builtPackage } from './built-package.ts';
import { timed } from './timed.mjs';
import { median } from './util.ts';

const ROUNDS = 3;
/** The checks of `parallel-checks.mjs`: `take` and its spec. */
type TakeCheck = DefinedCheck<[Lazy<number>, LazyList<number>], LazyList<number>>;
const TRIALS = 100_000;

/** Medians over rounds of the sequential and parallel runs, alternating, startup excluded (the workers are started, and have run as many cases as this thread, before the rounds). */
async function sideBySide(sequential: () => { readonly passed: boolean; readonly message: string }, parallel: () => Promise<ParallelCheckResult | ParallelExhaustiveResult>, ceilings: number[]) {
  await timed(sequential); // compiled code, first
  await timed(parallel);
  await timed(parallel); // each of the 2 workers has run the cases of one run
  const seq: number[] = [];
  const par: number[] = [];
  const cpu: number[] = [];
  const startup: number[] = [];
  for (let k = 0; k < ROUNDS; k++) {
    const s = await timed(sequential);
    seq.push(s.ms);
    const p = await timed(parallel);
    par.push(p.ms - p.r.startupMs);
    cpu.push(s.cpu / p.cpu);
    startup.push(p.r.startupMs);
    ceilings.push(await ceiling());
  }
  return { excluded: median(seq) / median(par), cpu: median(cpu), startup: median(startup) };
}

/**
 * Medians over {@link ROUNDS} fresh processes (see `parallel-first-run.mjs`), each running `take`'s
 * check of module `checks` in its thread, then with 2 workers, its first: the speedup with the
 * workers' start against the run in this thread warm (`included`) and cold (`cold`), and that
 * start. `loader`: the process's `node` options.
 */
async function firstRuns(checks: string, loader: readonly string[], ceilings: number[]): Promise<{ included: number; bound: number; cold: number; cpu: number; coldCpu: number; startup: number; workersCpu: number; compilerCpu: number }> {
  const seq: number[] = [];
  const bound: number[] = [];
  const cold: number[] = [];
  const par: number[] = [];
  const cpu: number[] = [];
  const coldCpu: number[] = [];
  const startup: number[] = [];
  const workersCpu: number[] = [];
  const compilerCpu: number[] = [];
  for (let k = 0; k < ROUNDS; k++) {
    const r = sample<{ cold: number; sequential: number; parallel: number; coldCpu: number; sequentialCpu: number; parallelCpu: number; startup: number; threads?: { started: number; others: number } }>('./parallel-first-run.mjs', checks, [String(TRIALS)], loader);
    seq.push(r.sequential);
    bound.push(r.sequential / (r.startup + r.sequential / 2));
    cold.push(r.cold);
    par.push(r.parallel);
    cpu.push(r.sequentialCpu / r.parallelCpu);
    coldCpu.push(r.coldCpu / r.parallelCpu);
    startup.push(r.startup);
    workersCpu.push(r.threads?.started ?? NaN);
    compilerCpu.push(r.threads?.others ?? NaN);
    ceilings.push(await ceiling());
  }
  return { included: median(seq) / median(par), bound: median(bound), cold: median(cold) / median(par), cpu: median(cpu), coldCpu: median(coldCpu), startup: median(startup), workersCpu: median(workersCpu), compilerCpu: median(compilerCpu) };
}

/** What the bench script `script` prints (JSON), run in a fresh `node` process (with the options `loader`) on the check module `checks` and `args`. */
function sample<T>(script: string, checks: string, args: readonly string[], loader: readonly string[] = []): T {
  const argv = [...loader, fileURLToPath(new URL(script, import.meta.url)), new URL(checks, import.meta.url).href, ...args];
  const child = spawnSync(process.execPath, argv, { cwd: fileURLToPath(new URL('..', import.meta.url)), stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`bench: ${script} on ${checks} failed (${child.error?.message ?? `exit status ${child.status}`})`);
  return JSON.parse(child.stdout) as T;
}

/** Medians over {@link ROUNDS} fresh processes (see `worker-start.mjs`) of the CPU time of a worker's start, by part. */
function workerStarts(checks: string): { thread: number; modules: number; checkModule: number } {
  const samples = Array.from({ length: ROUNDS }, () => sample<{ thread: number; modules: number; checkModule: number }>('./worker-start.mjs', checks, []));
  return { thread: median(samples.map((s) => s.thread)), modules: median(samples.map((s) => s.modules)), checkModule: median(samples.map((s) => s.checkModule)) };
}

/** The computation {@link ceiling} times, in its threads as source text. */
const SPIN = 'let x = 0; for (let i = 0; i < 2e7; i++) x = (x * 31 + i) | 0; x;';

/** Twice {@link SPIN} in this thread, over once in each of 2 worker threads at the same time (started first): the speedup the machine allows now. */
async function ceiling(): Promise<number> {
  const spin = new Function(SPIN) as () => void;
  const workers = [0, 1].map(() => new Worker(`const { parentPort } = require('node:worker_threads'); parentPort.once('message', () => { ${SPIN} parentPort.postMessage(0); });`, { eval: true }));
  await Promise.all(workers.map((w) => new Promise((r) => w.once('online', r))));
  spin();
  let t0 = performance.now();
  spin();
  spin();
  const alone = performance.now() - t0;
  t0 = performance.now();
  await Promise.all(workers.map((w) => new Promise((r) => (w.once('message', r), w.postMessage(0)))));
  const both = performance.now() - t0;
  await Promise.all(workers.map((w) => w.terminate()));
  return alone / both;
}

export async function benchParallel(): Promise<Record<string, number>> {
  const { checkSpec, checkSpecExhaustive } = (await import(await builtPackage())) as typeof Strictcheck;
  // A URL in a variable: the type check does not read JavaScript modules.
  const checks: string = new URL('./parallel-checks.mjs', import.meta.url).href;
  const { takeBenchCheck, heavyBenchCheck } = (await import(checks)) as { takeBenchCheck: TakeCheck; heavyBenchCheck: TakeCheck };
  const trials = TRIALS;
  const ceilings: number[] = [];
  const first = await firstRuns('./parallel-checks.mjs', [], ceilings);
  const firstTypeScript = await firstRuns('./parallel-checks-ts.ts', ['--import', 'tsx'], ceilings);
  const start = workerStarts('./parallel-checks.mjs');
  const take = await sideBySide(
    () => checkSpec(takeBenchCheck.spec, takeBenchCheck.fn, { trials, seed: 1 }),
    () => checkSpec(takeBenchCheck, { trials, seed: 1, workers: 2 }),
    ceilings,
  );
  const heavy = await sideBySide(
    () => checkSpec(heavyBenchCheck.spec, heavyBenchCheck.fn, { trials: 300, seed: 1 }),
    () => checkSpec(heavyBenchCheck, { trials: 300, seed: 1, workers: 2 }),
    ceilings,
  );
  const exhaustive = await sideBySide(
    () => checkSpecExhaustive(takeBenchCheck.spec, takeBenchCheck.fn, { depth: 6, progress: false }),
    () => checkSpecExhaustive(takeBenchCheck, { depth: 6, progress: false, workers: 2 }),
    ceilings,
  );
  return {
    parallelSpeedupVsSequential: take.excluded,
    parallelSpeedupHeavy: heavy.excluded,
    parallelSpeedupWithStartup: first.included,
    parallelSpeedupWithStartupBound: first.bound,
    parallelSpeedupWithStartupCold: first.cold,
    parallelSpeedupWithStartupTypeScript: firstTypeScript.included,
    exhaustiveParallelSpeedup: exhaustive.excluded,
    parallelCpuRatio: take.cpu,
    parallelFirstRunCpuRatio: first.cpu,
    parallelFirstRunColdCpuRatio: first.coldCpu,
    exhaustiveCpuRatio: exhaustive.cpu,
    parallelColdStartup: first.startup,
    parallelFirstRunWorkersCpu: first.workersCpu,
    parallelFirstRunCompilerCpu: first.compilerCpu,
    parallelWorkerThreadCpu: start.thread,
    parallelWorkerModulesCpu: start.modules,
    parallelWorkerCheckModuleCpu: start.checkModule,
    parallelStartup: take.startup,
    parallelCeiling: median(ceilings),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchParallel());
