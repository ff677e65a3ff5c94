/**
 * What users get: the package is packed (`npm pack`, which builds it), installed from its tarball
 * in a fresh project of its own beside the test runners a user has, and used there as a user
 * would, from plain `node`, CommonJS, node:test with and without tsx, vitest, jest and `tsc`.
 * The project is `test/fixtures/consumer/`, copied to a temporary folder.
 * @module
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
/** The tools the consumer installs beside the package, at the versions this repository locks (so that `npm ci` has cached them). */
const TOOLS = ['fast-check', 'tsx', 'typescript', '@types/node', 'vitest', 'jest', '@fast-check/vitest'];
const installed = (name: string): string => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;

let project = '';
let packed: string[] = [];

before(() => {
  project = mkdtempSync(join(tmpdir(), 'strictcheck-consumer-'));
  const [pack] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', project], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  packed = pack.files.map((f: { path: string }) => f.path);
  cpSync(join(root, 'test/fixtures/consumer'), project, { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', `./${pack.filename}`, ...TOOLS.map((t) => `${t}@${installed(t)}`)], {
    cwd: project,
    stdio: 'ignore',
  });
});

after(() => rmSync(project, { recursive: true, force: true }));

/** The environment of a user's shell: no test runner of ours around (node:test would not run files of a run nested in its own), no colours. */
const consumerEnv = { ...process.env, NODE_TEST_CONTEXT: undefined, NO_COLOR: '1', FORCE_COLOR: '0', CI: 'true' };

/** Runs a command in the consumer project: its exit code and all it printed. */
function run(command: string, args: readonly string[]): { status: number | null; output: string } {
  const r = spawnSync(command, args, { cwd: project, encoding: 'utf8', env: consumerEnv });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/** A suite of one passing and one failing check ran: it failed, and showed the failing check's diagram. */
function assertOnePassOneFail({ status, output }: { status: number | null; output: string }, counts: RegExp): void {
  assert.notEqual(status, 0, output);
  assert.match(output, counts);
  assert.match(output, /Actual input demands/);
  assert.match(output, /Reproduce with the option \{ seed: 42 \}/);
}

test('the tarball holds the built JavaScript, its types, README, LICENSE and CHANGELOG, and nothing else', () => {
  for (const file of ['dist/index.js', 'dist/index.d.ts', 'dist/parallel/worker.js', 'README.md', 'LICENSE', 'CHANGELOG.md', 'package.json']) assert.ok(packed.includes(file), file);
  assert.deepEqual(packed.filter((f) => !/^dist\/.*\.(js|d\.ts|js\.map)$/.test(f) && !['README.md', 'LICENSE', 'CHANGELOG.md', 'package.json'].includes(f)), []);
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

test('plain node runs a check from an .mjs file with no loader: a pass returns, a failure throws its diagram', () => {
  const { status, output } = run(process.execPath, ['check.mjs']);
  assert.equal(status, 0, output);
  assert.match(output, /Actual input demands/);
});

test('CommonJS loads the package with require', () => {
  const { status, output } = run(process.execPath, ['check.cjs']);
  assert.equal(status, 0, output);
  assert.equal(output.trim(), 'passed');
});

test('node:test runs a passing and a failing check, the failing one failing the suite with its diagram', () => {
  assertOnePassOneFail(run(process.execPath, ['--test', 'node/take.test.mjs']), /# pass 1\n# fail 1/);
});

test('node:test through tsx runs the same checks written in TypeScript', () => {
  assertOnePassOneFail(run(process.execPath, ['--import', 'tsx', '--test', 'node/take.test.ts']), /# pass 1\n# fail 1/);
});

test('vitest runs a passing and a failing check, the failing one failing the suite with its diagram', () => {
  assertOnePassOneFail(run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'vitest/take.test.ts']), /1 failed \| 1 passed/);
});

test('jest, in its ES module mode as the README configures it, runs a passing and a failing check', () => {
  assertOnePassOneFail(run(process.execPath, ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', 'jest/']), /1 failed, 1 passed/);
});

test("tsc with strict settings and skipLibCheck off type-checks a consumer's tests with no error", () => {
  const { status, output } = run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', '.']);
  assert.equal(status, 0, output);
});

test('workers run from the built package without tsx, loading a JavaScript check module', () => {
  assertOnePassOneFail(run(process.execPath, ['--test', 'workers/take.test.mjs']), /# pass 1\n# fail 1/);
});

test('workers load a TypeScript check module through the loader of the process (node --import tsx)', () => {
  assertOnePassOneFail(run(process.execPath, ['--import', 'tsx', '--test', 'workers/take.test.ts']), /# pass 1\n# fail 1/);
});

test("workers load a TypeScript check module of a vitest run, whose loader is vitest's own, through the project's tsx", () => {
  assertOnePassOneFail(run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'vitest/workers.test.ts']), /1 failed \| 1 passed/);
});

test("@fast-check/vitest's test.prop checks strictness case by case, a failure failing the suite with the diagram", () => {
  const { status, output } = run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'vitest/property.test.ts']);
  assert.notEqual(status, 0, output);
  assert.match(output, /1 failed \| 1 passed/);
  assert.match(output, /strictness check failed:[^]*Actual input demands/);
});
