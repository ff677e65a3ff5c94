/**
 * What a worker of the built package starts with (src/parallel/load-module.ts's workerExecArgv):
 * the Node options of its process, but none that only cost it time. That a TypeScript check
 * module still loads in such a worker, under `node --import tsx`, is tested on the packed
 * package (test/package.test.ts, `workersTsx`).
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { workerExecArgv } from '../src/parallel/load-module.ts';
import { startThread } from '../src/parallel/pool.ts';

const loader = pathToFileURL('/project/node_modules/tsx/dist/loader.mjs').href;
const preflight = '/project/node_modules/tsx/dist/preflight.cjs';

test("on Node 20, a worker does not preload tsx, which loads there but registers nothing: node --import tsx's and the tsx command's", () => {
  assert.deepEqual(workerExecArgv(['--import', 'tsx', '--enable-source-maps'], 20), ['--enable-source-maps']);
  assert.deepEqual(workerExecArgv(['--import=tsx', '--conditions=dev'], 20), ['--conditions=dev']);
  assert.deepEqual(workerExecArgv(['--require', preflight, '--import', loader], 20), []);
  assert.deepEqual(workerExecArgv(['-r', preflight, `--import=${loader}`, '--stack-trace-limit=50'], 20), ['--stack-trace-limit=50']);
});

test("a worker keeps the process's other preloads, and on a Node whose workers may run a loader's hooks, tsx too", () => {
  assert.deepEqual(workerExecArgv(['--import', './setup.mjs', '--require', 'dotenv/config', '--import', 'tsx-like'], 20), ['--import', './setup.mjs', '--require', 'dotenv/config', '--import', 'tsx-like']);
  assert.deepEqual(workerExecArgv(['--import', 'tsx', '--enable-source-maps'], 22), ['--import', 'tsx', '--enable-source-maps']);
});

test('a worker starts under Node options it refuses when given them (a V8 option, --expose-gc), as when it inherited them', { timeout: 20_000 }, async () => {
  const w = startThread("require('node:worker_threads').parentPort.postMessage('started')", { eval: true }, ['--import', 'tsx', '--expose-gc']);
  try {
    assert.equal(await new Promise((resolve) => w.once('message', resolve)), 'started');
  } finally {
    await w.terminate();
  }
});
