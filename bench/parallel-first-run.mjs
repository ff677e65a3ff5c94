// One sample of the parallel bench's start figures, in a process of its own, as a user's process
// runs a check of the built package (plain `node`, or `node --import tsx` for a TypeScript check
// module): `take`'s check of the module given (argv[2]) over `trials` (argv[3]) in this thread,
// once cold (compiling it) and once warm, then with 2 workers, the process's first (their start
// included). Prints, as JSON, the wall times of the three (`cold`, `sequential`, `parallel`), the
// CPU time of all the process's threads meanwhile (`coldCpu`, `sequentialCpu`, `parallelCpu`), the
// workers' `startup`, in ms, and where the parallel run's CPU time went (`threads`, see threads.mjs:
// the workers' threads, this one, V8's others), where the system tells.
import { checkSpec } from 'strictcheck';
import { timed } from './timed.mjs';
import { threadsSpent, threadTimes } from './threads.mjs';

const { takeBenchCheck: check } = await import(process.argv[2]);
const trials = Number(process.argv[3]);

const sequential = () => checkSpec(check.spec, check.fn, { trials, seed: 1 });
const cold = await timed(sequential);
const seq = await timed(sequential);
const before = threadTimes();
const par = await timed(() => checkSpec(check, { trials, seed: 1, workers: 2 }));
// The workers are kept idle, their threads alive: their times can be read.
const threads = threadsSpent(before, threadTimes());
console.log(JSON.stringify({ cold: cold.ms, sequential: seq.ms, parallel: par.ms, coldCpu: cold.cpu, sequentialCpu: seq.cpu, parallelCpu: par.cpu, startup: par.r.startupMs, threads }));
