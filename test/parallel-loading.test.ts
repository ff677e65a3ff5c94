/**
 * How workers load a check module, and what its import leaves there: the continuations of what the
 * import started are the import's, never a case's, and never keep a worker alive once its run has let
 * it go; a TypeScript check module is loaded in a worker as the main process loaded it (its module
 * format and its interop), or refused saying what the module does that a worker cannot load, and what to do.
 * @module
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { checkSpecAsync } from '../src/async-checks.ts';
import { defineCheck, lazyOf, number, spec, type Lazy } from '../src/index.ts';
import { importCheckModule } from '../src/parallel/load-module.ts';
import { aWorkerLetGoEnds } from './fixtures/let-go.ts';
import { runnerReport } from './fixtures/runner-report.ts';
import { buildIfStale } from '../scripts/dist-fresh.ts';
import { importPromiseLoopCheck, importPromiseLoopSyncCheck } from './fixtures/loading-import-promise-loop-checks.ts';

test("a loop of promise continuations the check module's import left, computing past the timeout while an asynchronous function waits for its own timer, is not blamed on the trial: a correct function passes with workers", { timeout: 60_000 }, async () => {
  // One worker: a continuation of the import's loop computes once in each worker started (300 ms of CPU).
  const r = await checkSpecAsync(importPromiseLoopCheck, { trials: 10, seed: 1, workers: 1, timeout: 200 });
  assert.equal(r.passed, true, r.message);
});

test("a worker that a run lets go ends, though the check module's import left a loop of promise continuations awaiting timers in it", { timeout: 30_000 }, async (t) => {
  // The loop kept the worker let go alive for ever.
  await aWorkerLetGoEnds(importPromiseLoopSyncCheck, t);
});

/** A CommonJS module compiled from TypeScript or Babel: its default export on `exports.default`, flagged `__esModule`. */
const COMPILED_CJS = `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.default = function identityOf(x) { return x; };
`;

const root = fileURLToPath(new URL('..', import.meta.url));
/** strictcheck's source, as the check modules of the CommonJS project below import it. */
const source = JSON.stringify(join(root, 'src/index.ts'));

