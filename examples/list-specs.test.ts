/**
 * Every example is a test: a correct spec must pass against its function, and a pair meant to
 * disagree must be caught, with the counterexample the paper shows. A wrong spec fails the suite
 * (unlike the original library's, where a failing spec did not).
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { lazy, now, thunk, type Lazy } from '../src/lazy/lazy.ts';
import { Cons, NIL, type Cell, type List } from '../src/lazy/cell.ts';
import * as L from '../src/lazy/list.ts';
import { list } from '../src/demand/lazy-positions.ts';
import { DESCRIBE, number } from '../src/demand/primitives.ts';
import type { Shape } from '../src/demand/shape-types.ts';
import { toDemand } from '../src/demand/convert.ts';
import { prettyDemand, prettyValue } from '../src/demand/print.ts';
import { observe, whnf } from '../src/demand/observe.ts';
import { predictDemands, type Spec } from '../src/spec/spec.ts';
import type { CheckResult } from '../src/spec/result.ts';
import { take, takePrime, takeSpec, takeSpecFirstAttempt } from './take.ts';
import {
  append,
  appendSpec,
  examples,
  length,
  lengthSpec,
  map,
  mapSpec,
  mapSpecStrictFunctions,
  mapStrict,
  reverse,
  reverseSpec,
  showcase,
  zip,
  zipSpec,
  zipSpecSymmetric,
  type Pair,
} from './list-specs.ts';
import { checkSpec, strictCheckSpecExact } from '../src/checks.ts';

const SEEDS = [1, 2, 3];
const TRIALS = 300;

type AnySpec = Spec<readonly any[], any>;
type AnyFn = (...args: readonly any[]) => any;

/** The counterexample of a failed check, printed: inputs, result demand, actual and predicted input demands. */
function printed(s: AnySpec, r: CheckResult) {
  assert.equal(r.passed, false, 'the check should have failed');
  const c = r.counterexample!;
  return {
    inputs: c.inputs.map((v, i) => prettyValue(v, s.args[i] as Shape<unknown>)),
    resultDemand: prettyDemand(c.resultDemand),
    actual: c.actual.map((d) => prettyDemand(d)),
    predicted: c.predicted.map((d) => prettyDemand(d)),
  };
}

function passes(s: AnySpec, f: AnyFn) {
  for (const seed of SEEDS) strictCheckSpecExact(s, f, { seed, trials: TRIALS });
}

describe('correct specs pass (strictCheckSpecExact, several seeds)', () => {
  test('take vs takeSpec', () => passes(takeSpec, take));
  test('length vs lengthSpec', () => passes(lengthSpec, length));
  test('append vs appendSpec', () => passes(appendSpec, append));
  test('reverse vs reverseSpec', () => passes(reverseSpec, reverse));
  test('zip vs zipSpec', () => passes(zipSpec, zip));
  test('map vs mapSpec (random non-strict functions)', () => passes(mapSpec, map));
  test('mapStrict vs mapSpec with only strict (QuickCheck-style) functions', () => passes(mapSpecStrictFunctions, mapStrict));
  test('the library list functions have the strictness of the specs too', () => {
    passes(lengthSpec, L.length);
    passes(appendSpec, L.append);
    passes(reverseSpec, L.reverse);
    passes(mapSpec, L.mapLazy);
  });
});

