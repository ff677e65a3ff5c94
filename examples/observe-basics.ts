/**
 * Observing strictness (paper, sections 2 and 3): what a demand is, how `observe` records one, and
 * the strictness of `take` and `take'` checked against two specs.
 *
 * A *demand* is the part of a value some computation evaluated. It prints like the value, with
 * `_` for every part left unevaluated: `_ : 2 : _` is a list whose first two cells were
 * evaluated, and of whose elements only the second.
 *
 * `observe(context, f, ...inputs)` runs `f` on instrumented copies of its inputs, evaluates the
 * result in `context` (a function that forces some of it: `whnf` forces only the outermost
 * constructor, like Haskell's `seq`; `normalize` forces everything), and returns the demand the
 * context put on the result and the demands that caused on each input.
 *
 * A *spec* predicts the input demands from the result demand and the inputs; `checkSpec` tries
 * random inputs and random contexts and reports a shrunk counterexample when the prediction and
 * the observation differ.
 *
 * Run it alone: `npm start -- 1 2` (sections 1 and 2 of `npm start`).
 * @module
 */
import { now } from '../src/lazy/lazy.ts';
import { nil } from '../src/lazy/cell.ts';
import * as L from '../src/lazy/list.ts';
import { fromArray, fromString } from '../src/lazy/list.ts';
import type { Demand } from '../src/demand/demand.ts';
import { normalize, observe, observe1, whnf, type Observation } from '../src/demand/observe.ts';
import { prettyDemand, prettyValue } from '../src/demand/print.ts';
import type { Shape } from '../src/demand/shape-types.ts';
import type { Spec } from '../src/spec/spec.ts';
import type { CheckOptions } from '../src/spec/options.ts';
import type { CheckResult } from '../src/spec/result.ts';
import { take, takePrime, takeSpec, takeSpecFirstAttempt } from './take.ts';
import { checkSpec } from '../src/checks.ts';

/** What a teaching module's `run()` returns: checks that behaved as expected (expected failures included), and those that did not. */
export interface Outcome {
  readonly passed: number;
  readonly failed: number;
}

/** A counterexample as printed: the inputs, the demand on the result, the actual and the spec's input demands. */
export interface Printed {
  readonly inputs: readonly string[];
  readonly resultDemand: string;
  readonly actual: readonly string[];
  readonly predicted: readonly string[];
}

/** The printed form of a failed check's counterexample. */
export function printedCounterexample(s: Spec<readonly any[], any>, r: CheckResult): Printed | undefined {
  const c = r.counterexample;
  if (!c) return undefined;
  return {
    inputs: c.inputs.map((v, i) => prettyValue(v, s.args[i] as Shape<unknown>)),
    resultDemand: prettyDemand(c.resultDemand),
    actual: c.actual.map((d) => prettyDemand(d)),
    predicted: c.predicted.map((d) => prettyDemand(d)),
  };
}

const indent = (text: string, by = '      ') => text.replace(/^/gm, by);
const samePrinted = (a: Printed, b: Printed) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Prints the steps of a teaching module and counts the checks that behaved as expected.
 * Expected failures (a spec that must not match) count as passed.
 */
export class Tally {
  passed = 0;
  failed = 0;
  constructor(readonly log: (line: string) => void = (line) => console.log(line)) {}

  /** Prints text as it is. */
  say(...lines: string[]): void {
    for (const line of lines) this.log(line);
  }

  /** Prints `label  actual` and checks it against the paper's `expected`. */
  same(label: string, actual: string, expected: string): void {
    if (actual === expected) {
      this.passed++;
      this.log(`    ${label.padEnd(28)} ${actual}`);
    } else {
      this.failed++;
      this.log(`    ${label.padEnd(28)} ${actual}    <-- UNEXPECTED: expected ${expected}`);
    }
  }

  /** A demand, printed and checked. */
  demand(label: string, d: Demand, expected: string): void {
    this.same(label, prettyDemand(d), expected);
  }

  /** Prints and checks an observation: the demand on the result, then on each named input. */
  observed(obs: Observation, names: readonly string[], result: string, ...inputs: string[]): void {
    this.demand('demand on the result', obs.result, result);
    names.forEach((name, i) => this.demand(`demand on ${name}`, obs.inputs[i]!, inputs[i]!));
  }

  /** Checks a boolean fact. */
  fact(label: string, ok: boolean): void {
    if (ok) this.passed++;
    else this.failed++;
    this.log(`    ${ok ? '' : 'UNEXPECTED, not true: '}${label}`);
  }

