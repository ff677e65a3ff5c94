/**
 * How a worker loads a check module (src/parallel/load-module.ts); its success with each runner's
 * loader is tested on the packed package (test/package.test.ts).
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { importCheckModule } from '../src/parallel/load-module.ts';

/** Runs `body` in a fresh folder whose node_modules links this repository's packages `linked`, removed after. */
async function inFolder(prefix: string, linked: readonly string[], body: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    if (linked.length > 0) mkdirSync(join(dir, 'node_modules'));
    for (const name of linked) symlinkSync(fileURLToPath(new URL(`../node_modules/${name}`, import.meta.url)), join(dir, 'node_modules', name), 'dir');
    await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a TypeScript check module of a project without tsx is refused, saying to install it', () =>
  inFolder('strictcheck-no-tsx-', [], async (dir) => {
    const file = join(dir, 'checks.ts');
    writeFileSync(file, 'export const n: number = 1;\n');
    await assert.rejects(importCheckModule(pathToFileURL(file).href), /a worker cannot load file:.*checks\.ts: it is TypeScript[^]*npm install --save-dev tsx/);
  }));

test("a module that the check module imports and tsx cannot compile as the worker loads it (a top-level await in a .cts) is said to be one that failed to compile, naming it, not blamed on the check module's top level", () =>
  inFolder('strictcheck-transform-', ['tsx'], async (dir) => {
    writeFileSync(join(dir, 'legacy.cts'), 'export const limit = await Promise.resolve(3);\n');
    writeFileSync(join(dir, 'checks.mts'), "import { limit } from './legacy.cts';\nexport const n: number = limit;\n");
    await assert.rejects(importCheckModule(pathToFileURL(join(dir, 'checks.mts')).href), (e: Error) =>
      /could not compile a module of the check's module .*checks\.mts/.test(e.message) && /legacy\.c?ts:1:\d+: ERROR: Top-level await/.test(e.message) &&
      /through tsx/.test(e.message) && /rename it to \.mts/.test(e.message) && !/top level|isMainThread/.test(e.message));
  }));

test("a check module that is a vitest or jest test file (defineCheck in the test file itself) is refused saying to move defineCheck into a module of its own, whichever of the runner's calls comes first, not only quoting what the runner threw", () =>
  inFolder('strictcheck-vitest-file-', ['vitest'], async (dir) => {
    const files = {
      'take.test.mjs': "import { test } from 'vitest';\nexport const n = 1;\ntest('take', () => {});\n",
      'described.test.mjs': "import { describe, test } from 'vitest';\nexport const n = 1;\ndescribe('take', () => test('take', () => {}));\n",
      'before.test.mjs': "import { beforeEach, test } from 'vitest';\nexport const n = 1;\nbeforeEach(() => {});\ntest('take', () => {});\n",
      // jest's globals, which no import gives: not defined in a worker, whatever the file is named.
      'checks.mjs': "export const n = 1;\ntest('take', () => {});\n",
    };
    for (const [name, text] of Object.entries(files)) {
      writeFileSync(join(dir, name), text);
      await assert.rejects(importCheckModule(pathToFileURL(join(dir, name)).href), (e: Error) =>
        e.message.includes(`${name} is a test file: a worker imports the check's module again, in a thread where no test runs, and its import threw there: `) &&
        /Move defineCheck, with the spec and function it names, into a module of its own that the test file imports/.test(e.message) && !/isMainThread/.test(e.message), name);
    }
  }));