describe('expected failures are caught, with the paper counterexamples', () => {
  test("take' vs takeSpec: inputs 0 and [], demand [], actual _ and [], spec 0 and _ (figure 3)", () => {
    for (const seed of SEEDS) {
      assert.deepEqual(printed(takeSpec, checkSpec(takeSpec, takePrime, { seed, trials: TRIALS })), {
        inputs: ['0', '[]'],
        resultDemand: '[]',
        actual: ['_', '[]'],
        predicted: ['0', '_'],
      });
    }
  });

  test('take vs takeSpecFirstAttempt: inputs 0 and [], demand [], actual 0 and _, spec 0 and [] (figure 2)', () => {
    for (const seed of SEEDS) {
      assert.deepEqual(printed(takeSpecFirstAttempt, checkSpec(takeSpecFirstAttempt, take, { seed, trials: TRIALS })), {
        inputs: ['0', '[]'],
        resultDemand: '[]',
        actual: ['0', '_'],
        predicted: ['0', '[]'],
      });
    }
  });

  test("zip vs the original library's symmetric spec: fails on [] [] under the demand []", () => {
    for (const seed of SEEDS) {
      assert.deepEqual(printed(zipSpecSymmetric, checkSpec(zipSpecSymmetric, zip, { seed, trials: TRIALS })), {
        inputs: ['[]', '[]'],
        resultDemand: '[]',
        actual: ['[]', '_'],
        predicted: ['[]', '[]'],
      });
    }
  });

  test('mapStrict vs mapSpec fails, and only through a generated function that ignores its argument', () => {
    for (const seed of SEEDS) {
      const r = checkSpec(mapSpec, mapStrict, { seed, trials: TRIALS });
      assert.equal(r.passed, false);
      const c = r.counterexample!;
      const f = c.inputs[0] as (x: Lazy<number>) => number;
      assert.equal(typeof f, 'function');
      assert.ok(DESCRIBE in f, 'the function input is one the checker generated');
      assert.match(prettyValue(f), /^λ\{/);
      // It ignores its argument: applied to an argument that throws when forced, it still answers.
      const answer = f(lazy(() => assert.fail('the generated function forced its argument')));
      assert.equal(typeof answer, 'number');
      // mapStrict evaluated an element that the spec (through specify1 on f) says stays unevaluated.
      const [actualXs, predictedXs] = [c.actual[1]!, c.predicted[1]!];
      assert.match(prettyDemand(actualXs), /^-?\d/);
      assert.match(prettyDemand(predictedXs), /^_ : /);
      assert.equal(c.error, undefined);
    }
  });

  test('mistakes in functions are caught by the correct specs', () => {
    // zip that looks at ys first: zip [] ys evaluates ys.
    const zipYsFirst = <A, B>(xs: List<A>, ys: List<B>): List<Pair<A, B>> =>
      lazy((): Cell<Pair<A, B>> => {
        const cy = ys.force();
        const cx = xs.force();
        return cx instanceof Cons && cy instanceof Cons ? new Cons(now<Pair<A, B>>([cx.head, cy.head]), zipYsFirst(cx.tail, cy.tail)) : NIL;
      });
    assert.deepEqual(printed(zipSpec, checkSpec(zipSpec, zipYsFirst, { seed: 1, trials: TRIALS })).actual, ['[]', '[]']);
    // length that also evaluates the elements.
    const lengthSum = (xs: List<number>) => L.toArray(xs).length;
    assert.equal(checkSpec(lengthSpec, lengthSum, { seed: 1, trials: TRIALS }).passed, false);
    // append that checks whether ys is empty up front.
    const appendEager = <T>(xs: List<T>, ys: List<T>): List<T> => lazy(() => (ys.force(), append(xs, ys).force()));
    assert.equal(checkSpec(appendSpec, appendEager, { seed: 1, trials: TRIALS }).passed, false);
    // reverse through a strict fold that evaluates every element.
    const reverseStrict = (xs: List<number>): List<number> => lazy(() => L.fromArray(L.toArray(xs).reverse()).force());
    assert.equal(checkSpec(reverseSpec, reverseStrict, { seed: 1, trials: TRIALS }).passed, false);
    // map that evaluates the element *after* calling f: caught too.
    const mapAfter = (f: (x: Lazy<number>) => number, xs: List<number>): List<number> =>
      lazy((): Cell<number> => {
        const c = xs.force();
        return c instanceof Cons ? new Cons(lazy(() => f(c.head) + 0 * c.head.force()), mapAfter(f, c.tail)) : NIL;
      });
    assert.equal(checkSpec(mapSpec, mapAfter, { seed: 1, trials: TRIALS }).passed, false);
  });
});

describe('the outputs of the paper', () => {
  test('reverse "abc" under the demand _ : _ evaluates _ : _ : _ : [], and reverseSpec predicts it', () => {
    const abc = L.fromString('abc');
    const { result, inputs } = observe(whnf, reverse, abc);
    assert.equal(prettyDemand(result), '_ : _');
    assert.equal(prettyDemand(inputs[0]!), '_ : _ : _ : []');
    // The spec is written for lists of numbers; it never looks at the elements.
    assert.deepEqual(predictDemands(reverseSpec, result, [abc as unknown as List<number>]).map((d) => prettyDemand(d)), ['_ : _ : _ : []']);
  });

  test('zipSpec on [] [] under the demand [] predicts [] and _', () => {
    const { result } = observe(whnf, zip, L.fromArray<number>([]), L.fromArray<number>([]));
    assert.equal(prettyDemand(result), '[]');
    assert.deepEqual(
      predictDemands(zipSpec, result, [L.fromArray([]), L.fromArray([])]).map((d) => prettyDemand(d)),
      ['[]', '_'],
    );
  });

  test('appendSpec: the part of the demand past xs goes to ys', () => {
    const xs = L.fromArray([1, 2]);
    const ys = L.fromArray([3, 4]);
    const predict = (d: List<number>) => predictDemands(appendSpec, toDemand(d, list(number)), [xs, ys]).map((x) => prettyDemand(x));
    assert.deepEqual(predict(L.cons(1, L.cons(thunk, L.cons(3, thunk)))), ['1 : _ : []', '3 : _']);
    assert.deepEqual(predict(L.cons(1, thunk)), ['1 : _', '_']);
    assert.deepEqual(predict(L.cons(thunk, L.cons(thunk, thunk))), ['_ : _ : _', '_']);
  });
});

test('showcase: every check has its expected outcome, failures labelled "fails as expected"', () => {
  const lines: string[] = [];
  const summary = showcase({ log: (l) => lines.push(l), trials: 20, unicode: false });
  assert.equal(summary.ok, true, lines.join('\n'));
  assert.equal(summary.unexpected, 0);
  assert.equal(summary.passed + summary.failed, examples.length);
  assert.equal(summary.expectedFailures, examples.filter((e) => e.expect === 'fail').length);
  assert.equal(summary.failed, summary.expectedFailures);
  const text = lines.join('\n');
  for (const name of ["take' vs takeSpec", 'take vs takeSpecFirstAttempt', 'mapStrict vs mapSpec:']) {
    assert.match(text, new RegExp(`FAIL \\(fails as expected\\)  ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  }
  assert.match(text, /^PASS {2}take vs takeSpec/m);
  assert.match(text, /Actual input demands/); // the diagrams of the failures
  assert.doesNotMatch(text, /UNEXPECTED/);
});
