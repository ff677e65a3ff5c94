/**
 * The guided tour (`npm start`) is itself a test: each section's checks must behave as expected
 * (the expected failures included), with the paper's counterexamples.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run as observeBasics, runTakeSpecs } from '../observe-basics.ts';
import { run as rotTour } from '../rot.ts';

for (const [name, run] of [
  ['observing reverse, zipWith and take', observeBasics],
  ["take and take' against the two specs", runTakeSpecs],
  ["Okasaki's queue", rotTour],
] as const) {
  test(`tour: ${name}`, () => {
    const lines: string[] = [];
    const { passed, failed } = run((line) => lines.push(line));
    assert.equal(failed, 0, lines.join('\n'));
    assert.ok(passed > 0);
  });
}