/** A temporary folder holding `files` and `cjsdep`, a compiled CommonJS module in its node_modules. */
function project(name: string, files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), `strictcheck-${name}-loading-`));
  const all = { 'node_modules/cjsdep/package.json': '{ "name": "cjsdep", "main": "index.js" }', 'node_modules/cjsdep/index.js': COMPILED_CJS, ...files };
  for (const [file, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

/**
 * A project of a user's own in a temporary folder: a CommonJS package (`"type": "commonjs"`, as npm
 * init writes it) whose TypeScript check modules tsx loads as CommonJS, each checking the identity
 * through `identityOf`, a compiled CommonJS module's default export; `run.ts` runs each check with a
 * worker under `node --import tsx` and prints each result (one worker: how a worker loads the module
 * is what is tested, and each one more loads tsx and the module again, half a second of CPU). strictcheck is imported from the source.
 */
function commonJsProject(): { dir: string; run: Promise<Record<string, { passed?: boolean; message: string }>> } {
  const dir = project('cjs', {
    'cj/package.json': '{ "type": "commonjs" }',
    // A default import of a CommonJS module: tsx compiles it to CommonJS, with the __esModule interop.
    'cj/default-import.ts': `import identityOf from 'cjsdep';
import { defineCheck, spec, lazyOf, number, type Lazy } from ${source};
const idSpec = spec([lazyOf(number)], lazyOf(number), (predict, d) => predict(d));
export const check = defineCheck(import.meta.url, 'default import', idSpec, (n: Lazy<number>) => identityOf(n));
`,
    // Written as CommonJS: import = require, require, __dirname and __filename.
    'cj/written-as-cjs.ts': `import path = require('node:path');
const sc = require(${source}) as typeof import(${source});
const identityOf = require('cjsdep').default as <T>(x: T) => T;
const idSpec = sc.spec([sc.lazyOf(sc.number)], sc.lazyOf(sc.number), (predict, d) => predict(d));
export const check = sc.defineCheck(require('node:url').pathToFileURL(__filename).href, 'in ' + path.basename(__dirname), idSpec, (n: import(${source}).Lazy<number>) => identityOf(n));
`,
    // A .cts is CommonJS in any package: here one of "type": "module".
    'esm/package.json': '{ "type": "module" }',
    'esm/checks.cts': `import identityOf from 'cjsdep';
import { pathToFileURL } from 'node:url';
import { defineCheck, spec, lazyOf, number, type Lazy } from ${source};
const idSpec = spec([lazyOf(number)], lazyOf(number), (predict, d) => predict(d));
export const check = defineCheck(pathToFileURL(__filename).href, 'cts', idSpec, (n: Lazy<number>) => identityOf(n));
`,
    'cj/run.ts': `import { checkSpec } from ${source};
const modules = { defaultImport: './default-import.ts', writtenAsCjs: './written-as-cjs.ts', cts: '../esm/checks.cts' };
(async () => {
  const results: Record<string, unknown> = {};
  for (const [name, file] of Object.entries(modules)) {
    try {
      const r = await checkSpec(require(file).check, { trials: 20, seed: 1, workers: 1 });
      results[name] = { passed: r.passed, message: r.message };
    } catch (e) {
      results[name] = { message: String(e) };
    }
  }
  process.stdout.write(JSON.stringify(results));
})();
`,
  });
  // From the repository's root, where node finds tsx.
  const run = promisify(execFile)(process.execPath, ['--import', 'tsx', join(dir, 'cj/run.ts')], { cwd: root, timeout: 90_000 }).then(({ stdout }) => JSON.parse(stdout));
  return { dir, run };
}

/** Within a describe: the project `make` writes, its run started before the describe's tests, and removed after them once its run has ended (whether or not a test awaited it); what it gives is its run. */
function projectOfTheseTests<R>(make: () => { dir: string; run: Promise<R> }): () => Promise<R> {
  let project: { dir: string; run: Promise<R> };
  before(() => void (project = make()));
  after(async () => {
    await project.run.catch(() => undefined);
    rmSync(project.dir, { recursive: true, force: true });
  });
  return () => project.run;
}

describe('a TypeScript check module that tsx loads as CommonJS (node --import tsx), in workers', { timeout: 120_000 }, () => {
  const ran = projectOfTheseTests(commonJsProject);

  test("is loaded as CommonJS in workers too, as the main thread loaded it: its default import of a compiled CommonJS module is the main thread's (exports.default), and a correct function passes", async () => {
    const { defaultImport } = await ran();
    assert.equal(defaultImport!.passed, true, defaultImport!.message);
  });

  test('written as CommonJS (import = require, require, __dirname), it loads in workers as it does in the main thread, and a correct function passes', async () => {
    const { writtenAsCjs } = await ran();
    assert.equal(writtenAsCjs!.passed, true, writtenAsCjs!.message);
  });

  test('a .cts check module loads in workers as it does in the main thread, and a correct function passes', async () => {
    const { cts } = await ran();
    assert.equal(cts!.passed, true, cts!.message);
  });
});

test("a check module written as CommonJS that a worker loads as an ES module, as the main thread did (vitest's and jest's loaders give ES modules CommonJS's names), is refused naming what it uses and what to use instead, not blamed on its top level", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'strictcheck-esm-loading-'));
  try {
    for (const [name, uses, instead] of [
      ['dirname.mjs', 'export const here = __dirname;', /uses __dirname, which CommonJS has and an ES module has not[^]*Use import\.meta\.dirname/],
      ['require.mjs', "const path = require('node:path');", /uses require, which CommonJS has and an ES module has not[^]*Use import, or createRequire\(import\.meta\.url\)/],
    ] as const) {
      writeFileSync(join(dir, name), `${uses}\n`);
      await assert.rejects(importCheckModule(pathToFileURL(join(dir, name)).href), (e: Error) => instead.test(e.message) && /as an ES module/.test(e.message) && !/top level/.test(e.message));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a module that the check module imports and a worker cannot find is said to be not found by the worker's resolution, not blamed on the check module's top level", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'strictcheck-unresolved-loading-'));
  try {
    writeFileSync(join(dir, 'checks.mjs'), "import { helper } from './helpers/absent.mjs';\nexport const used = helper;\n");
    await assert.rejects(importCheckModule(pathToFileURL(join(dir, 'checks.mjs')).href), (e: Error) =>
      /could not resolve a module that the check's module .*checks\.mjs imports/.test(e.message) && /helpers\/absent\.mjs/.test(e.message) && /resolve\.alias/.test(e.message) && !/top level|isMainThread/.test(e.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("defineCheck given undefined for its module's URL, as import.meta.url is in a module compiled to CommonJS (a .cts under tsx), says so and to give pathToFileURL(__filename).href", () => {
  const idSpec = spec([lazyOf(number)], lazyOf(number), (predict, d) => predict(d));
  assert.throws(() => defineCheck(undefined as unknown as string, 'cts', idSpec, (n: Lazy<number>) => n), (e: Error) =>
    e instanceof TypeError && /import\.meta\.url is undefined in a module compiled to CommonJS/.test(e.message) && /pathToFileURL\(__filename\)\.href \(from node:url\)/.test(e.message));
});

/** strictcheck as `npm run build` emits it (the repository's `dist/`, copied) in `node_modules/strictcheck` of a temporary folder, with its dependencies, once for the tests below. */
let built: Promise<string> | undefined;
after(() => void built?.then((folder) => rmSync(folder, { recursive: true, force: true })));

/** Installs in `dir`'s node_modules the built strictcheck (see {@link built}), and this repository's tsx. */
async function installBuilt(dir: string): Promise<void> {
  built ??= (async () => {
    const folder = mkdtempSync(join(tmpdir(), 'strictcheck-built-'));
    const pkg = join(folder, 'node_modules/strictcheck');
    // The repository's own build, made first where it is not of the sources as they are (npm test's pretest made it).
    // Copied, not linked: the package's modules are under node_modules, as an installed package's are.
    await buildIfStale(root);
    cpSync(join(root, 'dist'), join(pkg, 'dist'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), readFileSync(join(root, 'package.json')));
    // Node resolves a linked package's imports from where it is.
    for (const name of ['fast-check', 'pure-rand']) symlinkSync(join(root, 'node_modules', name), join(folder, 'node_modules', name), 'dir');
    return folder;
  })();
  symlinkSync(join(await built, 'node_modules/strictcheck'), join(dir, 'node_modules/strictcheck'), 'dir');
  symlinkSync(join(root, 'node_modules/tsx'), join(dir, 'node_modules/tsx'), 'dir');
}

/**
 * Projects of a user's own, one a folder with its own package.json, in one temporary folder (its
 * node_modules shared: `cjsdep`, this repository's vitest and tsx, the built strictcheck), whose
 * tests one vitest run runs (a run a project, each another vitest process, cost half a second of CPU
 * more): for each folder, whether its tests passed, and what vitest said of them (its JSON reporter's).
 */
function vitestProjects(): { dir: string; run: Promise<Record<string, { passed: boolean; output: string }>> } {
  const dir = project('vitest', {
    // A check module's default import of a compiled CommonJS module.
    'default-import/package.json': '{ "type": "module" }',
    'default-import/checks.ts': `import identityOf from 'cjsdep';
import { defineCheck, spec, lazyOf, number, type Lazy } from 'strictcheck';
const idSpec = spec([lazyOf(number)], lazyOf(number), (predict, d) => predict(d));
export const check = defineCheck(import.meta.url, 'default import', idSpec, (n: Lazy<number>) => identityOf(n));
`,
    'default-import/workers.test.ts': `import { test, expect } from 'vitest';
import { checkSpec } from 'strictcheck';
import { check } from './checks.ts';
test('the identity through a default import passes with workers', async () => {
  const r = await checkSpec(check, { trials: 20, seed: 1, workers: 1 });
  expect(r.message).toMatch(/^[+]{3} OK/);
}, 60_000);
`,
    // A CommonJS package (as npm init writes it) whose check module imports the project's own TypeScript.
    'cjs-package/package.json': '{ "type": "commonjs" }',
    'cjs-package/own.ts': 'export function identity<T>(x: T): T { return x; }\n',
    // Compiled to CommonJS, it failed in workers: "Top-level await is currently not supported with the "cjs" output format".
    'cjs-package/noext.ts': 'export const same = await Promise.resolve(<T,>(x: T): T => x);\n',
    'cjs-package/checks.ts': `import identityOf from 'cjsdep';
import { identity } from './own.ts';
import { same } from './noext';
import { defineCheck, spec, lazyOf, number, type Lazy } from 'strictcheck';
const idSpec = spec([lazyOf(number)], lazyOf(number), (predict, d) => predict(d));
export const check = defineCheck(import.meta.url, 'own imports', idSpec, (n: Lazy<number>) => same(identity(identityOf(n))));
`,
    'cjs-package/workers.test.ts': `import { test } from 'vitest';
import { assertSpec } from 'strictcheck';
import { check } from './checks.ts';
test("the identity through the project's own modules passes with workers", () => assertSpec(check, { trials: 20, seed: 1, workers: 1 }), 60_000);
`,
    // An ES module package whose check module uses __dirname.
    'dirname/package.json': '{ "type": "module" }',
    'dirname/checks.ts': `import { join } from 'node:path';
import { defineCheck, spec, lazyOf, number, type Lazy } from 'strictcheck';
export const here = join(__dirname, 'data');
const idSpec = spec([lazyOf(number)], lazyOf(number), (predict, d) => predict(d));
export const check = defineCheck(import.meta.url, 'dirname', idSpec, (n: Lazy<number>) => n);
`,
    'dirname/workers.test.ts': `import { test } from 'vitest';
import { assertSpec } from 'strictcheck';
import { check } from './checks.ts';
test('the identity passes with workers', () => assertSpec(check, { trials: 20, seed: 1, workers: 1 }), 60_000);
`,
  });
  const run = (async () => {
    await installBuilt(dir);
    symlinkSync(join(root, 'node_modules/vitest'), join(dir, 'node_modules/vitest'), 'dir');
    const env = { ...process.env, NODE_TEST_CONTEXT: undefined, NO_COLOR: '1', CI: 'true' };
    const report = join(dir, 'report.json');
    const args = [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=json', `--outputFile=${report}`, 'default-import/', 'cjs-package/', 'dirname/'];
    // It exits with 1 as the dirname project fails: its report says which.
    const ended = await promisify(execFile)(process.execPath, args, { cwd: dir, env, timeout: 90_000 }).then(
      ({ stdout, stderr }) => `${stdout}${stderr}`,
      (e: { stdout?: string; stderr?: string }) => `${e.stdout}${e.stderr}`,
    );
    return Object.fromEntries(
      runnerReport(report, ended).map((f) => [
        basename(dirname(f.name)),
        { passed: f.status === 'passed', output: [f.message, ...f.assertionResults.flatMap((a) => a.failureMessages)].join('\n') || ended },
      ]),
    );
  })();
  return { dir, run };
}

describe('under vitest', { timeout: 120_000 }, () => {
  const ran = projectOfTheseTests(vitestProjects);
  /** What the vitest run said of the project in `folder`, or a failure saying it has no such project. */
  const ranIn = async (folder: string) => (await ran())[folder] ?? assert.fail(`vitest ran no tests in ${folder}: ${Object.keys(await ran()).join(', ')}`);

  test("a check module's default import of a compiled CommonJS module is in workers what vitest made it in the main thread (exports.default), and a correct function passes", async () => {
    const ran = await ranIn('default-import');
    assert.ok(ran.passed, ran.output);
  });

  test("in a CommonJS package (as npm init writes it), a check module importing the project's own TypeScript by name, with and without its extension, loads it in workers of the built package as ES modules, as vitest does (a top-level await in one works), and a correct function passes", async () => {
    // tsx gives a named import of a TypeScript module it compiles to CommonJS a URL of its own (?tsx-commonjs-export-preparse).
    const ran = await ranIn('cjs-package');
    assert.ok(ran.passed, ran.output);
  });

  test("in an ES module package, a check module using __dirname, which vitest's transform gave it in the main thread, is refused in workers saying so and what to use, not that workers load it as the main thread did", async () => {
    const ran = await ranIn('dirname');
    assert.ok(!ran.passed, ran.output);
    const said = ran.output.replace(/\s+/g, ' ');
    assert.match(said, /uses __dirname, which vitest's transform gives ES modules in the main thread only/);
    assert.match(said, /Use import\.meta\.dirname \(Node 20\.11 on\), or dirname\(fileURLToPath\(import\.meta\.url\)\) instead/);
    assert.doesNotMatch(said, /as the main thread did|--import tsx|top level/);
  });
});
