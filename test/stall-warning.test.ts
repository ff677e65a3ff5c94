/**
 * A case that never ends in this thread (a loop that forces nothing, which the force budget cannot
 * stop, or an async loop on microtasks) blocks the thread, and nothing in it can speak: a watchdog
 * thread warns on standard error once a case has run past `stallWarning`, naming the check and
 * saying what to do. Each check runs in a process of its own, which the test kills once it has
 * warned (before, it hung silently for ever).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importable, runScript, type Ended } from './fixtures/own-process.ts';

const index = JSON.stringify(importable(new URL('../src/index.ts', import.meta.url)));
const examples = JSON.stringify(importable(new URL('../examples/take.ts', import.meta.url)));

const TAKE = `import { assertSpecAsync, checkSpec, checkSpecAsync, checkSpecExhaustive, specOf, number, asyncIterable } from ${index};
  import { take, takeSpec } from ${examples};
  const anums = asyncIterable(number);
  const mapSpec = specOf([anums], anums, ({ pulledAsResult }) => [pulledAsResult()]);`;

/** Runs `script` in a process of its own until it exits, or until its standard error holds `until` or `timeout` ms have passed (then it is killed). */
const run = (script: string, until?: RegExp, timeout = 120_000) => runScript(script, { until, timeout });

const WARNING = /strictcheck: warning: .*has run for/;

test('a checkSpec of a loop that forces nothing, without workers, warns on standard error naming the check, how long the case has run and what to do, while the loop runs', { timeout: 60_000 }, async () => {
  const { stderr } = await run(
    `${TAKE}
    const spin = (n, xs) => { for (;;) {} };
    checkSpec(takeSpec, spin, { seed: 1, stallWarning: 300 });`,
    WARNING,
  );
  const [, ran] = /strictcheck: warning: a case of checkSpec of spin has run for (\d+\.\d) s without ending/.exec(stderr) ?? assert.fail(stderr);
  assert.ok(Number(ran) >= 0.3, `it has run at least stallWarning, 300 ms: ${ran} s`);
  assert.match(stderr, /workers: 1/, stderr);
  assert.match(stderr, /timeout/, stderr);
  assert.match(stderr, /forc/, stderr); // that it may loop without forcing its inputs
  assert.doesNotMatch(stderr, /never settles/, stderr); // of async functions only
});

test('an exhaustive check of a loop that forces nothing warns as well', { timeout: 60_000 }, async () => {
  const { stderr } = await run(
    `${TAKE}
    function spin(n, xs) { for (;;) {} }
    checkSpecExhaustive(takeSpec, spin, { depth: 2, stallWarning: 100 });`,
    WARNING,
  );
  assert.match(stderr, /a case of checkSpecExhaustive of spin has run for/, stderr);
});

test('an async check of a function looping on microtasks warns, naming the check', { timeout: 60_000 }, async () => {
  const { stderr } = await run(
    `${TAKE}
    async function* asyncSpin(xs) { for (;;) await null; }
    await checkSpecAsync(mapSpec, asyncSpin, { seed: 1, stallWarning: 100 });`,
    WARNING,
  );
  assert.match(stderr, /a case of checkSpecAsync of asyncSpin has run for/, stderr);
});

test('an async check of a function awaiting a promise that never settles, where something keeps the event loop alive (as a test runner does), warns saying so', { timeout: 60_000 }, async () => {
  const { stderr } = await run(
    `${TAKE}
    setInterval(() => {}, 1000); // a test runner's channel
    async function* stuck(xs) { await new Promise(() => {}); }
    await assertSpecAsync(mapSpec, stuck, { seed: 1, stallWarning: 300 });`,
    WARNING,
  );
  assert.match(stderr, /a case of assertSpecAsync of stuck has run for/, stderr);
  assert.match(stderr, /An async function awaiting a promise that never settles [^\n]*a test runner keeps from happening/, stderr);
});

test('a check that is slow but makes progress, every case short, passes with no warning, and the process ends', { timeout: 120_000 }, async () => {
  const { code, stdout, stderr } = await run(`${TAKE}
    const slowTake = (n, xs) => { const end = Date.now() + 40; while (Date.now() < end); return take(n, xs); };
    // 15 cases of 40 ms: past stallWarning together, each far within it, however loaded the machine.
    const r = checkSpec(takeSpec, slowTake, { seed: 1, trials: 15, stallWarning: 500 });
    console.log(r.passed);`);
  assert.equal(code, 0, stderr);
  assert.equal(stdout.trim(), 'true');
  assert.doesNotMatch(stderr, /warning/, stderr);
});

/** The run of {@link endedCheck}'s process. */
let ended: Promise<Ended> | undefined;

/**
 * A process that listens to every worker's messages as it starts, runs a check that passes, then
 * blocks 600 ms (twice its stallWarning): run once for the two tests below, each a process start.
 */
const endedCheck = () =>
  (ended ??= run(
    `${TAKE}
    process.on('worker', (w) => w.on('message', () => {}));
    const r = checkSpec(takeSpec, take, { seed: 1, stallWarning: 300 });
    const end = Date.now() + 600; while (Date.now() < end);
    console.log(r.passed);`,
    undefined,
    60_000,
  ));

test("the watchdog keeps no process alive, even one that listens to every worker's messages as it starts", { timeout: 120_000 }, async () => {
  // Node refs an unref'd worker's port again when its first 'message' listener is added: here the user's, on the watchdog too.
  const { code, stdout, stderr } = await endedCheck();
  assert.equal(code, 0, `the process did not end by itself (killed after 60 s):\n${stderr}`);
  assert.equal(stdout.trim(), 'true');
});

test('a check that ended does not warn while the process goes on blocked after it', { timeout: 120_000 }, async () => {
  const { code, stderr } = await endedCheck();
  assert.equal(code, 0, stderr);
  assert.doesNotMatch(stderr, /warning/, stderr);
});

test("a check with workers, whose looping case runs in a worker until its timeout, gets no warning: the worker's timeout stops it", { timeout: 120_000 }, async () => {
  const checks = JSON.stringify(importable(new URL('./fixtures/checks.ts', import.meta.url)));
  const { code, stdout, stderr } = await run(`import { checkSpec } from ${index};
    import { loopCheck } from ${checks};
    const r = await checkSpec(loopCheck, { workers: 1, timeout: 500, maxShrinkTimeouts: 0, seed: 1, stallWarning: 250 });
    console.log(JSON.stringify({ passed: r.passed, message: r.message }));`);
  assert.equal(code, 0, stderr);
  const r = JSON.parse(stdout) as { passed: boolean; message: string };
  assert.equal(r.passed, false);
  assert.match(r.message, /timed out after 500 ms/, r.message);
  assert.doesNotMatch(stderr, /warning/, stderr);
});
