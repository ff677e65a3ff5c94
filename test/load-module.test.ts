/**
 * How a worker loads a check module (src/parallel/load-module.ts); its success with each runner's
 * loader is tested on the packed package (test/package.test.ts).
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { importCheckModule } from '../src/parallel/load-module.ts';

test('a TypeScript check module of a project without tsx is refused, saying to install it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'strictcheck-no-tsx-'));
  try {
    const file = join(dir, 'checks.ts');
    writeFileSync(file, 'export const n: number = 1;\n');
    await assert.rejects(importCheckModule(pathToFileURL(file).href), /a worker cannot load file:.*checks\.ts: it is TypeScript[^]*npm install --save-dev tsx/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
