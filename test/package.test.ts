/**
 * What users get: the package is packed (`npm pack`, which builds it, unless `dist/` is a build of the sources as they are), installed from its tarball
 * in a fresh project of its own beside the test runners a user has, and used there as a user
 * would, from plain `node`, CommonJS, node:test with and without tsx, vitest, jest and `tsc`.
 * The project is `test/fixtures/consumer/`, copied to a temporary folder; its `commonjs/` folder is a
 * CommonJS package of its own (`"type": "commonjs"`, as `npm init` writes it).
 * @module
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtFromSources } from '../scripts/dist-fresh.ts';
import { runnerReport } from './fixtures/runner-report.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const installed = (name: string): string => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
/**
 * What the consumer installs with the package, at the versions this repository locks (so that `npm ci`
 * has cached them): fast-check, its peer dependency, and @fast-check/vitest, which imports it, so that
 * npm installs one copy for both, as a user's install does.
 */
const INSTALLED = ['fast-check', '@fast-check/vitest'].map((t) => `${t}@${installed(t)}`);
/**
 * The runners and types the consumer has beside them, linked to this repository's: they load the
 * user's files, and through them strictcheck and fast-check, from the consumer's `node_modules`, as
 * runners a user installs do. Installed by npm, their 220 packages took 11 s of CPU of this file's 55.
 */
const LINKED = ['typescript', '@types/node', 'vitest', 'jest', 'tsx'];

let project = '';
let packed: string[] = [];

/** The environment of a user's shell: no test runner of ours around (node:test would not run files of a run nested in its own), no colours. */
const consumerEnv = { ...process.env, NODE_TEST_CONTEXT: undefined, NO_COLOR: '1', FORCE_COLOR: '0', CI: 'true' };

/** What a command run in the consumer project did: its exit code and all it printed. */
type Run = { status: number | null; output: string };

/** Runs `node` with `args` in the consumer project. */
function run(args: readonly string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: project, env: consumerEnv });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (output += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (output += s));
    child.on('error', (e) => resolve({ status: null, output: `${output}${e.message}` }));
    child.on('close', (status) => resolve({ status, output }));
  });
}

/**
 * vitest's and jest's test files here, each runner's run at once (a vitest run costs a second of CPU
 * before its first file, jest's more than half); {@link reportedFile} reads what each file did.
 */
const FILES = { vitest: ['vitest/take.test.ts', 'commonjs/vitest.test.ts'], jest: ['jest/take.test.mjs', 'jest/deep.test.mjs'] } as const;
/** Where each runner writes its JSON report (jest's `--json` form, which vitest's copies). */
const REPORTS = { vitest: 'vitest-report.json', jest: 'jest-report.json' } as const;
/** The `node` commands of the tests below, each a process of a user's own; the longest first, as they start in this order (see {@link runAll}). */
const COMMANDS = {
  // Both projects (this folder's and types/) in one process, which parses the files they share once: 2.5 s of CPU a second process took.
  tsc: ['node_modules/typescript/bin/tsc', '--build', '.', 'types', '--verbose', '--listFiles'],
  // Its own report as well, to tell the files apart; a timeout for a loaded machine (vitest's default is 5 s).
  vitest: ['node_modules/vitest/vitest.mjs', 'run', '--testTimeout=60000', '--reporter=default', '--reporter=json', `--outputFile.json=${REPORTS.vitest}`, ...FILES.vitest],
  // Each node --test file here holds two suites, one process for both (see nodeTestSuite).
  nodeTestCommonJs: ['--import', 'tsx', '--test', 'commonjs/take.test.ts'],
  nodeTestTsx: ['--import', 'tsx', '--test', 'node/take.test.ts'],
  jest: ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '--json', `--outputFile=${REPORTS.jest}`, 'jest/'],
  nodeTest: ['--test', 'node/take.test.mjs'],
  mjs: ['check.mjs'],
  cjs: ['check.cjs'],
};
/*
 * The checks with workers run in one worker each: what a worker loads, and how, is what they test here, not
 * how trials share out between workers (test/parallel*.test.ts); a second worker cost 0.55 s of CPU a run through tsx.
 */
/** What each command did, once it has run. */
const ran = {} as Record<keyof typeof COMMANDS, Promise<Run>>;

