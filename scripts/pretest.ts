/**
 * What `npm test` does once before its groups, both at once: the JavaScript copies made up to date
 * (scripts/transpile.ts), and `dist/` built (`npm run build`) unless it is a build of the sources as
 * they are (scripts/dist-fresh.ts). The package test packs that build and test/parallel-loading.test.ts
 * installs it: where it was stale, each built it again (10 s and 8 s of CPU).
 * @module
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './dist-fresh.ts';
import { transpileStale } from './transpile.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = buildIfStale(root);
await transpileStale();
await built;
