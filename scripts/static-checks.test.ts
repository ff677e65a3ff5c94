/**
 * The checks `npm test` runs beside the test groups, as tests of their own: the type check (`tsc
 * --noEmit`), the API reference's (`typedoc --emit none`) and the examples'
 * (`scripts/check-examples.ts`). They are independent, so they run at once; each test fails with
 * its check's whole output. Run first and beside the groups, they fill the time the groups spend
 * waiting (on workers' timeouts, child processes, npm), where run before them they added theirs.
 * TypeDoc skips its own type check: its program is `tsconfig.json`'s, which `tsc --noEmit` checks.
 * @module
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name: string, path: string) => [process.execPath, join(root, 'node_modules', name, path)];
const checks: [name: string, command: string[]][] = [
  ['tsc --noEmit', [...bin('typescript', 'bin/tsc'), '--noEmit']],
  ['typedoc --emit none', [...bin('typedoc', 'bin/typedoc'), '--emit', 'none', '--skipErrorChecking']],
  ['scripts/check-examples.ts', [process.execPath, '--import', 'tsx', join(root, 'scripts/check-examples.ts')]],
];

/** Runs `command` in the repository's root: its exit code and its output (stdout and stderr, as they came). */
function run([command, ...args]: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command!, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (output += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (output += s));
    child.on('error', (e) => (output += `${e.message}\n`));
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('the static checks', { concurrency: true }, () => {
  for (const [name, command] of checks) {
    test(`${name} passes`, async () => {
      const { code, output } = await run(command);
      assert.equal(code, 0, `${name} failed (exit code ${code}):\n${output}`);
    });
  }
});
