/**
 * The checks `npm test` runs before the tests: the type check (`tsc --noEmit`), the API
 * reference's (`typedoc --emit none`) and the examples' (`scripts/check-examples.ts`). They are
 * independent, so they run at once (on 2 cores, about half the time of one after the other);
 * each one's output is printed whole when it ends, and any failure fails the run.
 * TypeDoc skips its own type check: its program is `tsconfig.build.json`'s (`src/`, all it documents,
 * where `tsconfig.json`'s parsed the tests too), whose files `tsc --noEmit` checks.
 * @module
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name: string, path: string) => [process.execPath, join(root, 'node_modules', name, path)];
const checks: [name: string, command: string[]][] = [
  ['tsc --noEmit', [...bin('typescript', 'bin/tsc'), '--noEmit']],
  ['typedoc --emit none', [...bin('typedoc', 'bin/typedoc'), '--emit', 'none', '--skipErrorChecking']],
  ['scripts/check-examples.ts', [process.execPath, '--import', 'tsx', join(root, 'scripts/check-examples.ts')]],
];

const results = await Promise.all(
  checks.map(
    ([name, [command, ...args]]) =>
      new Promise<boolean>((resolve) => {
        const started = Date.now();
        const child = spawn(command!, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.setEncoding('utf8').on('data', (s: string) => (output += s));
        child.stderr.setEncoding('utf8').on('data', (s: string) => (output += s));
        child.on('error', (e) => (output += `${e.message}\n`));
        child.on('close', (code) => {
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          process.stdout.write(`${code === 0 ? 'passed' : `FAILED (exit code ${code})`}: ${name} (${seconds} s)\n${output.replace(/^(?=.)/gm, '  ')}`);
          resolve(code === 0);
        });
      }),
  ),
);
process.exitCode = results.every(Boolean) ? 0 : 1;
