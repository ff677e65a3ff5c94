/** Workers are pooled across the checks of a process, and never keep it alive. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runFixture } from './fixtures/run-fixture.ts';

test('a second check of the same module takes the workers the first left idle, and the process still ends by itself', { timeout: 120_000 }, () => {
  // A worker left running would keep the child alive until the timeout kills it.
  const child = runFixture('pooled-run.ts', [], 100_000);
  assert.equal(child.signal, null, `the process did not end by itself: ${child.stderr}`);
  assert.equal(child.status, 0, child.stderr);
  assert.deepEqual(JSON.parse(child.stdout.trim().split('\n').at(-1)!), { first: true, second: false, startedFirst: 2, startedSecond: 0 });
});
