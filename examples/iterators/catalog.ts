/**
 * The teaching examples over iterables, each a spec with a correct function and a buggy one, and
 * what running them shows: the correct one passes, the buggy one fails with a small
 * counterexample. `npm start -- 6` prints them (examples/main.ts); the tests assert them
 * (examples/iterators/iterators.test.ts); docs/iterators.md explains each.
 * @module
 */
import { checkSpec } from '../../src/checks.ts';
import { checkSpecAsync } from '../../src/async-checks.ts';
import type { CheckOptions } from '../../src/spec/options.ts';
import type { CheckResult } from '../../src/spec/result.ts';
import type { Spec } from '../../src/spec/spec.ts';
import type { Outcome } from '../observe-basics.ts';
import { take, takePullsOneMore, takeSpec, takeWithoutClosing } from './take.ts';
import { takeAsync, takeAsyncPullsOneMore, takeAsyncSpec } from './take-async.ts';
import { zip, zipLeaky, zipSpec } from './zip.ts';
import { expand, flatMap, flatMapPrefetching, flatMapSpec } from './flat-map.ts';
import { chunk, chunkPeeking, chunkSpec, SIZE } from './chunk.ts';
import { merge, mergeLeaving, mergeSpec } from './merge.ts';
import { firstEven, firstEvenLeaking, firstEvenSpec } from './resource.ts';

/** One example: a spec, its correct function and a buggy one, what the bug is, and how it is checked. */
export interface IterExample {
  readonly name: string;
  readonly bug: string;
  readonly spec: Spec<any, any>;
  readonly correct: (...args: any[]) => unknown;
  readonly buggy: (...args: any[]) => unknown;
  readonly options: CheckOptions;
  /** Checked by checkSpecAsync. */
  readonly async?: boolean;
}

/** The examples, in the order docs/iterators.md explains them. */
export const iterExamples: readonly IterExample[] = [
  { name: 'take', bug: 'pulls element n+1 before it sees it has n', spec: takeSpec, correct: take, buggy: takePullsOneMore, options: { seed: 1 } },
  { name: 'take (closing)', bug: 'stops early without closing its source', spec: takeSpec, correct: take, buggy: takeWithoutClosing, options: { seed: 2 } },
  { name: 'zip', bug: 'does not close the second source when the first ends', spec: zipSpec, correct: zip, buggy: zipLeaky, options: { seed: 1 } },
  { name: 'flatMap', bug: 'fetches the next outer element before running through the current one', spec: flatMapSpec, correct: (xs: Iterable<number>) => flatMap(expand, xs), buggy: (xs: Iterable<number>) => flatMapPrefetching(expand, xs), options: { seed: 1 } },
  { name: `chunk ${SIZE}`, bug: 'looks one element past a full chunk before yielding it', spec: chunkSpec, correct: (xs: Iterable<number>) => chunk(SIZE, xs), buggy: (xs: Iterable<number>) => chunkPeeking(SIZE, xs), options: { seed: 2 } },
  { name: 'firstEven (a source holding a resource)', bug: "stops without closing its source, whose finally never runs", spec: firstEvenSpec, correct: firstEven, buggy: firstEvenLeaking, options: { seed: 1 } },
  { name: 'take over async iterables', bug: 'pulls element n+1 before it sees it has n', spec: takeAsyncSpec, correct: takeAsync, buggy: takeAsyncPullsOneMore, options: { seed: 1 }, async: true },
  { name: 'merge of two async iterables', bug: "leaves its sources open when its consumer breaks", spec: mergeSpec, correct: merge, buggy: mergeLeaving, options: { seed: 1, compare: 'noStricter' }, async: true },
];

/** Checks `fn` against an example's spec, in 300 trials. */
export function checkExample(e: IterExample, fn: (...args: any[]) => unknown): Promise<CheckResult> {
  const options = { trials: 300, ...e.options };
  return e.async ? checkSpecAsync(e.spec, fn, options) : Promise.resolve(checkSpec(e.spec, fn as never, options as never));
}

/** The section of `npm start`: each example's correct function passing and buggy one's counterexample. */
export async function run(log: (line: string) => void): Promise<Outcome> {
  log('A demand on an iterable is what was pulled from it, in the list notation, and how it ended:');
  log('1 : 2 : _ (left open), 1 : 2 : [] (done), 1 : 2 : return() (closed), ⊥ (a pull threw);');
  log('taken when its iterator was taken ([Symbol.iterator]()) and then left, with no next(), return() or throw():');
  log('an iteration begun and never closed, which is not _ (never iterated at all, so nothing to close);');
  log('Ahead 2 (…) when two next() calls of an async iterable were pending at once. See docs/iterators.md.');
  let passed = 0;
  let failed = 0;
  for (const e of iterExamples) {
    log('');
    log(`${e.name}: the correct version, then one that ${e.bug}`);
    const good = await checkExample(e, e.correct);
    const bad = await checkExample(e, e.buggy);
    // Each line indented: a passing report has its coverage line below it.
    for (const line of `${good.message}\n${bad.message}`.split('\n')) log(`  ${line}`);
    if (good.passed && !bad.passed) passed++;
    else failed++;
  }
  return { passed, failed };
}
