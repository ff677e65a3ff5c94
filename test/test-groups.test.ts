import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { filesOf } from './groups.ts';

test("npm test's groups run every test file once: each entry of test/groups/ runs its group's files, and together they are all the test files", () => {
  const groups = readdirSync(new URL('./groups/', import.meta.url)).map((f) => f.replace(/\.test\.ts$/, ''));
  const grouped = groups.flatMap(filesOf);
  const all = [...readdirSync(new URL('.', import.meta.url)).map((f) => `test/${f}`), ...readdirSync(new URL('../examples/', import.meta.url), { recursive: true }).map((f) => `examples/${f}`)]
    .filter((f) => f.endsWith('.test.ts'))
    .sort();
  assert.deepEqual([...grouped].sort(), all);
  assert.ok(all.includes('test/test-groups.test.ts') && all.includes('examples/okasaki-queue/okasaki.test.ts'));
});
