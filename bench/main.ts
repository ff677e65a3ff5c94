/**
 * `npm run bench`: runs every bench module and prints their tables; with `--json`
 * (`npm run bench -- --json`) prints only one JSON object merging all modules' named figures.
 * To add a module, export from it an async function returning named figures, and list it in
 * `modules` below (wrapped in a lambda if its parameters are not {@link BenchOptions}: modules that
 * take `log` print their table through it; in `--json` mode anything a module prints with
 * `console.log` goes to standard error, so that standard output holds only the JSON object: the
 * module's process is spawned with its standard output on this process's standard error).
 *
 * Each module runs in a process of its own (this script, with `--only <name>`), which hands its
 * figures back on file descriptor 3: run in one process, a module's figures depended on the heap
 * and compiled code the modules before it left (`observeOverhead` was 2.92 and 3.02 in two runs
 * after the check and Okasaki modules, 2.62 to 2.79 in three runs on its own).
 * @module
 */
import { spawnSync } from 'node:child_process';
import { writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BenchOptions } from './util.ts';

type BenchModule = { readonly name: string; readonly run: (options: BenchOptions) => Promise<Record<string, number>> };

// Each imported by the process that runs it alone: the code and data of the others would make its collections and compiled code other than they are.
const modules: readonly BenchModule[] = [
  { name: 'check', run: async () => (await import('./check.ts')).benchCheck() },
  { name: 'okasaki', run: async () => (await import('./okasaki.ts')).benchOkasaki() },
  { name: 'observe', run: async (o) => (await import('./observe.ts')).benchObserve(o) },
  { name: 'exhaustive', run: async () => (await import('./exhaustive.ts')).benchExhaustive() },
  { name: 'parallel', run: async () => (await import('./parallel.ts')).benchParallel() },
  { name: 'iter', run: async (o) => (await import('./iter.ts')).benchIter(o) },
  { name: 'failures', run: async () => (await import('./failures.ts')).benchFailures() },
];

const json = process.argv.includes('--json');
/** Where tables are printed: standard output, or nowhere in `--json` mode. */
const log = json ? undefined : (line: string) => console.log(line);

/** Runs module `name` in this process and writes its figures, as JSON, to file descriptor 3. */
async function runOnly(name: string): Promise<void> {
  const m = modules.find((x) => x.name === name);
  if (!m) throw new Error(`bench: no module ${name} (there are ${modules.map((x) => x.name).join(', ')})`);
  writeSync(3, JSON.stringify(await m.run({ log })));
}

/**
 * Runs module `name` in a process of its own and returns its figures. The child's standard output
 * (its table) goes to this process's standard output, or in `--json` mode to its standard error (fd 2).
 */
function runApart(name: string): Record<string, number> {
  const args = [...process.execArgv, fileURLToPath(import.meta.url), '--only', name, ...(json ? ['--json'] : [])];
  const child = spawnSync(process.execPath, args, { stdio: ['ignore', json ? 2 : 'inherit', 'inherit', 'pipe'], maxBuffer: 1 << 24 });
  if (child.status !== 0) throw new Error(`bench: module ${name} failed (${child.error?.message ?? `exit status ${child.status}, signal ${child.signal}`})`);
  return JSON.parse(String(child.output[3])) as Record<string, number>;
}

async function main(): Promise<void> {
  const figures: Record<string, number> = {};
  const started = performance.now();
  for (const m of modules) {
    log?.(`\n== ${m.name} ==`);
    const t0 = performance.now();
    for (const [key, value] of Object.entries(runApart(m.name))) {
      if (key in figures) throw new Error(`bench: figure ${key} is reported by two modules`);
      figures[key] = value;
    }
    log?.(`(${m.name}: ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }
  if (json) {
    console.log(JSON.stringify(figures));
  } else {
    log?.(`\nall figures (${((performance.now() - started) / 1000).toFixed(1)} s):`);
    const width = Math.max(...Object.keys(figures).map((k) => k.length));
    for (const [key, value] of Object.entries(figures)) log?.(`  ${key.padEnd(width)}  ${value}`);
  }
}

const only = process.argv.indexOf('--only');
if (only >= 0) await runOnly(process.argv[only + 1] ?? '');
else await main();
