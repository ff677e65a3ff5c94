/**
 * `npm run bench`: runs every bench module and prints their tables; with `--json`
 * (`npm run bench -- --json`) prints only one JSON object merging all modules' named figures.
 * To add a module, export from it an async function returning named figures, and list it in
 * `modules` below (wrapped in a lambda if its parameters are not {@link BenchOptions}: modules that
 * take `log` print their table through it; in `--json` mode anything a module prints with
 * `console.log` goes to standard error, so that standard output holds only the JSON object).
 * @module
 */
import { benchObserve } from './observe.ts';
import { benchCheck } from './check.ts';
import { benchOkasaki } from './okasaki.ts';
import { benchExhaustive } from './exhaustive.ts';
import { benchParallel } from './parallel.ts';
import type { BenchOptions } from './util.ts';

type BenchModule = { readonly name: string; readonly run: (options: BenchOptions) => Promise<Record<string, number>> };

const modules: readonly BenchModule[] = [
  // The check comparison first: the observe module leaves a large heap that slows what follows.
  { name: 'check', run: () => benchCheck() },
  { name: 'okasaki', run: () => benchOkasaki() },
  { name: 'observe', run: benchObserve },
  { name: 'exhaustive', run: () => benchExhaustive() },
  { name: 'parallel', run: () => benchParallel() },
];

async function main(): Promise<void> {
  const json = process.argv.includes('--json');
  const log = json ? undefined : (line: string) => console.log(line);
  const figures: Record<string, number> = {};
  const started = performance.now();
  const stdoutLog = console.log;
  for (const m of modules) {
    log?.(`\n== ${m.name} ==`);
    const t0 = performance.now();
    if (json) console.log = console.error;
    let result: Record<string, number>;
    try {
      result = await m.run({ log });
    } finally {
      console.log = stdoutLog;
    }
    for (const [key, value] of Object.entries(result)) {
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

await main();
