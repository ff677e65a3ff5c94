/**
 * The checks `npm test` runs beside the tests (test/groups/compile.test.ts): the type check, with
 * the examples' and the API reference's (`scripts/check-examples.ts`: one program, where `tsc --noEmit`
 * and `typedoc --emit none` each parsed and checked the project again), beside the test groups: run
 * before them, it left a core idle once the others ended.
 * @module
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Each static check: its name, and its command. */
export const STATIC_CHECKS: readonly (readonly [name: string, command: readonly string[]])[] = [
  ["the type check, the examples' and the API reference's (scripts/check-examples.ts)", [process.execPath, '--import', 'tsx', join(root, 'scripts/check-examples.ts')]],
];

/** Runs a command in the repository's root: its exit code (null if it did not start), and all it printed. */
export function runCheck([command, ...args]: readonly string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command!, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (output += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (output += s));
    child.on('error', (e) => resolve({ code: null, output: `${output}${e.message}\n` }));
    child.on('close', (code) => resolve({ code, output }));
  });
}
