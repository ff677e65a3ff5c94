// How the parallel bench times a check, in JavaScript, for its processes under plain `node` too.
import { collectGarbage } from './gc.mjs';

/** The milliseconds `run` takes, the CPU time of all the process's threads meanwhile, and its result, which must pass; after a full collection. */
export async function timed(run) {
  collectGarbage();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await run();
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  if (!r.passed) throw new Error(r.message);
  return { ms, cpu: (c.user + c.system) / 1000, r };
}
