/**
 * Iterables: `iterObserveOverhead`, observing a generator that doubles a 10^5-element source, its
 * result pulled to the end (`observe(normalize, …)` with iterable shapes), against running it on
 * the source uninstrumented and pulling its result to the end; `iterChecksPerSecond`, trials of
 * take over iterables against its spec per second, to set beside `checksPerSecond` (take over
 * lazy lists, bench/check.ts), 1,000 trials each run.
 * @module
 */
import { number } from '../src/demand/primitives.ts';
import { normalize, observeDetailed } from '../src/demand/observe.ts';
import { iterable, Source } from '../src/iter/index.ts';
import { take, takeSpec } from '../examples/iterators/take.ts';
import { collectGarbage } from './gc.mjs';
import { median, type BenchOptions } from './util.ts';
import { checkSpec } from '../src/checks.ts';

const N = 1e5;
const RUNS = 10; // runs in a timed block
const BLOCKS = 9; // blocks a side, interleaved; the median block is reported
const TRIALS = 1000;
const CHECKS = 21;

function* double(it: Iterable<number>): Generator<number> {
  for (const x of it) yield 2 * x;
}

/** Milliseconds per run of `body`, over a block of runs back to back, after a full collection. */
function time(body: () => void): number {
  collectGarbage();
  const start = performance.now();
  for (let i = 0; i < RUNS; i++) body();
  return (performance.now() - start) / RUNS;
}

export async function benchIter(options: BenchOptions = {}): Promise<Record<string, number>> {
  const source = new Source({ elements: Array.from({ length: N }, (_, i) => i), infinite: false, hasReturn: true });
  const shapes = { inputs: [iterable(number)], result: iterable(number) };
  let sum = 0;
  const plain = () => {
    for (const x of double(source)) sum += x;
  };
  const observed = () => {
    const o = observeDetailed(normalize, double, [source], shapes);
    if (o.error) throw o.error.thrown;
  };
  for (let i = 0; i < 3; i++) time(plain), time(observed); // warm-up (JIT)
  const plainMs: number[] = [];
  const observedMs: number[] = [];
  for (let b = 0; b < BLOCKS; b++) {
    plainMs.push(time(plain));
    observedMs.push(time(observed));
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (sum === 0) throw new Error('bench: the plain run pulled nothing');
  const checks: number[] = [];
  for (let i = 0; i < CHECKS + 3; i++) {
    const start = performance.now();
    const r = checkSpec(takeSpec, take, { trials: TRIALS, seed: i + 1 });
    if (!r.passed) throw new Error(`bench: take over iterables failed its spec\n${r.message}`);
    if (i >= 3) checks.push(performance.now() - start);
  }
  const figures = {
    iterObserveOverhead: Number((median(observedMs) / median(plainMs)).toFixed(2)),
    iterObservedMs: Number(median(observedMs).toFixed(2)),
    iterPlainMs: Number(median(plainMs).toFixed(2)),
    iterChecksPerSecond: Math.round((TRIALS * 1000) / median(checks)),
  };
  options.log?.(`observing double over 10^5 elements: ${figures.iterObservedMs} ms against ${figures.iterPlainMs} plain (${figures.iterObserveOverhead}x)`);
  options.log?.(`take over iterables: ${figures.iterChecksPerSecond} checks per second`);
  return figures;
}
