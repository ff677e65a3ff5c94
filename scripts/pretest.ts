/**
 * What `npm test` does once before its groups, both at once: the JavaScript copies made up to date
 * (scripts/transpile.ts), and `dist/` built (`npm run build`) unless it is a build of the sources as
 * they are (scripts/dist-fresh.ts). The package test packs that build and test/parallel-loading.test.ts
 * installs it: where it was stale, each built it again (10 s and 8 s of CPU).
 * @module
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtFromSources } from './dist-fresh.ts';
import { transpileStale } from './transpile.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = builtFromSources(root)
  ? Promise.resolve(0)
  : new Promise<number | null>((resolve) => spawn('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' }).on('error', () => resolve(null)).on('close', resolve));
transpileStale();
const code = await built;
if (code !== 0) throw new Error(`npm run build failed (exit code ${code})`);