/**
 * How many commands run at once. One after the other, they waited on each other rather than
 * working; all at once, 12 processes and their workers beside npm test's other groups, a worker's
 * import of a TypeScript check module outlasted the 10 s a pool waits for it (at load 20-28).
 */
const AT_ONCE = 3;

/** Starts the commands, {@link AT_ONCE} at a time, in their order. */
function runAll(): void {
  const queue = Object.entries(COMMANDS) as [keyof typeof COMMANDS, string[]][];
  const done = {} as Record<keyof typeof COMMANDS, (run: Run) => void>;
  for (const [name] of queue) ran[name] = new Promise((resolve) => (done[name] = resolve));
  const runner = async (): Promise<void> => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) done[next[0]](await run(next[1]));
  };
  for (let i = 0; i < AT_ONCE; i++) void runner();
}

before(() => {
  project = mkdtempSync(join(tmpdir(), 'strictcheck-consumer-'));
  // A build of the sources as they are is not built again: it would cost as much as the type check npm test runs first.
  const args = ['pack', '--json', '--pack-destination', project, ...(builtFromSources(root) ? ['--ignore-scripts'] : [])];
  const [pack] = JSON.parse(execFileSync('npm', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  packed = pack.files.map((f: { path: string }) => f.path);
  cpSync(join(root, 'test/fixtures/consumer'), project, { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // Peers not installed for the packages named (--legacy-peer-deps): fast-check is named, and @fast-check/vitest's, vitest, is linked below.
  execFileSync('npm', ['install', '--prefer-offline', '--legacy-peer-deps', '--no-audit', '--no-fund', `./${pack.filename}`, ...INSTALLED], {
    cwd: project,
    stdio: 'ignore',
  });
  for (const tool of LINKED) {
    mkdirSync(dirname(join(project, 'node_modules', tool)), { recursive: true });
    symlinkSync(join(root, 'node_modules', tool), join(project, 'node_modules', tool), 'junction');
  }
  runAll();
});

after(() => rmSync(project, { recursive: true, force: true }));

/** A suite of one passing and one failing check ran: it failed, and showed the failing check's diagram. */
function assertOnePassOneFail({ status, output }: { status: number | null; output: string }, counts: RegExp): void {
  assert.notEqual(status, 0, output);
  assert.match(output, counts);
  assert.match(output, /Actual input demands/);
  assert.match(output, /Reproduce with the option \{ seed: 42 \}/);
}

/** How node:test counts a suite of one passing and one failing check, and how {@link reportedFile} does. */
const NODE_TEST_COUNTS = /# pass 1\n# fail 1/;
const REPORTED_COUNTS = /^1 failed \| 1 passed$/m;

/**
 * What `runner`'s run did with `file` (or with its tests in the describe `suite`), as its report
 * says: the run's exit code, how many of those tests passed and failed (/1 failed \| 1 passed/),
 * and their failures.
 */
async function reportedFile<R extends keyof typeof FILES>(runner: R, file: (typeof FILES)[R][number], suite?: string): Promise<Run> {
  const { status, output } = await ran[runner];
  const tests = runnerReport(join(project, REPORTS[runner]), output).find((r) => r.name === join(project, file))?.assertionResults.filter((t) => suite === undefined || t.ancestorTitles[0] === suite);
  assert.ok(tests?.length, `${runner} ran no ${file}${suite === undefined ? '' : ` ${suite}`}:\n${output}`);
  const count = (state: string) => tests.filter((t) => t.status === state).length;
  return { status, output: `${count('failed')} failed | ${count('passed')} passed\n${tests.flatMap((t) => t.failureMessages).join('\n')}` };
}

/** The test `name`: vitest ran `file` (or its describe `suite`), a suite of one passing and one failing check (see {@link assertOnePassOneFail}). */
function vitestTest(name: string, file: (typeof FILES)['vitest'][number], suite?: string): void {
  test(name, async () => assertOnePassOneFail(await reportedFile('vitest', file, suite), REPORTED_COUNTS));
}

/**
 * What the node --test run `command` did in its describe `suite`: the run's exit code, how many of
 * the suite's tests passed and failed (as node:test counts a file, /# pass 1\n# fail 1/), and what
 * it printed of them: TAP, node --test's output to a pipe, where a suite is `# Subtest: <name>`, its
 * tests indented below it, up to its own `ok` or `not ok` line.
 */
async function nodeTestSuite(command: keyof typeof COMMANDS, suite: string): Promise<Run> {
  const { status, output } = await ran[command];
  const part = output.split(/^# Subtest: /m).find((p) => p.startsWith(`${suite}\n`));
  assert.ok(part, `node --test ran no suite ${suite}:\n${output}`);
  const tests = part.slice(0, part.search(/^(not )?ok \d+ - /m));
  const count = (line: RegExp) => tests.match(line)?.length ?? 0;
  return { status, output: `# pass ${count(/^ {4}ok \d+ - /gm)}\n# fail ${count(/^ {4}not ok \d+ - /gm)}\n${tests}` };
}

/** The test `name`: command `command` (or its describe `suite`, see {@link nodeTestSuite}) ran a suite of one passing and one failing check, counted as `counts` says (see {@link assertOnePassOneFail}). */
function suiteTest(name: string, command: keyof typeof COMMANDS, counts: RegExp, suite?: string): void {
  test(name, async () => assertOnePassOneFail(suite === undefined ? await ran[command] : await nodeTestSuite(command, suite), counts));
}

test('the tarball holds the built JavaScript, its types, README, LICENSE, CHANGELOG and the guides that messages name, and nothing else', () => {
  for (const file of ['dist/index.js', 'dist/index.d.ts', 'dist/worker.js', 'README.md', 'LICENSE', 'CHANGELOG.md', 'package.json', 'docs/iterators.md', 'docs/parallel.md', 'docs/tutorial.md']) assert.ok(packed.includes(file), file);
  assert.deepEqual(packed.filter((f) => !/^dist\/.*\.(js|d\.ts|js\.map)$/.test(f) && !/^docs\/[a-z-]+\.md$/.test(f) && !['README.md', 'LICENSE', 'CHANGELOG.md', 'package.json'].includes(f)), []);
});

test('every package the built JavaScript imports is a declared dependency or peer dependency, and every dependency is imported', () => {
  const declared = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
  const dist = join(project, 'node_modules/strictcheck/dist');
  const imported = new Set<string>();
  for (const file of readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'))) {
    const text = readFileSync(join(dist, file), 'utf8');
    for (const m of text.matchAll(/^\s*(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]/gm)) {
      const spec = m[1] ?? m[2] ?? m[3]!;
      if (spec.startsWith('.')) continue;
      const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
      if (!spec.startsWith('node:') && !builtinModules.includes(name)) imported.add(name);
    }
  }
  assert.deepEqual([...imported].filter((name) => !declared.has(name)), [], 'imported but not declared');
  assert.deepEqual([...declared].filter((name) => !imported.has(name)), [], 'declared but not imported');
});

test('plain node runs a check from an .mjs file with no loader: a pass returns, a failure throws its diagram', async () => {
  const { status, output } = await ran.mjs;
  assert.equal(status, 0, output);
  assert.match(output, /Actual input demands/);
});

test("a stack frame of a function a thunk of the built package runs names the class Lazy, as the source's does", async () => {
  const { output } = await ran.mjs;
  assert.match(output, /^\s+at Lazy\.fails \[as f\] /m, output);
});

test('CommonJS loads the package with require', async () => {
  const { status, output } = await ran.cjs;
  assert.equal(status, 0, output);
  assert.equal(output.trim(), 'passed');
});

suiteTest('node:test runs a passing and a failing check, the failing one failing the suite with its diagram', 'nodeTest', NODE_TEST_COUNTS, 'in this thread');

suiteTest('node:test through tsx runs the same checks written in TypeScript', 'nodeTestTsx', NODE_TEST_COUNTS, 'in this thread');

vitestTest('vitest runs a passing and a failing check, the failing one failing the suite with its diagram', 'vitest/take.test.ts', 'in this thread');

test('jest, in its ES module mode as the README configures it, runs a passing and a failing check', async () => {
  assertOnePassOneFail(await reportedFile('jest', 'jest/take.test.mjs'), REPORTED_COUNTS);
});

/** The diagram of deep.mjs's failing check, with its demand 20,000 pulls deep, and its replay line. */
const DEEP_DIAGRAM = /StrictCheckFailure: Failed: the force budget ran out[^]*Actual input demands[^]*1 : 1 : 1 : … \(19986 more\)[^]*Reproduce with the option \{ seed: 1, forceBudget: 20000 \}/;

test('under vitest, a check failing with a demand 20,000 pulls deep fails its test with the diagram, and the next test runs', async () => {
  const { output } = await ran.vitest;
  assert.match(output, DEEP_DIAGRAM);
  assert.match((await reportedFile('vitest', 'vitest/take.test.ts', 'a failure 20,000 pulls deep')).output, REPORTED_COUNTS);
  assert.doesNotMatch(output, /Maximum call stack|Unhandled Errors/);
});

test('under jest, a check failing with a demand 20,000 pulls deep fails its test with the diagram, and the next test runs', async () => {
  const { output } = await ran.jest;
  assert.match(output, DEEP_DIAGRAM);
  assert.match((await reportedFile('jest', 'jest/deep.test.mjs')).output, REPORTED_COUNTS);
  assert.doesNotMatch(output, /Maximum call stack/);
});

/** What tsc printed as it built the consumer's project in folder `dir` (its files and its errors), which it built with no error. */
async function tscBuilt(dir: '.' | 'types'): Promise<string> {
  const { status, output } = await ran.tsc;
  // tsc --verbose: "Building project '<path>/tsconfig.json'...", then what that project's program printed.
  const parts = output.split(/^.*Building project '(.*)'\.\.\.$/m);
  const at = parts.indexOf(join(project, dir, 'tsconfig.json'));
  assert.ok(at > 0, `tsc built no ${dir}/tsconfig.json:\n${output}`);
  const printed = parts[at + 1]!;
  assert.doesNotMatch(printed, /error TS\d+/, output);
  assert.ok(status === 0 || /error TS\d+/.test(output), `tsc failed with no error of a project:\n${output}`);
  return printed;
}

test("tsc with strict settings and skipLibCheck off type-checks a consumer's tests with no error", async () => {
  await tscBuilt('.');
});

test("tsc with strict settings and no Node types (TypeScript 7's default `types: []`) type-checks a consumer's use of the package", async () => {
  // Nothing of strictcheck's types (a `/// <reference types="node" />`) brings in the @types/node that the other project here has.
  assert.doesNotMatch(await tscBuilt('types'), /@types[\\/]node[\\/]/);
});

suiteTest('workers run from the built package without tsx, loading a JavaScript check module', 'nodeTest', NODE_TEST_COUNTS, 'in a worker');

suiteTest('workers load a TypeScript check module through the loader of the process (node --import tsx)', 'nodeTestTsx', NODE_TEST_COUNTS, 'in a worker');

vitestTest("workers load a TypeScript check module of a vitest run, whose loader is vitest's own, through the project's tsx", 'vitest/take.test.ts', 'in a worker');

suiteTest('workers load a TypeScript check module of a CommonJS package (`"type": "commonjs"`, as npm init writes it) under node --import tsx, as CommonJS through tsx, as the main thread loads it', 'nodeTestCommonJs', NODE_TEST_COUNTS, 'its check module of this package');

suiteTest('workers load an ES module check module that a CommonJS test file imports under node --import tsx, from the copy of strictcheck it imports (the ES module one), not the CommonJS copy the test file runs', 'nodeTestCommonJs', NODE_TEST_COUNTS, 'its check module an ES module');

vitestTest("workers load a TypeScript check module of a CommonJS package in a vitest run, as an ES module through the project's tsx", 'commonjs/vitest.test.ts');

test("@fast-check/vitest's test.prop checks strictness case by case, a failure failing the suite with the diagram", async () => {
  const { status, output } = await reportedFile('vitest', 'vitest/take.test.ts', 'case by case, in test.prop');
  assert.notEqual(status, 0, output);
  assert.match(output, REPORTED_COUNTS);
  // The cause of fast-check's error, printed below it (not in the report): no other suite's check throws it.
  assert.match((await ran.vitest).output, /strictness check failed:[^]*Actual input demands/);
});
