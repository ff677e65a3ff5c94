// One sample of the parallel bench's start figures, in a process of its own, as a user's process
// runs a check of the built package (plain `node`, or `node --import tsx` for a TypeScript check
// module): `take`'s check of the module given (argv[2]) over `trials` (argv[3]) in this thread,
// once to compile it and once timed, then with 2 workers, the process's first (their start
// included). Prints { sequential, parallel, startup } in ms, as JSON.
import { checkSpec } from 'strictcheck';

const { takeBenchCheck: check } = await import(process.argv[2]);
const trials = Number(process.argv[3]);

/** Milliseconds `run` takes, after a full collection if `--expose-gc` gave one; it must pass. */
async function timed(run) {
  globalThis.gc?.();
  const t0 = performance.now();
  const r = await run();
  if (!r.passed) throw new Error(r.message);
  return { ms: performance.now() - t0, r };
}

const sequential = () => checkSpec(check.spec, check.fn, { trials, seed: 1 });
await timed(sequential);
const seq = await timed(sequential);
const par = await timed(() => checkSpec(check, { trials, seed: 1, workers: 2 }));
console.log(JSON.stringify({ sequential: seq.ms, parallel: par.ms, startup: par.r.startupMs }));
