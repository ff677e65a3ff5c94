/**
 * The built package (`dist/`, what `npm run build` makes and users install), for the bench modules
 * that measure what users get: built first unless it is a build of the sources as they are.
 * @module
 */
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildIfStale } from '../scripts/dist-fresh.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');

/**
 * The URL of the built package's entry (`dist/index.js`), which a check module reaches as
 * `strictcheck`; runs `npm run build` first unless `dist/` is a build of the sources as they are
 * (its output on standard error).
 */
export async function builtPackage(): Promise<string> {
  await buildIfStale(root);
  return pathToFileURL(join(dist, 'index.js')).href;
}
