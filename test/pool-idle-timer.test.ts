/**
 * A worker kept idle for the next run of its module, stuck in a timer that a case of an earlier run
 * left, which computes for ever: it is stopped, with a warning naming the module, while idle or
 * when a run takes it, and the run that takes it gets a fresh worker and its own verdict.
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSpec } from '../src/checks.ts';
import { IDLE_TIMEOUT, LOOP_CHANNEL, loopsAfterRunCheck, OVER_CHANNEL, plainCheck, zeroLoopsAfterRunCheck } from './fixtures/idle-timer-checks.ts';

const MODULE = loopsAfterRunCheck.moduleUrl;
const options = { trials: 5, seed: 1, workers: 1, timeout: IDLE_TIMEOUT };

/** What strictcheck warns of on standard error while `body` runs, and until `until` says it has seen enough. */
async function warnings(body: (seen: Promise<void>) => Promise<void>, until: (text: string) => boolean): Promise<string> {
  let written = '';
  let enough!: () => void;
  const seen = new Promise<void>((resolve) => (enough = resolve));
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    if (!String(chunk).startsWith('strictcheck: warning:')) return (write as (...a: unknown[]) => boolean).call(process.stderr, chunk, ...rest);
    written += String(chunk);
    if (until(written)) enough();
    return true;
  }) as typeof write;
  try {
    await body(seen);
    return written;
  } finally {
    process.stderr.write = write;
  }
}

/**
 * Tells the timer a worker's run of the checks of idle-timer-checks.ts left that the run is over,
 * and resolves once it begins to compute for ever.
 */
function looping(): Promise<void> {
  const channel = new BroadcastChannel(LOOP_CHANNEL);
  const begun = new Promise<void>((resolve) => (channel.onmessage = () => (channel.close(), resolve())));
  const over = new BroadcastChannel(OVER_CHANNEL);
  over.postMessage('over');
  over.close();
  return begun;
}

const STUCK = new RegExp(`^strictcheck: warning: a timer that a run of a check of ${MODULE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} left did not finish within that run's timeout \\(${IDLE_TIMEOUT} ms: it loops, or blocks\\), once the run had ended, in a worker kept for the next run: the worker was stopped\\.`);

/**
 * Runs `check` with one worker (which leaves a timer that computes for ever once the run has
 * ended), expecting it to pass or not; once the timer computes, and while it has not yet for the
 * timeout, a run of a check of the same module, which takes that worker: it must pass, and the
 * timer be warned of.
 */
async function runAfterStuck(check: typeof loopsAfterRunCheck, passes: boolean): Promise<void> {
  const written = await warnings(async () => {
    const first = await checkSpec(check, { ...options, trials: 20 });
    assert.equal(first.passed, passes, first.message);
    await looping();
    const second = await checkSpec(plainCheck, options);
    assert.equal(second.passed, true, second.message);
  }, () => false);
  assert.match(written, STUCK);
}

test('a run that takes a worker kept idle, stuck in a timer an earlier run of its module left, gets a fresh worker and its own verdict, and the timer is warned of', { timeout: 60_000 }, () => runAfterStuck(loopsAfterRunCheck, true));

test('a worker kept idle, stuck in a timer its run left once it had ended, is stopped while idle, with a warning', { timeout: 60_000 }, async (t) => {
  const written = await warnings(async (seen) => {
    const first = await checkSpec(loopsAfterRunCheck, options);
    assert.equal(first.passed, true, first.message);
    await looping();
    // No run takes it: the warning comes from the watch of the idle worker, which (unref'd) keeps nothing alive; nor does this, once the test ends.
    const alive = setInterval(() => {}, 1000);
    t.signal.addEventListener('abort', () => clearInterval(alive));
    await seen.finally(() => clearInterval(alive));
  }, (text) => STUCK.test(text));
  assert.match(written, STUCK);
});

test('a worker kept idle after a failing run, stuck in a timer that run left, is stopped, and the next run of its module gets its own verdict', { timeout: 60_000 }, () => runAfterStuck(zeroLoopsAfterRunCheck, false));
