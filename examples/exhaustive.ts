/**
 * Exhaustive checking (SmallCheck and Lazy SmallCheck, applied to strictness): every input up to
 * a depth, every demand on the result up to that depth, and a family of non-strict function
 * arguments, smallest depth first, so that the first counterexample is the smallest. Parts of
 * the inputs that neither the function, the spec nor the comparison forces are never enumerated:
 * a case that leaves them alone holds for every way of filling them.
 * @module
 */
import { type ExhaustiveResult } from '../src/spec/exhaustive.ts';
import type { Spec } from '../src/spec/spec.ts';
import type { Outcome } from './observe-basics.ts';
import { take, takePrime, takeSpec } from './take.ts';
import { rot, rotNaive, rotSpec } from './okasaki-queue/rot.ts';
import { map, mapSpec, mapStrict } from './list-specs.ts';
import { checkSpecExhaustive } from '../src/checks.ts';

interface Check {
  readonly name: string;
  readonly spec: Spec<readonly any[], any>;
  readonly fn: (...args: any[]) => unknown;
  readonly depth: number;
  readonly expect: 'pass' | 'fail';
}

/** Depths chosen so that the whole section takes a few seconds. */
const checks: readonly Check[] = [
  { name: "take' vs takeSpec", spec: takeSpec, fn: takePrime, depth: 4, expect: 'fail' },
  { name: 'take vs takeSpec', spec: takeSpec, fn: take, depth: 5, expect: 'pass' },
  { name: 'rotNaive vs rotSpec', spec: rotSpec, fn: rotNaive, depth: 3, expect: 'fail' },
  { name: 'rot vs rotSpec', spec: rotSpec, fn: rot, depth: 4, expect: 'pass' },
  { name: 'mapStrict vs mapSpec', spec: mapSpec, fn: mapStrict, depth: 3, expect: 'fail' },
  { name: 'map vs mapSpec', spec: mapSpec, fn: map, depth: 3, expect: 'pass' },
];

/** Runs the exhaustive checks, printing each verdict with its depth and number of cases. */
export function run(log: (line: string) => void = (line) => console.log(line)): Outcome {
  log('checkSpecExhaustive(spec, fn, { depth }) tries every case up to the depth, from depth 0 up.');
  log('A failure is the first, smallest counterexample, with the same diagram as random checking.');
  log('');
  let passed = 0;
  let failed = 0;
  for (const c of checks) {
    const start = performance.now();
    const r: ExhaustiveResult = checkSpecExhaustive(c.spec, c.fn, { depth: c.depth });
    const seconds = ((performance.now() - start) / 1000).toFixed(1);
    const asExpected = r.passed === (c.expect === 'pass');
    if (asExpected) passed++;
    else failed++;
    const verdict = r.passed ? `passes all ${r.cases} cases of depth ${r.depth} (${r.totalCases} over depths 0 to ${r.depth})` : `fails at depth ${r.depth}, after ${r.totalCases} case${r.totalCases === 1 ? '' : 's'}`;
    log(`  ${asExpected ? '' : 'UNEXPECTED: '}${c.name}, up to depth ${c.depth}: ${verdict}, in ${seconds} s${r.passed ? '' : ':'}`);
    if (!r.passed) for (const line of r.message.split('\n')) log(`      ${line}`);
  }
  log('');
  log("take' fails at depth 0 with the paper's counterexample, and rotNaive at depth 1 with figure 4's:");
  log('the smallest cases, found without shrinking. mapStrict is caught by a constant function.');
  return { passed, failed };
}
