/** Workers are pooled across the checks of a process, and never keep it alive. */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';

test('a second check of the same module takes the workers the first left idle, and the process still ends by itself', { timeout: 120_000 }, () => {
  const script = fileURLToPath(new URL('./fixtures/pooled-run.ts', import.meta.url));
  // A worker left running would keep the child alive until the timeout kills it.
  const child = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 100_000, env: { ...process.env, NODE_TEST_CONTEXT: undefined } });
  assert.equal(child.signal, null, `the process did not end by itself: ${child.stderr}`);
  assert.equal(child.status, 0, child.stderr);
  assert.deepEqual(JSON.parse(child.stdout.trim().split('\n').at(-1)!), { first: true, second: false, startedFirst: 2, startedSecond: 0 });
});
