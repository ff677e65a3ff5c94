// How the parallel bench times a check, in JavaScript, for its processes under plain `node` too.
import v8 from 'node:v8';
import vm from 'node:vm';

// The collector, exposed without a command-line flag, which a worker given the process's options would refuse.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

/** The milliseconds `run` takes, the CPU time of all the process's threads meanwhile, and its result, which must pass; after a full collection. */
export async function timed(run) {
  gc();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await run();
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  if (!r.passed) throw new Error(r.message);
  return { ms, cpu: (c.user + c.system) / 1000, r };
}
