/**
 * The built package (`dist/`, what `npm run build` makes and users install), for the bench modules
 * that measure what users get: built first if it is missing, or older than a source it is built from.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');

/** The modification times (ms) of the files under `dir` whose names end with `ext`. */
function times(dir: string, ext: string): number[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(ext))
    .map((f) => statSync(join(dir, f)).mtimeMs);
}

/** Whether `dist/` holds a build of the current sources: every file of it newer than every source and build setting. */
function fresh(): boolean {
  if (!existsSync(join(dist, 'index.js'))) return false;
  const sources = [...times(join(root, 'src'), '.ts'), ...['package.json', 'tsconfig.json', 'tsconfig.build.json'].map((f) => statSync(join(root, f)).mtimeMs)];
  return Math.min(...times(dist, '.js')) > Math.max(...sources);
}

/**
 * The URL of the built package's entry (`dist/index.js`), which a check module reaches as
 * `strictcheck`; runs `npm run build` first unless `dist/` is fresh (its output on standard error).
 */
export function builtPackage(): string {
  if (!fresh()) {
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 2, 2] });
    if (build.status !== 0) throw new Error(`bench: npm run build failed (${build.error?.message ?? `exit status ${build.status}`})`);
  }
  return pathToFileURL(join(dist, 'index.js')).href;
}
