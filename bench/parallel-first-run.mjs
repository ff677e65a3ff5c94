// One sample of the parallel bench's start figures, in a process of its own, as a user's process
// runs a check of the built package (plain `node`, or `node --import tsx` for a TypeScript check
// module): `take`'s check of the module given (argv[2]) over `trials` (argv[3]) in this thread,
// once to compile it and once timed, then with 2 workers, the process's first (their start
// included). Prints, as JSON, the wall times of the two (`sequential`, `parallel`), the CPU time
// of all the process's threads meanwhile (`sequentialCpu`, `parallelCpu`), and the workers' `startup`, in ms.
import v8 from 'node:v8';
import vm from 'node:vm';
import { checkSpec } from 'strictcheck';

// The collector, exposed without a command-line flag, which a worker given the process's options would refuse.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

const { takeBenchCheck: check } = await import(process.argv[2]);
const trials = Number(process.argv[3]);

/** The milliseconds `run` takes, and the CPU time meanwhile, after a full collection; it must pass. */
async function timed(run) {
  gc();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await run();
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  if (!r.passed) throw new Error(r.message);
  return { ms, cpu: (c.user + c.system) / 1000, r };
}

const sequential = () => checkSpec(check.spec, check.fn, { trials, seed: 1 });
await timed(sequential);
const seq = await timed(sequential);
const par = await timed(() => checkSpec(check, { trials, seed: 1, workers: 2 }));
console.log(JSON.stringify({ sequential: seq.ms, parallel: par.ms, sequentialCpu: seq.cpu, parallelCpu: par.cpu, startup: par.r.startupMs }));
