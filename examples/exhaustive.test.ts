import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run } from './exhaustive.ts';

test('the exhaustive examples: take, rot and map pass every case up to their depth; take\', rotNaive and mapStrict fail', () => {
  const lines: string[] = [];
  const outcome = run((line) => lines.push(line));
  assert.deepEqual(outcome, { passed: 6, failed: 0 }, lines.join('\n'));
  assert.ok(lines.some((l) => /take vs takeSpec, up to depth 5: passes all 30061 cases of depth 5/.test(l)), lines.join('\n'));
});
