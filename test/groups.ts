/**
 * The test files of `npm test`, in groups that each run in one process (`test/groups/<group>.test.ts`,
 * which npm test runs from its JavaScript copy, scripts/transpile.ts, with no tsx: through tsx, whose
 * hooks see every module a group imports, a group took 1.0-1.2 s more CPU time, side by side):
 * a process per file would load tsx and the source anew for each (about 0.7 s of CPU a file), and
 * the runs of a group reuse the workers an earlier run left idle, as a user's process does. The
 * groups are of about equal CPU time, so that `--test-concurrency` keeps both cores busy to the end.
 * `compile` is the static checks (`test/groups/compile.test.ts`), which so run beside the tests; its
 * name sorts first, as node --test starts the groups in the order of their names, and it takes long.
 * A file goes to the group that names it, else to the first with a pattern that matches it; `rest`
 * matches every file, so no test file is left out. One file alone still runs as ever (`node --import tsx --test <file>`), through tsx.
 * `npm test` runs the groups with V8's `--interrupt-budget=300000` (4.4 times its default), which
 * its workers share: V8 optimises a function once that much of its bytecode has run, and the code
 * of most tests runs too briefly to repay it, in the ~160 isolates of a run (groups and workers)
 * that each optimise anew: 4.7% less CPU time over the whole run, in two runs side by side.
 * @module
 */
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useTranspiled } from '../scripts/transpile.ts';
import { copyPath } from '../src/parallel/load-module.ts';

const GROUPS: Record<string, readonly (string | RegExp)[]> = {
  // The static checks (test/groups/compile.test.ts), beside the tests: no test file.
  compile: [],
  package: ['test/package.test.ts'],
  'parallel-runs': [
    'test/parallel.test.ts', 'test/parallel-pool.test.ts', 'test/parallel-startup.test.ts', 'test/load-module.test.ts',
    // From rest, the largest group, which starts late (groups start in the order of their names).
    'test/pool-fresh-worker.test.ts', 'test/pool-idle-timer.test.ts', 'test/pool-phase-clock.test.ts',
  ],
  'parallel-verdicts': [/^test\/parallel-/],
  'parallel-timing': ['test/parallel-async.test.ts', 'test/parallel-timeouts.test.ts'],
  'iter-exhaustive': ['test/iter-combinators-exhaustive.test.ts', 'test/iter-combinators.test.ts', 'test/iter-libraries.test.ts', 'test/async-series.test.ts'],
  iter: [/^test\/iter-/, /^examples\/iterators\//, 'test/verdict-residuals.test.ts'],
  'spec-tools': ['test/repl.test.ts', 'test/spec-language.test.ts', 'test/infer.test.ts', 'test/reference.test.ts', 'examples/exhaustive.test.ts', 'test/verdict-agreement.test.ts'],
  demand: [
    'test/budget-and-bottom.test.ts', 'test/lattice.test.ts', 'test/list.test.ts', 'test/demand.test.ts', 'test/observe-edge.test.ts',
    'test/print.test.ts', 'test/sharing.test.ts', 'test/lazy.test.ts', 'test/record.test.ts',
  ],
  workers: ['test/new-user-trial.test.ts', 'test/async-elements.test.ts', 'test/worker-limits.test.ts', 'test/unhandled-rejection.test.ts'],
  rest: [/./],
};

const root = new URL('../', import.meta.url);

/** The test files under `dir` (a path from the root ending in `/`), `depth` folders deep at most. */
function testFiles(dir: string, depth: number): string[] {
  return readdirSync(new URL(dir, root), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() && depth > 0 && e.name !== 'node_modules' ? testFiles(`${dir}${e.name}/`, depth - 1) : e.isFile() && e.name.endsWith('.test.ts') ? [`${dir}${e.name}`] : [],
  );
}

/**
 * The files of `group`. Refuses a table out of step with the files, which would leave tests
 * unrun: a group without its entry file, an entry file of no group, or a name of no test file.
 */
export function filesOf(group: string): string[] {
  const files = [...testFiles('test/', 0), ...testFiles('examples/', 1)].sort();
  const entries = testFiles('test/groups/', 0).map((f) => f.slice('test/groups/'.length, -'.test.ts'.length));
  const names = Object.keys(GROUPS);
  const unnamed = Object.values(GROUPS).flat().filter((e) => typeof e === 'string' && !files.includes(e));
  const stray = [...names.filter((g) => !entries.includes(g)), ...entries.filter((g) => !names.includes(g))];
  if (unnamed.length > 0 || stray.length > 0) throw new Error(`test/groups.ts is out of step with the files: ${[...unnamed, ...stray.map((g) => `group ${g}`)].join(', ')}`);
  const groupOf = (file: string) => names.find((g) => GROUPS[g]!.includes(file)) ?? names.find((g) => GROUPS[g]!.some((e) => e instanceof RegExp && e.test(file)));
  return files.filter((f) => groupOf(f) === group);
}

/**
 * Runs the test files of `group` in this process, one after another; a file that fails to load is
 * a failing test that names it. They run from the JavaScript copies of the repository
 * (scripts/transpile.ts), made up to date first, as do the workers they start: through tsx, the
 * groups took 9% more CPU time (the demand group 23.2 s where it takes 21.0).
 */
export async function runGroup(group: string): Promise<void> {
  const copies = await useTranspiled();
  for (const file of filesOf(group)) {
    await import(copyPath(file, copies).href).catch((err: unknown) => test(`${file} loads`, () => assert.fail(err as Error)));
  }
}
