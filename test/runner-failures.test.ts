/**
 * A failure reaches the user through a real test runner, however deep what its result holds: a
 * runner copies a thrown error's properties (vitest serialises them to send them between its
 * processes, jest copies them deeply), and a demand tens of thousands of pulls deep overflowed their
 * stacks, losing the diagram and the seed. The fixture (test/fixtures/deep-failure) imports the
 * built package, as users do.
 * @module
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { buildIfStale } from '../scripts/dist-fresh.ts';
import { assertSpec, assertSpecExhaustive, CheckFailure, checkSpec, ExhaustiveCheckFailure, iterable, number, specOf, StrictCheckFailure } from '../src/index.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/deep-failure/', import.meta.url));

/** What a runner printed, run by `node` with `args` in the fixture's folder (it fails: one of its tests does). */
async function run(args: readonly string[]): Promise<string> {
  const env = { ...process.env, NODE_TEST_CONTEXT: undefined, NO_COLOR: '1', CI: 'true' };
  return promisify(execFile)(process.execPath, args, { cwd: fixture, env, timeout: 90_000 }).then(
    ({ stdout, stderr }) => assert.fail(`the runner passed a failing check:\n${stdout}${stderr}`),
    (e: { stdout?: string; stderr?: string }) => `${e.stdout}${e.stderr}`,
  );
}

// The fixture imports dist/, which npm test's pretest builds: built here too where this file runs alone.
before(() => buildIfStale(root));

const diagram = /StrictCheckFailure: Failed: the force budget ran out[^]*Actual input demands[^]*1 : 1 : 1 : … \(19986 more\)[^]*Reproduce with the option \{ seed: 1, forceBudget: 20000 \}/;

test('under vitest, a check failing with a demand 20,000 pulls deep fails its test with the diagram, and the next test runs', { timeout: 120_000 }, async () => {
  const said = await run([`${root}node_modules/vitest/vitest.mjs`, 'run', 'vitest.test.mjs']);
  assert.match(said, diagram);
  assert.match(said, /Tests {2}1 failed \| 1 passed \(2\)/);
  assert.doesNotMatch(said, /Maximum call stack|Unhandled Errors/);
});

test('under jest, a check failing with a demand 20,000 pulls deep fails its test with the diagram, and the next test runs', { timeout: 120_000 }, async () => {
  const said = await run(['--experimental-vm-modules', `${root}node_modules/jest/bin/jest.js`, '--rootDir', '.', '--config', '{"transform":{}}', 'jest.test.mjs']);
  assert.match(said, diagram);
  assert.match(said, /Tests: +1 failed, 1 passed, 2 total/);
  assert.doesNotMatch(said, /Maximum call stack/);
});

const numbers = iterable(number);
const idSpec = specOf([numbers], numbers, ({ pulledAsResult }) => [pulledAsResult()]);
function* skipsOne(xs: Iterable<number>) {
  let first = true;
  for (const x of xs) if (!first) yield x; else first = false;
}

/** What `run` threw. */
function thrown<E>(run: () => void): E {
  try {
    run();
  } catch (e) {
    return e as E;
  }
  return assert.fail('a failing check passed');
}

test('a failure, random or exhaustive, holds its result for programs, but not as a property of its own, and turns to JSON as its name and message', () => {
  const result = checkSpec(idSpec, skipsOne, { seed: 1 });
  assert.equal(result.passed, false);
  const failure = thrown<StrictCheckFailure>(() => assertSpec(idSpec, skipsOne, { seed: 1 }));
  const exhaustive = thrown<ExhaustiveCheckFailure>(() => assertSpecExhaustive(idSpec, skipsOne, { depth: 2 }));
  assert.equal(failure.result.message, result.message);
  assert.equal(failure.result.counterexample?.inputs.length, 1);
  assert.equal(exhaustive.result.passed, false);
  for (const f of [failure, exhaustive]) {
    assert.ok(f instanceof CheckFailure);
    assert.ok(!Object.getOwnPropertyNames(f).includes('result'));
    assert.deepEqual(JSON.parse(JSON.stringify(f)), { name: f.name, message: f.result.message });
  }
});
