// One sample of where a worker's start goes, in a process of its own that has loaded strictcheck (the
// built package) and the check module given (argv[2]), as a user's process has when it starts its
// first workers: the CPU time of a fresh worker thread (its own clock, /proc/thread-self/schedstat,
// Linux) until its code first runs (Node's start of a thread), then to import strictcheck (its
// modules, which a worker's entry and the check module import), then the check module. Prints
// them as JSON, in ms.
import { Worker } from 'node:worker_threads';
import 'strictcheck';

const checks = process.argv[2];
await import(checks);
const strictcheck = import.meta.resolve('strictcheck');
const code = `
const { readFileSync } = require('node:fs');
const cpu = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
const started = cpu();
import(${JSON.stringify(strictcheck)}).then(async () => {
  const loaded = cpu();
  await import(${JSON.stringify(checks)});
  require('node:worker_threads').parentPort.postMessage({ thread: started, modules: loaded - started, checkModule: cpu() - loaded });
});`;
const w = new Worker(code, { eval: true });
w.once('message', (times) => {
  console.log(JSON.stringify(times));
  void w.terminate();
});
