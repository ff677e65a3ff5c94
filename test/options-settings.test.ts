/**
 * The options of every mode, declared once and resolved in one place (src/spec/options.ts): the
 * global configuration is checked as a call's options are, and fills in only what applies to the
 * run; the settings a run reads name the same options in its report.
 * @module
 */
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSpec, checkSpecExhaustive, configureGlobal, resetConfigureGlobal, strictProperty } from '../src/index.ts';
import { take, takePrime, takeSpec } from '../examples/take.ts';

afterEach(() => resetConfigureGlobal());

test('a global timeout applies to the runs with workers only: a check in this thread runs without it', () => {
  configureGlobal({ timeout: 500 });
  assert.equal(checkSpec(takeSpec, take, { seed: 1 }).passed, true);
  assert.equal(checkSpecExhaustive(takeSpec, take, { depth: 2 }).passed, true);
  // Given to the call itself, it is still refused: it would stop nothing.
  assert.throws(() => checkSpec(takeSpec, take, { timeout: 500 } as never), /^RangeError: timeout applies only with workers/);
});

test('configureGlobal checks a setting as a check checks the option: a timeout longer than a timer can wait, or a unicode that is not a boolean, is refused where it is set', () => {
  assert.throws(() => configureGlobal({ timeout: 2 ** 31 }), { name: 'RangeError', message: 'timeout must be an integer from 1 to 2147483647, got 2147483648' });
  assert.throws(() => configureGlobal({ unicode: 'yes' as never }), { name: 'TypeError', message: 'unicode must be a boolean, got "yes"' });
});

test('a check refuses a unicode option that is not a boolean, in every mode', () => {
  const message = 'unicode must be a boolean, got 1';
  assert.throws(() => checkSpec(takeSpec, take, { unicode: 1 as never }), { name: 'TypeError', message });
  assert.throws(() => checkSpecExhaustive(takeSpec, take, { depth: 1, unicode: 1 as never }), { name: 'TypeError', message });
  assert.throws(() => strictProperty(takeSpec, take, { unicode: 1 as never }), { name: 'TypeError', message });
});

test('a forceBudget given as large as the default is named in the report: the default is scaled per trial, the budget given is not', () => {
  const r = checkSpec(takeSpec, takePrime, { seed: 7, forceBudget: 1_000_000 });
  assert.match(r.message, /Reproduce with the option \{ seed: 7, forceBudget: 1000000 \}\.$/);
  assert.match(checkSpec(takeSpec, takePrime, { seed: 7 }).message, /Reproduce with the option \{ seed: 7 \}\.$/);
});

