/**
 * The warning of a case that does not end in this thread. A function that loops without forcing
 * anything (`for (;;) {}`, or an async loop on microtasks) escapes the force budget (as an async one
 * awaiting a promise that never settles escapes never-settles.ts under a test runner), and nothing can
 * stop it in this thread without leaving the checker half-updated, nor can anything in this thread
 * speak while it runs: so a watchdog thread watches a heartbeat in shared memory, which each case
 * bumps as it starts, and writes a warning on standard error once a case of a check has run past
 * the check's `stallWarning`.
 * @module
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { MAX_TIMER } from './options.ts';

/** The shared memory's slots: cases started (the heartbeat), checks running in this thread, and the `stallWarning` (ms) of the check started last. */
const BEAT = 0;
const RUNNING = 1;
const LIMIT = 2;

const shared = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));

/**
 * The watchdog, plain JavaScript run as a script (`eval`): it needs no loader, from the sources, the
 * built package or copies of them alike, and starts in a fraction of a worker of the checks' cost.
 * It sleeps in `Atomics.wait`, which needs no event loop: until a check runs, then a quarter of
 * the limit at a time while it runs, comparing the heartbeat. It writes with `writeSync` on file
 * descriptor 2: its `process.stderr` would go through this thread, which is blocked.
 */
const WATCHDOG = `
const { workerData: { shared, port }, receiveMessageOnPort } = require('node:worker_threads');
const { writeSync } = require('node:fs');
let name = 'a check';
let async = false;
const named = () => { for (let m; (m = receiveMessageOnPort(port)) !== undefined; ) [name, async] = m.message; };
for (;;) {
  Atomics.wait(shared, ${RUNNING}, 0);
  named();
  const beat = Atomics.load(shared, ${BEAT});
  const since = Date.now();
  let warned = false;
  while (Atomics.load(shared, ${RUNNING}) !== 0 && Atomics.load(shared, ${BEAT}) === beat) {
    const limit = Atomics.load(shared, ${LIMIT});
    const ran = Date.now() - since;
    if (!warned && ran >= limit) {
      named();
      warned = true;
      writeSync(2, 'strictcheck: warning: a case of ' + name + ' has run for ' + (ran / 1000).toFixed(1) + ' s without ending, and nothing can stop it in the thread that runs the check.\\n' +
        '  A function that loops without forcing its inputs (for (;;) {}, or an async loop on microtasks) is not stopped by the force budget: see whether it does.\\n' +
        (async ? '  An async function awaiting a promise that never settles is told as never settling only once the event loop empties, which a test runner keeps from happening: see whether it awaits one.\\n' : '') +
        '  Or run the check with workers: 1 and a timeout (a check made with defineCheck, see docs/parallel.md): a case past the timeout is stopped and reported as a counterexample.\\n' +
        '  (This warning comes once a case has run stallWarning ms, ' + limit + ' here.)\\n');
    }
    Atomics.wait(shared, ${BEAT}, beat, Math.max(50, limit / 4));
  }
}`;

/** The channel to the watchdog, once started: the name of each check that runs, and whether it is asynchronous, go through it (read as the watchdog wakes). */
let watchdog: MessagePort | undefined;
/** The name last sent (which names the call, so whether it is asynchronous too), not sent again for each run of the same check. */
let lastName: string | undefined;

/** Starts the watchdog thread, once per thread that checks; unref'd, it never keeps the process alive, and one that cannot start only leaves checks unwatched. */
function startWatchdog(): MessagePort {
  const { port1, port2 } = new MessageChannel();
  const w = new Worker(WATCHDOG, { eval: true, execArgv: [], workerData: { shared, port: port2 }, transferList: [port2] });
  // A 'message' listener of its own first: Node refs an unref'd worker again when its first one is
  // added, as a user's listening to every worker started (process.on('worker')) would on this one.
  w.on('error', () => {}).on('message', () => {});
  w.unref();
  port1.unref();
  return port1;
}

/**
 * @internal Runs `run`, the check `name` in this thread (`async`: an asynchronous one), its cases
 * watched: one that runs past `limit` ms gets the watchdog's warning (a limit past the longest timer
 * never). Its result is returned as it is, a promise included (watched until it settles).
 */
export function watchingCases<R>(name: string, async: boolean, limit: number, run: () => R): R {
  if (limit > MAX_TIMER) return run();
  watchdog ??= startWatchdog();
  if (name !== lastName) watchdog.postMessage([(lastName = name), async]);
  Atomics.store(shared, LIMIT, limit);
  if (Atomics.add(shared, RUNNING, 1) === 0) Atomics.notify(shared, RUNNING);
  const ended = () => void Atomics.sub(shared, RUNNING, 1);
  let result: R;
  try {
    result = run();
  } catch (err) {
    ended();
    throw err;
  }
  if (result instanceof Promise) result.then(ended, ended);
  else ended();
  return result;
}

/** Cases started in this thread, the heartbeat's value (stored modulo 2^32). */
let beats = 0;

/** @internal A case starts: the heartbeat the watchdog watches, the one cost on a case. */
export function caseStarts(): void {
  // A store, not an add: it costs a case about half as much (20-30 ns, where 45-60), and only this thread writes the heartbeat.
  Atomics.store(shared, BEAT, ++beats);
}
