/**
 * The JavaScript copies of the repository's TypeScript that the worker threads of `npm test` load
 * (scripts/transpile.ts).
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { COPIES, fromCopies, transpileStale } from '../scripts/transpile.ts';
import { SOURCE_COPIES, SOURCE_PRELUDE } from '../src/parallel/load-module.ts';
import { importable, runScript } from './fixtures/own-process.ts';

/** Runs `body` on a repository of its own in a temporary folder, made of `files` (path to text), then removes it. */
async function inRepository(files: Record<string, string>, body: (root: string) => Promise<void>): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'strictcheck-transpile-'));
  try {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(join(root, file, '..'), { recursive: true });
      writeFileSync(join(root, file), text);
    }
    await body(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('a module is transpiled again once its source is newer than its copy, and only then; declarations and the consumer project are not', () =>
  inRepository({ 'src/a.ts': 'export const a: number = 1;\n', 'src/b.d.ts': 'export declare const b: number;\n', 'test/fixtures/consumer/c.ts': 'export const c = 1;\n' }, async (root) => {
    assert.deepEqual(await transpileStale(root), ['src/a.ts']);
    assert.match(readFileSync(join(root, COPIES, 'src/a.js'), 'utf8'), /^const a = 1;$/m);
    assert.deepEqual(await transpileStale(root), []);
    writeFileSync(join(root, 'src/a.ts'), 'export const a: number = 2;\n');
    const later = new Date(Date.now() + 10_000);
    utimesSync(join(root, 'src/a.ts'), later, later);
    assert.deepEqual(await transpileStale(root), ['src/a.ts']);
    assert.match(readFileSync(join(root, COPIES, 'src/a.js'), 'utf8'), /^const a = 2;$/m);
  }));

test("a copy's relative imports, static and dynamic, name the copies, a module that is not TypeScript is imported from its place, and a string that reads as an import is left as written", () =>
  inRepository({
    'src/a.ts': `import { b } from './b.ts';
import { c } from './c.mjs';
export const text = 'import("./b.ts")';
export const sum = async (): Promise<number> => b + c + (await import('./b.ts')).b;
`,
    'src/b.ts': 'export const b = 2;\n',
    'src/c.mjs': 'export const c = 3;\n',
  }, async (root) => {
    await transpileStale(root);
    const { text, sum } = await import(pathToFileURL(join(root, COPIES, 'src/a.js')).href);
    assert.equal(text, 'import("./b.ts")');
    assert.equal(await sum(), 7);
  }));

test('the copy of a module that is gone is removed, so that importing it fails as importing the module would', () =>
  inRepository({ 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 1;\n' }, async (root) => {
    await transpileStale(root);
    rmSync(join(root, 'src/b.ts'));
    assert.deepEqual(await transpileStale(root), []);
    assert.ok(existsSync(join(root, COPIES, 'src/a.js')));
    assert.ok(!existsSync(join(root, COPIES, 'src/b.js')));
  }));

test("a module's copy has its module's URL as import.meta.url, and its stack traces show the module's lines with source maps in use, as with fromCopies (a worker or process that npm test starts)", { timeout: 30_000 }, async () => {
  await transpileStale();
  const fixture = new URL('./fixtures/throws-at-line.ts', import.meta.url).href;
  const copies = new URL(`../${COPIES}/`, import.meta.url).href;
  const copy = new URL('test/fixtures/throws-at-line.js', copies).href;
  // In worker threads, as a worker started from the copies imports them: source maps are in use there alone.
  for (const setup of ['process.setSourceMapsEnabled(true)', fromCopies(copies)]) {
    const code = `(async () => { ${setup}; const m = await import(${JSON.stringify(copy)});
      try { m.fail(); } catch (e) { require('node:worker_threads').parentPort.postMessage({ url: m.url, stack: e.stack }); } })()`;
    const worker = new Worker(code, { eval: true });
    const { url, stack } = await new Promise<{ url: string; stack: string }>((resolve, reject) => worker.once('message', resolve).once('error', reject));
    await worker.terminate();
    assert.equal(url, fixture);
    assert.match(stack, /^Error: thrown at line 12\n {4}at Module\.fail \(.*throws-at-line\.ts:12:9\)\n/, setup);
  }
});

test('a worker started from the copies imports first the prelude SOURCE_PRELUDE names, calling it with their folder', { timeout: 60_000 }, async () => {
  await transpileStale();
  const copies = new URL(`../${COPIES}/`, import.meta.url).href;
  const prelude = 'data:text/javascript,export default (copies) => { throw new Error(`the prelude ran for ${copies}`); }';
  const { stdout } = await runScript(`
    import { checkSpec } from ${JSON.stringify(importable(new URL('../src/index.ts', import.meta.url)))};
    import { takeCheck } from ${JSON.stringify(importable(new URL('./fixtures/checks.ts', import.meta.url)))};
    globalThis.${SOURCE_COPIES} = ${JSON.stringify(copies)};
    globalThis.${SOURCE_PRELUDE} = ${JSON.stringify(prelude)};
    await checkSpec(takeCheck, { workers: 1, trials: 10 }).catch((e) => console.log(e.message));`);
  assert.equal(stdout.trim(), `a worker stopped while starting: Error: the prelude ran for ${copies}`);
});
