/**
 * The JavaScript copies of the repository's TypeScript that the worker threads of `npm test` load
 * (scripts/transpile.ts, scripts/transpiled-hooks.mjs).
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { COPIES, TRANSPILED_HOOKS, transpileStale } from '../scripts/transpile.ts';

test('a module is transpiled again once its source is newer than its copy, and only then; declarations and the consumer project are not', () => {
  const root = mkdtempSync(join(tmpdir(), 'strictcheck-transpile-'));
  try {
    const files = { 'src/a.ts': 'export const a: number = 1;\n', 'src/b.d.ts': 'export declare const b: number;\n', 'test/fixtures/consumer/c.ts': 'export const c = 1;\n' };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(join(root, file, '..'), { recursive: true });
      writeFileSync(join(root, file), text);
    }
    assert.deepEqual(transpileStale(root), ['src/a.ts']);
    assert.match(readFileSync(join(root, COPIES, 'src/a.js'), 'utf8'), /^export const a = 1;/);
    assert.deepEqual(transpileStale(root), []);
    writeFileSync(join(root, 'src/a.ts'), 'export const a: number = 2;\n');
    const later = new Date(Date.now() + 10_000);
    utimesSync(join(root, 'src/a.ts'), later, later);
    assert.deepEqual(transpileStale(root), ['src/a.ts']);
    assert.match(readFileSync(join(root, COPIES, 'src/a.js'), 'utf8'), /^export const a = 2;/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("a worker thread with the copies' hooks loads a module of the repository at its own URL, with its source's lines in its stack traces", { timeout: 30_000 }, async () => {
  transpileStale();
  const fixture = new URL('./fixtures/throws-at-line.ts', import.meta.url).href;
  const code = `import('node:module').then((m) => { m.register(${JSON.stringify(TRANSPILED_HOOKS)}); process.setSourceMapsEnabled(true); return import(${JSON.stringify(fixture)}); })
    .then((m) => { try { m.fail(); } catch (e) { require('node:worker_threads').parentPort.postMessage({ url: m.url, stack: e.stack }); } });`;
  const worker = new Worker(code, { eval: true });
  const { url, stack } = await new Promise<{ url: string; stack: string }>((resolve, reject) => worker.once('message', resolve).once('error', reject));
  await worker.terminate();
  assert.equal(url, fixture);
  assert.match(stack, /throws-at-line\.ts:12:9/);
});
