// One sample of the parallel bench's start figures, in a process of its own, as a user's process
// runs a check of the built package (plain `node`, or `node --import tsx` for a TypeScript check
// module): `take`'s check of the module given (argv[2]) over `trials` (argv[3]) in this thread,
// once to compile it and once timed, then with 2 workers, the process's first (their start
// included). Prints, as JSON, the wall times of the two (`sequential`, `parallel`), the CPU time
// of all the process's threads meanwhile (`sequentialCpu`, `parallelCpu`), and the workers' `startup`, in ms.
import { checkSpec } from 'strictcheck';
import { timed } from './timed.mjs';

const { takeBenchCheck: check } = await import(process.argv[2]);
const trials = Number(process.argv[3]);

const sequential = () => checkSpec(check.spec, check.fn, { trials, seed: 1 });
await timed(sequential);
const seq = await timed(sequential);
const par = await timed(() => checkSpec(check, { trials, seed: 1, workers: 2 }));
console.log(JSON.stringify({ sequential: seq.ms, parallel: par.ms, sequentialCpu: seq.cpu, parallelCpu: par.cpu, startup: par.r.startupMs }));
