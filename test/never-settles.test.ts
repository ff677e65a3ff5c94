/**
 * An asynchronous function that never settles, checked in this thread: when the event loop
 * empties while the function's promise (or an iteration of its async result) is pending, nothing
 * can ever settle it, and the case fails as never settling, its counterexample shrunk. Each hostile
 * case runs in a process of its own: before, the process just ended (exit code 13, no message).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importable, runScript as run } from './fixtures/own-process.ts';

const index = JSON.stringify(importable(new URL('../src/index.ts', import.meta.url)));

const HANGS_ON_ONE = `import { checkSpecAsync, assertSpecAsync, checkSameStrictnessAsync, inferSpecAsync, specOf, asyncIterable, number } from ${index};
  const anums = asyncIterable(number);
  const mapSpec = specOf([anums], anums, ({ pulledAsResult }) => [pulledAsResult()]);
  async function* mapHangs(xs) { for await (const x of xs) { if (x === 1) await new Promise(() => {}); yield 2 * x; } }
  async function* mapAsync(xs) { for await (const x of xs) yield 2 * x; }`;

test('checkSpecAsync of a function that never settles fails saying so, with its shrunk counterexample, and the process goes on', { timeout: 90_000 }, async () => {
  const { code, stdout, stderr } = await run(`${HANGS_ON_ONE}
    const r = await checkSpecAsync(mapSpec, mapHangs, { seed: 1 });
    console.log(JSON.stringify({ passed: r.passed, message: r.message }));`);
  assert.equal(code, 0, stderr);
  const r = JSON.parse(stdout) as { passed: boolean; message: string };
  assert.equal(r.passed, false);
  assert.match(r.message, /^Failed: the function never settles/, r.message);
  assert.match(r.message, /its promise was pending with nothing left to run/);
  assert.match(r.message, /\[1\]/, r.message); // shrunk to the element it hangs on
});

test('an async function awaiting a promise that never settles, returning a Promise, fails as never settling', { timeout: 90_000 }, async () => {
  const { code, stdout, stderr } = await run(`import { checkSpecAsync, spec, list, number, lazyOf, List } from ${index};
    const s = spec([list(number)], lazyOf(number), (predict, d, xs) => predict(List.length(xs)));
    const r = await checkSpecAsync(s, async (xs) => { await new Promise(() => {}); return xs; }, { seed: 1 });
    console.log(JSON.stringify({ passed: r.passed, message: r.message }));`);
  assert.equal(code, 0, stderr);
  const r = JSON.parse(stdout) as { passed: boolean; message: string };
  assert.equal(r.passed, false);
  assert.match(r.message, /never settles/, r.message);
});

test('under node:test, assertSpecAsync of a function that never settles fails its own test with the counterexample, and the next test runs and passes', { timeout: 90_000 }, async () => {
  const { stdout } = await run(`import { test } from 'node:test';
    ${HANGS_ON_ONE}
    test('hangs', async () => { await assertSpecAsync(mapSpec, mapHangs, { seed: 1 }); });
    test('next', async () => { await assertSpecAsync(mapSpec, mapAsync, { seed: 1 }); });`);
  assert.match(stdout, /not ok 1 - hangs/, stdout);
  assert.match(stdout, /never settles/, stdout);
  assert.match(stdout, /\nok 2 - next/, stdout);
  assert.doesNotMatch(stdout, /Promise resolution is still pending/, stdout);
});

test('checkSameStrictnessAsync and inferSpecAsync of a function that never settles say so, and a reference that never settles is a spec error saying so', { timeout: 90_000 }, async () => {
  const { code, stdout, stderr } = await run(`${HANGS_ON_ONE}
    const same = await checkSameStrictnessAsync([anums], anums, mapAsync, mapHangs, { seed: 1 });
    const inferred = await inferSpecAsync([anums], anums, mapHangs, { seed: 1 });
    const reference = await checkSameStrictnessAsync([anums], anums, mapHangs, mapAsync, { seed: 1 }).then(() => 'passed', (e) => e.name + ': ' + e.message);
    console.log(JSON.stringify({ same: same.message, inferred: inferred.message, reference }));`);
  assert.equal(code, 0, stderr);
  const r = JSON.parse(stdout) as { same: string; inferred: string; reference: string };
  assert.match(r.same, /^Failed: the function never settles/, r.same);
  assert.match(r.inferred, /^Failed: the function never settles/, r.inferred);
  assert.match(r.reference, /^SpecError: the reference never settles: its promise was pending with nothing left to run/, r.reference);
});

test('a function that is merely slow (each pull waits on a timer) is never called never-settling: it passes', { timeout: 90_000 }, async () => {
  const { code, stdout, stderr } = await run(`${HANGS_ON_ONE}
    async function* mapSlow(xs) { for await (const x of xs) { await new Promise((r) => setTimeout(r, 5)); yield 2 * x; } }
    const r = await checkSpecAsync(mapSpec, mapSlow, { seed: 1, trials: 3 });
    console.log(JSON.stringify({ passed: r.passed, message: r.message }));`);
  assert.equal(code, 0, stderr);
  const r = JSON.parse(stdout) as { passed: boolean; message: string };
  assert.equal(r.passed, true, r.message);
});

test('a process whose own top-level await never settles, with no check running, still ends as Node ends it (exit code 13)', { timeout: 90_000 }, async () => {
  const { code } = await run(`${HANGS_ON_ONE}
    await checkSpecAsync(mapSpec, mapAsync, { seed: 1, trials: 5 });
    await new Promise(() => {});`);
  assert.equal(code, 13);
});
