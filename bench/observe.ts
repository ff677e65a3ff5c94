/**
 * The cost of observation: `observe(normalize, f, ...)` against plain evaluation of the same
 * function, fully forced (`normalize(f(...))`), for `reverse` and `append` on lists of 10^4, 10^5
 * and 10^6 cells. The paper claims observing costs a constant factor over running the function.
 * @module
 */
import { fromArray, type List } from '../src/lazy/list.ts';
import * as L from '../src/lazy/list.ts';
import { normalize, observe } from '../src/demand/observe.ts';
import { collectGarbage } from './gc.mjs';
import { median, type BenchOptions } from './util.ts';

interface Subject {
  readonly name: string;
  /** Builds fresh, fully evaluated inputs with `n` cells in all. */
  readonly inputs: (n: number) => List<number>[];
  readonly run: (...args: List<number>[]) => unknown;
}

const numbers = new Map<number, number[]>();
/** A fresh, fully evaluated list of 0 … n-1 (the array of numbers is made once per n, and dropped when the module's run ends). */
const range = (n: number) => {
  let xs = numbers.get(n);
  if (!xs) numbers.set(n, (xs = Array.from({ length: n }, (_, i) => i)));
  return fromArray(xs);
};

const subjects: readonly Subject[] = [
  { name: 'reverse', inputs: (n) => [range(n)], run: (xs) => L.reverse(xs!) },
  // two lists of n/2 cells each, so that input and result have n cells, as for reverse
  { name: 'append', inputs: (n) => [range(n / 2), range(n / 2)], run: (xs, ys) => L.append(xs!, ys!) },
];

/**
 * Sizes, with how many runs a timed block holds and how many blocks each side runs (the median
 * block is reported, per run). `observeGrowth` divides the medians at 10^6 and 10^5, and a block
 * at 10^6 holds only 2 runs, whose collections vary: with 5 blocks, six runs of this bench gave
 * 11.2 to 12.8; with 9, eight gave 10.7 to 11.8.
 */
const sizes: readonly { n: number; label: string; runs: number; blocks: number }[] = [
  { n: 1e4, label: '10^4', runs: 50, blocks: 5 },
  { n: 1e5, label: '10^5', runs: 10, blocks: 9 },
  { n: 1e6, label: '10^6', runs: 2, blocks: 9 },
];

/**
 * Milliseconds per run of `body`, over a block of `runs` runs back to back, each on fresh inputs.
 * The inputs are all built first and a full collection moves them out of the young generation,
 * so that neither side pays for the garbage of building them (timing single runs on inputs built
 * just before, the plain side's median swung from 12 to 39 ms at 10^5 cells with where the
 * scavenges of that garbage landed); a block of runs shares out each side's own collections.
 */
function time(subject: Subject, n: number, runs: number, body: (inputs: List<number>[]) => void): number {
  const inputs = Array.from({ length: runs }, () => subject.inputs(n));
  collectGarbage();
  const start = performance.now();
  for (const x of inputs) body(x);
  return (performance.now() - start) / runs;
}

const plain = (s: Subject) => (inputs: List<number>[]) => normalize(s.run(...inputs));
const observed = (s: Subject) => (inputs: List<number>[]) => void observe(normalize, s.run, ...inputs);

/**
 * Runs the benchmark and returns its named figures (milliseconds are medians):
 * `observe.<fn>.<size>.plainMs`, `.observeMs`, `.ratio`, and the summary figures
 * `observeOverhead` and `observeGrowth`.
 */
export async function benchObserve(options: BenchOptions = {}): Promise<Record<string, number>> {
  const log = options.log ?? (() => {});
  const figures: Record<string, number> = {};

  // Warm-up: let the JIT compile both paths before anything is timed.
  for (const s of subjects) {
    time(s, 1e4, 50, plain(s));
    time(s, 1e4, 50, observed(s));
  }

  log('observe(normalize, f, ...) against normalize(f(...)), milliseconds per run (median block)');
  log(`${'function'.padEnd(10)}${'cells'.padStart(6)}${'plain ms'.padStart(12)}${'observe ms'.padStart(12)}${'ratio'.padStart(8)}${'runs'.padStart(10)}`);
  for (const { n, label, runs, blocks } of sizes) {
    for (const s of subjects) {
      const p: number[] = [];
      const o: number[] = [];
      for (let b = 0; b < blocks; b++) {
        // alternate the order, so that neither side always runs first
        if (b % 2 === 0) {
          p.push(time(s, n, runs, plain(s)));
          o.push(time(s, n, runs, observed(s)));
        } else {
          o.push(time(s, n, runs, observed(s)));
          p.push(time(s, n, runs, plain(s)));
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      const [pm, om] = [median(p), median(o)];
      const key = `observe.${s.name}.${label}`;
      figures[`${key}.plainMs`] = round(pm);
      figures[`${key}.observeMs`] = round(om);
      figures[`${key}.ratio`] = round(om / pm);
      log(`${s.name.padEnd(10)}${label.padStart(6)}${pm.toFixed(1).padStart(12)}${om.toFixed(1).padStart(12)}${(om / pm).toFixed(2).padStart(8)}${`${blocks}×${runs}`.padStart(10)}`);
    }
  }

  // observeOverhead: the worse (larger) of the reverse and append ratios observe/plain at 10^5 cells.
  numbers.clear();
  figures.observeOverhead = Math.max(...subjects.map((s) => figures[`observe.${s.name}.10^5.ratio`]!));
  // observeGrowth: observe time at 10^6 cells over observe time at 10^5 cells, the worse (larger)
  // of reverse and append; 10 means observation scales linearly.
  figures.observeGrowth = round(
    Math.max(...subjects.map((s) => figures[`observe.${s.name}.10^6.observeMs`]! / figures[`observe.${s.name}.10^5.observeMs`]!)),
  );
  log(`observeOverhead (worse ratio at 10^5): ${figures.observeOverhead.toFixed(2)}`);
  log(`observeGrowth (worse observe time 10^6 / 10^5, linear = 10): ${figures.observeGrowth.toFixed(2)}`);
  return figures;
}

const round = (x: number) => Math.round(x * 1000) / 1000;
