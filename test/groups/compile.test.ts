/**
 * The static checks of `npm test` (scripts/static-checks.ts), a test each, in a group of their own
 * so that they run beside the test groups: all start at once, as the file loads.
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCheck, STATIC_CHECKS } from '../../scripts/static-checks.ts';

const runs = STATIC_CHECKS.map(([name, command]) => [name, runCheck(command)] as const);
for (const [name, run] of runs) {
  test(`${name} passes`, async () => {
    const { code, output } = await run;
    assert.equal(code, 0, `${name} failed (exit code ${code}):\n${output}`);
  });
}
