/**
 * `npm run build`: `dist/` made again, its JavaScript bundled by esbuild, its declarations by tsc.
 * The bundle: importing 118 modules as tsc emits them took twice the CPU of importing the same
 * code in a few files (about 230 ms against 105 ms, load 17), which each process, each test file
 * under a runner that isolates files, and each worker pays. Code splitting gives the package's
 * entry and the worker's one copy of every module, shared: a check module imports `strictcheck` in
 * the worker too, and a second copy would have classes of its own (`instanceof`) and state of its
 * own (the registry of checks). The worker's entry is beside every file of the bundle (`dist/` has
 * no folders of JavaScript), for the pool to find it from whichever holds it (`./worker.js`).
 * Names: esbuild renames top-level names that collide across modules, and a class that names
 * itself in its body becomes `var Lazy = class _Lazy`, whose instances then print as `_Lazy`:
 * `keepNames` gives each function and class its name back (7 ms more of the import's CPU, the
 * check's speed the same within the bench's noise).
 * Declarations stay one per module, as users' types were. Arguments go to tsc: `--noCheck` skips
 * its type check (see scripts/dist-fresh.ts).
 * @module
 */
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The bundle's entry points, by the name of the file each becomes in `dist/`: the package's and its workers'. */
export const ENTRIES = { index: 'src/index.ts', worker: 'src/parallel/worker.ts' } as const;

/** Builds `dist/` under `root`, passing `tscArgs` to tsc; exits with tsc's code if it failed. */
async function buildPackage(tscArgs: readonly string[]): Promise<void> {
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: ENTRIES,
    outdir: 'dist',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'es2022', // tsconfig.json's
    packages: 'external', // fast-check and pure-rand: the user's copies, deduplicated with theirs
    sourcemap: true, // with the sources inline, as tsc's `inlineSources` gave them
    keepNames: true,
    logLevel: 'warning',
  });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const { status } = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), ...tscArgs], { stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildPackage(process.argv.slice(2));