  /**
   * Runs `checkSpec(s, fn)` and prints the outcome. With `expect: 'fail'` the check must find
   * a counterexample, and if `paper` is given, exactly that one.
   */
  check(
    label: string,
    s: Spec<readonly any[], any>,
    fn: (...args: any[]) => unknown,
    expect: 'pass' | 'fail',
    options: CheckOptions,
    paper?: Printed,
    failsLabel = 'fails, as the paper shows',
  ): CheckResult {
    const r = checkSpec(s, fn as (...args: readonly any[]) => any, options);
    if (expect === 'pass') {
      if (r.passed) {
        this.passed++;
        this.log(`  ${label}: passes. ${r.message.replaceAll('\n', '\n    ')}`); // the coverage line below it
      } else {
        this.failed++;
        this.say(`  ${label}: UNEXPECTED FAILURE:`, indent(r.message));
      }
      return r;
    }
    if (r.passed) {
      this.failed++;
      this.log(`  ${label}: UNEXPECTEDLY PASSES (${r.message}); it should have found a counterexample`);
      return r;
    }
    const printed = printedCounterexample(s, r)!;
    if (paper && !samePrinted(printed, paper)) {
      this.failed++;
      this.say(`  ${label}: fails, but NOT with the paper's counterexample:`, indent(r.message));
      this.log(`      the paper's: ${JSON.stringify(paper)}`);
      return r;
    }
    this.passed++;
    this.say(`  ${label}: ${failsLabel}${paper ? ', with exactly this counterexample' : ''}:`, indent(r.message));
    return r;
  }

  outcome(): Outcome {
    return { passed: this.passed, failed: this.failed };
  }
}

/** Observing `reverse`, `zipWith (*)` and `take` (paper, section 3.2). */
export function run(log?: (line: string) => void): Outcome {
  const t = new Tally(log);

  t.say(
    'Observing reverse "abc" when only the outermost constructor of the result is demanded (whnf):',
    '  observe1(whnf, List.reverse, fromString("abc"))',
  );
  const [rev, abc] = observe1(whnf, L.reverse, fromString('abc'));
  t.demand('demand on the result', rev, '_ : _');
  t.demand('demand on "abc"', abc, '_ : _ : _ : []');
  t.say(
    '  To produce its first cell, reverse walks the whole spine of its input, down to [],',
    '  but looks at none of the characters: reverse is spine-strict and element-lazy.',
    '',
    'Observing zipWith (*) [10, 20] [30, 40] with the result fully demanded (normalize):',
    '  observe(normalize, (xs, ys) => List.zipWith((a, b) => a * b, xs, ys), fromArray([10, 20]), fromArray([30, 40]))',
  );
  t.observed(observe(normalize, (xs: L.List<number>, ys: L.List<number>) => L.zipWith((a: number, b: number) => a * b, xs, ys), fromArray([10, 20]), fromArray([30, 40])), ['xs', 'ys'], '300 : 800 : []', '10 : 20 : []', '30 : 40 : _');
  t.say(
    '  zipWith stops when xs ends: it never looks at the rest of ys. It is stricter on the left.',
    '',
    'Observing take (paper, section 2; examples/take.ts). Its count is lazy too, so that we can see',
    'whether it is looked at: take(n: Lazy<number>, xs: List<T>).',
    '  observe(whnf, take, now(2), fromArray([1, 2, 3]))',
  );
  t.observed(observe(whnf, take, now(2), fromArray([1, 2, 3])), ['n', 'xs'], '_ : _', '2', '_ : _');
  t.say('  observe(normalize, take, now(2), fromArray([1, 2, 3]))');
  t.observed(observe(normalize, take, now(2), fromArray([1, 2, 3])), ['n', 'xs'], '1 : 2 : []', '2', '1 : 2 : _');
  t.say(
    '  The result ends after two elements because n ran out, so take never looks at the third cell.',
    '',
    "take and take' compute the same lists. Under the same demand, on 0 and []:",
    '  observe(normalize, take, now(0), nil)',
  );
  t.observed(observe(normalize, take, now(0), nil), ['n', 'xs'], '[]', '0', '_');
  t.say("  observe(normalize, takePrime, now(0), nil)");
  t.observed(observe(normalize, takePrime, now(0), nil), ['n', 'xs'], '[]', '_', '[]');
  t.say("  take looks at n first and stops; take' looks at the list first: the same value, another strictness.");
  return t.outcome();
}

/** Checking `take` and `take'` against the first and the correct spec (paper, section 2.2, figures 2 and 3). */
export function runTakeSpecs(log?: (line: string) => void): Outcome {
  const t = new Tally(log);
  const options: CheckOptions = { seed: 2018, trials: 300 };
  t.say(
    'The first attempt (take_spec_first_attempt): n is always evaluated, and xs exactly as far as the result:',
    '  spec([lazyOf(number), list(number)], list(number), (predict, d, n, xs) => predict(n, d))',
  );
  t.check('checkSpec(takeSpecFirstAttempt, take)', takeSpecFirstAttempt, take, 'fail', options, {
    inputs: ['0', '[]'],
    resultDemand: '[]',
    actual: ['0', '_'],
    predicted: ['0', '[]'],
  });
  t.say(
    '  Figure 2: take 0 [] returns [] without looking at the list, so the demand on xs is _, not [].',
    '',
    'The correct spec (take_spec_correct): when the list is longer than n, take leaves its tail alone:',
    '  predict(n, n.force() > List.length(xs) ? d : List.append(d, thunk))',
  );
  t.check('checkSpec(takeSpec, take)', takeSpec, take, 'pass', options);
  t.say('', "take' matches on the list before it looks at n. Against the correct spec:");
  t.check("checkSpec(takeSpec, takePrime)", takeSpec, takePrime, 'fail', options, {
    inputs: ['0', '[]'],
    resultDemand: '[]',
    actual: ['_', '[]'],
    predicted: ['0', '_'],
  });
  t.say("  Figure 3: take' 0 [] evaluates the list and never n; take evaluates n and never the list.");
  return t.outcome();
}

