/**
 * An asynchronous function that never settles, checked in this thread: when the event loop
 * empties while the function's promise (or an iteration of its async result) is pending, nothing
 * can ever settle it, and the case fails as never settling, its counterexample shrunk. The hostile
 * cases run in processes of their own: before, the process just ended (exit code 13, no message).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importable, runScript as run, type Ended } from './fixtures/own-process.ts';

const index = JSON.stringify(importable(new URL('../src/index.ts', import.meta.url)));

const HANGS_ON_ONE = `import { checkSpecAsync, assertSpecAsync, checkSameStrictnessAsync, inferSpecAsync, specOf, asyncIterable, number } from ${index};
  const anums = asyncIterable(number);
  const mapSpec = specOf([anums], anums, ({ pulledAsResult }) => [pulledAsResult()]);
  async function* mapHangs(xs) { for await (const x of xs) { if (x === 1) await new Promise(() => {}); yield 2 * x; } }
  async function* mapAsync(xs) { for await (const x of xs) yield 2 * x; }`;

/** The verdicts the process of {@link verdict} printed, by name, and how it ended. */
type Verdicts = Ended & { printed: Map<string, unknown> };
let verdicts: Promise<Verdicts> | undefined;

/**
 * The checks of the tests below, run one after another in one process (a process start cost each
 * as much as its checks): each function that never settles must leave the process going on to
 * the next check, and to its end (exit code 0).
 */
async function runChecks(): Promise<Verdicts> {
  const ended = await run(`import { spec, list, lazyOf, List } from ${index};
    ${HANGS_ON_ONE}
    const print = (name, verdict) => console.log(JSON.stringify({ name, verdict }));
    const r = await checkSpecAsync(mapSpec, mapHangs, { seed: 1 });
    print('hangs', { passed: r.passed, message: r.message });
    const s = spec([list(number)], lazyOf(number), (predict, d, xs) => predict(List.length(xs)));
    const p = await checkSpecAsync(s, async (xs) => { await new Promise(() => {}); return xs; }, { seed: 1 });
    print('promise', { passed: p.passed, message: p.message });
    const same = await checkSameStrictnessAsync([anums], anums, mapAsync, mapHangs, { seed: 1 });
    const inferred = await inferSpecAsync([anums], anums, mapHangs, { seed: 1 });
    const reference = await checkSameStrictnessAsync([anums], anums, mapHangs, mapAsync, { seed: 1 }).then(() => 'passed', (e) => e.name + ': ' + e.message);
    print('others', { same: same.message, inferred: inferred.message, reference });
    async function* mapSlow(xs) { for await (const x of xs) { await new Promise((r) => setTimeout(r, 5)); yield 2 * x; } }
    const slow = await checkSpecAsync(mapSpec, mapSlow, { seed: 1, trials: 3 });
    print('slow', { passed: slow.passed, message: slow.message });`);
  const lines = ended.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { name: string; verdict: unknown });
  return { ...ended, printed: new Map(lines.map((l) => [l.name, l.verdict])) };
}

/** The verdict `name` of the process of {@link runChecks} (run once for all the tests); fails with what it printed if it did not end by itself or printed no such verdict. */
async function verdict<T>(name: string): Promise<T> {
  const { code, stdout, stderr, printed } = await (verdicts ??= runChecks());
  assert.equal(code, 0, stderr);
  assert.ok(printed.has(name), `the process printed no verdict ${name}:\n${stdout}\n${stderr}`);
  return printed.get(name) as T;
}

test('checkSpecAsync of a function that never settles fails saying so, with its shrunk counterexample, and the process goes on', { timeout: 90_000 }, async () => {
  const r = await verdict<{ passed: boolean; message: string }>('hangs');
  assert.equal(r.passed, false);
  assert.match(r.message, /^Failed: the function never settles/, r.message);
  assert.match(r.message, /its promise was pending with nothing left to run/);
  assert.match(r.message, /\[1\]/, r.message); // shrunk to the element it hangs on
});

test('an async function awaiting a promise that never settles, returning a Promise, fails as never settling', { timeout: 90_000 }, async () => {
  const r = await verdict<{ passed: boolean; message: string }>('promise');
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
  const r = await verdict<{ same: string; inferred: string; reference: string }>('others');
  assert.match(r.same, /^Failed: the function never settles/, r.same);
  assert.match(r.inferred, /^Failed: the function never settles/, r.inferred);
  assert.match(r.reference, /^SpecError: the reference never settles: its promise was pending with nothing left to run/, r.reference);
});

test('a function that is merely slow (each pull waits on a timer) is never called never-settling: it passes', { timeout: 90_000 }, async () => {
  const r = await verdict<{ passed: boolean; message: string }>('slow');
  assert.equal(r.passed, true, r.message);
});

test('a process whose own top-level await never settles, with no check running, still ends as Node ends it (exit code 13)', { timeout: 90_000 }, async () => {
  const { code } = await run(`${HANGS_ON_ONE}
    await checkSpecAsync(mapSpec, mapAsync, { seed: 1, trials: 5 });
    await new Promise(() => {});`);
  assert.equal(code, 13);
});
