/**
 * Whether `dist/` is a build of the sources as they are, for what uses the built package: the
 * package test, which then packs it without building it again, and the benches that measure it.
 * @module
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ENTRIES } from './build.ts';

/**
 * Whether `dist/` under `root` holds a build of the sources as they are (as `npm ci` and `npm install`
 * leave it): built after the last change to what it is built from, the bundle's entries (see
 * scripts/build.ts) and a declaration for each module of `src/` and no other.
 */
export function builtFromSources(root: string): boolean {
  const modules = (dir: string, ext: string) => (existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith(ext)).map((f) => f.slice(0, -ext.length)) : []);
  const sources = modules(join(root, 'src'), '.ts');
  const declared = modules(join(root, 'dist'), '.d.ts');
  if (declared.length !== sources.length || !sources.every((f) => declared.includes(f))) return false;
  const built = [...Object.keys(ENTRIES).map((f) => `${f}.js`), ...sources.map((f) => `${f}.d.ts`)].map((f) => join(root, 'dist', f));
  if (!built.every((f) => existsSync(f))) return false;
  const changed = Math.max(...['package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.ts', ...sources.map((f) => `src/${f}.ts`)].map((f) => statSync(join(root, f)).mtimeMs));
  return built.every((f) => statSync(f).mtimeMs > changed);
}

/**
 * Runs `npm run build` under `root` unless `dist/` is a build of the sources as they are (see {@link builtFromSources}), its output on standard error; rejects saying how it failed.
 * It builds without tsc's type check (`--noCheck`, the same files: 6 s of CPU where it took 13): npm test's
 * is the group `compile`'s, and the benches only run what it emits.
 */
export async function buildIfStale(root: string): Promise<void> {
  if (builtFromSources(root)) return;
  const failed = await new Promise<string | undefined>((resolve) =>
    spawn('npm', ['run', 'build', '--', '--noCheck'], { cwd: root, stdio: ['ignore', 2, 2] })
      .on('error', (err) => resolve(err.message))
      .on('close', (code) => resolve(code === 0 ? undefined : `exit code ${code}`)),
  );
  if (failed !== undefined) throw new Error(`npm run build failed (${failed})`);
}
