/**
 * Writing a file that other processes may read, or write, at the same time: npm test's groups run
 * at once, and each may refresh the copies and the caches under `.cache/`.
 * @module
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Writes `text` to `path`, its folder made if need be, whole or not at all: into `<path>.<pid>`
 * first, then renamed into place, so that a reader never sees half of it.
 */
export function writeWhole(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.${process.pid}`, text);
  renameSync(`${path}.${process.pid}`, path);
}
