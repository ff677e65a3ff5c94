/**
 * The checks `npm test` runs beside the tests (test/groups/compile.test.ts): the type check with
 * the examples' (`scripts/check-examples.ts`, one program: `tsc --noEmit` beside it parsed and
 * checked the project again) and the API reference's (`typedoc --emit none`). They are independent,
 * so they run at once, and beside the test groups: run before them, the type check, the longest,
 * left a core idle once the others ended. TypeDoc skips its own type check: its program is
 * `tsconfig.build.json`'s (`src/`, all it documents, where `tsconfig.json`'s parsed the tests too),
 * whose files the type check checks.
 * @module
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name: string, path: string) => [process.execPath, join(root, 'node_modules', name, path)];
/** Each static check: its name, and its command. */
export const STATIC_CHECKS: readonly (readonly [name: string, command: readonly string[]])[] = [
  ['the type check and the examples\' (scripts/check-examples.ts)', [process.execPath, '--import', 'tsx', join(root, 'scripts/check-examples.ts')]],
  ['typedoc --emit none', [...bin('typedoc', 'bin/typedoc'), '--emit', 'none', '--skipErrorChecking']],
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
