/**
 * A case that never ends in this thread (a loop that forces nothing, which the force budget cannot
 * stop, or an async loop on microtasks) blocks the thread, and nothing in it can speak: a watchdog
 * thread warns on standard error once a case has run past `stallWarning`, naming the check and
 * saying what to do. Each check that warns runs in a process of its own, which the test kills once
 * it has warned (before, it hung silently for ever); the checks that must not warn share one.
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

/** What starts {@link endedChecks}' line on standard error after its check `i` (written synchronously, as the watchdog writes: in order with it). */
const ENDED = 'ended check ';

/** The run of {@link endedChecks}' process. */
let ended: Promise<Ended> | undefined;

/**
 * A process that listens to every worker's messages as it starts, then runs three checks that get
 * no warning: `slowTake`, slow but every case short; `take`, which passes, after which the process
 * blocks 600 ms (twice its stallWarning); `takeLoops`, with workers, whose looping case the
 * worker's timeout stops. It prints each result on a line, and after each check a line on standard
 * error that ends the part of it written while the check ran (see {@link during}). Run once for the
 * tests below: a process each cost a process start more each (0.35 s of CPU from the copies, 1.1 s
 * through tsx).
 */
const endedChecks = () =>
  (ended ??= run(
    `${TAKE}
    import { loopCheck } from ${JSON.stringify(importable(new URL('./fixtures/checks.ts', import.meta.url)))};
    import { writeSync } from 'node:fs';
    process.on('worker', (w) => w.on('message', () => {}));
    const ended = (i) => writeSync(2, ${JSON.stringify(ENDED)} + i + '\\n');
    const slowTake = (n, xs) => { const end = Date.now() + 40; while (Date.now() < end); return take(n, xs); };
    // 15 cases of 40 ms: past stallWarning together, each far within it, however loaded the machine.
    console.log(checkSpec(takeSpec, slowTake, { seed: 1, trials: 15, stallWarning: 500 }).passed);
    ended(0);
    const r = checkSpec(takeSpec, take, { seed: 1, stallWarning: 300 });
    const end = Date.now() + 600; while (Date.now() < end);
    console.log(r.passed);
    ended(1);
    const w = await checkSpec(loopCheck, { workers: 1, timeout: 500, maxShrinkTimeouts: 0, seed: 1, stallWarning: 250 });
    console.log(JSON.stringify({ passed: w.passed, message: w.message }));
    ended(2);`,
    undefined,
    60_000,
  ));

/** The line `i` of what {@link endedChecks}' process printed. */
const printed = async (i: number) => (await endedChecks()).stdout.trim().split('\n')[i];

/** What {@link endedChecks}' process wrote on standard error while its check `i` ran (and after the one before it), as far as it got. */
const during = async (i: number) => (await endedChecks()).stderr.split(new RegExp(`^${ENDED}\\d\n`, 'm'))[i] ?? '';

test('a check that is slow but makes progress, every case short, passes with no warning, and the process ends', { timeout: 120_000 }, async () => {
  const { code, stderr } = await endedChecks();
  assert.equal(code, 0, stderr);
  assert.equal(await printed(0), 'true');
  assert.doesNotMatch(await during(0), /warning/, stderr);
});

test("the watchdog keeps no process alive, even one that listens to every worker's messages as it starts", { timeout: 120_000 }, async () => {
  // Node refs an unref'd worker's port again when its first 'message' listener is added: here the user's, on the watchdog too.
  const { code, stderr } = await endedChecks();
  assert.equal(code, 0, `the process did not end by itself (killed after 60 s):\n${stderr}`);
  assert.equal(await printed(1), 'true');
});

test('a check that ended does not warn while the process goes on blocked after it', { timeout: 120_000 }, async () => {
  const { code, stderr } = await endedChecks();
  assert.equal(code, 0, stderr);
  assert.doesNotMatch(await during(1), /warning/, stderr);
});

test("a check with workers, whose looping case runs in a worker until its timeout, gets no warning: the worker's timeout stops it", { timeout: 120_000 }, async () => {
  const { code, stderr } = await endedChecks();
  assert.equal(code, 0, stderr);
  const r = JSON.parse((await printed(2)) ?? assert.fail(stderr)) as { passed: boolean; message: string };
  assert.equal(r.passed, false);
  assert.match(r.message, /timed out after 500 ms/, r.message);
  assert.doesNotMatch(await during(2), /warning/, stderr);
});
