/**
 * `taken` (an iterator of a re-iterable source taken, then nothing) is an iteration's whole demand
 * before its first pull. After a pull, or on a one-shot iterator (given to the function open, so
 * taking it is no event), it means nothing: a demand written so is refused, naming what to write
 * instead; and the helpers that write demands for specs never give it there.
 */
import { test, describe } from 'node:test';
import mapES from 'es-iterator-helpers/Iterator.prototype.map';
import assert from 'node:assert/strict';
import { number } from '../src/demand/primitives.ts';
import { toDemand } from '../src/demand/convert.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { ShapeMismatchError } from '../src/demand/shape-errors.ts';
import { cons, fromArray, type List } from '../src/lazy/list.ts';
import { now, type Lazy } from '../src/lazy/lazy.ts';
import { Cons } from '../src/lazy/cell.ts';
import { lazyOf } from '../src/demand/lazy-positions.ts';
import { observeDetailed, whnf } from '../src/demand/observe.ts';
import type { Ctor, Shape } from '../src/demand/shape-types.ts';
import { spec, SpecError } from '../src/spec/spec.ts';
import { specOf } from '../src/spec/combinators.ts';
import { checkSpec } from '../src/checks.ts';
import { run as runIteratorSection } from '../examples/iterators/catalog.ts';
import { asyncIterable, asyncIterator, closedAfter, iterable, iterations, iterator, pulls, readAhead, sourcePrefix, taken, untouched, type IterDemand } from '../src/iter/index.ts';

const numbers = iterable(number);
/** `xs` pulled, then `taken`. */
const pulledThenTaken = (xs: readonly number[]): IterDemand<number> =>
  xs.reduceRight((rest, x) => cons(x, rest as unknown as List<number>) as unknown as IterDemand<number>, taken as IterDemand<number>);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyShape = Shape<any>;
const read = (d: unknown, shape: AnyShape) => prettyDemand(toDemand(d, shape));
/** Whether reading `d` at `shape` is refused with a mismatch whose message matches each of `patterns`. */
const refused = (d: unknown, shape: AnyShape, ...patterns: RegExp[]) =>
  assert.throws(() => toDemand(d, shape), (e: unknown) => e instanceof ShapeMismatchError && patterns.every((p) => p.test(e.message)));

describe('taken after a pull is refused, naming what to write instead', () => {
  test('1 : taken is refused at iterable(number), asyncIterable(number) and inside Iterations, where taken alone is read', () => {
    const why = [/taken after a pull/, /before its first pull/, /untouched/, /1 : _/];
    refused(pulledThenTaken([1]), numbers, ...why);
    refused(pulledThenTaken([1, 2]), asyncIterable(number), ...why);
    refused(iterations(pulls([1], 'open'), pulledThenTaken([1])), numbers, ...why);
    refused(readAhead(2, pulledThenTaken([1])), asyncIterable(number), ...why);
    assert.equal(read(taken, numbers), 'taken');
    assert.equal(read(iterations(pulls([1], 'open'), taken), numbers), 'Iterations (1 : _) taken');
  });

  test('a spec predicting 1 : taken is a SpecError naming it', () => {
    const wrong = spec([numbers], numbers, (predict, _d, xs) => {
      void xs;
      predict(pulledThenTaken([0]));
    });
    assert.throws(
      () => checkSpec(wrong, (xs: Iterable<number>) => xs, { trials: 20, seed: 1 }),
      (e: unknown) => e instanceof SpecError && /prediction does not fit its argument/.test(e.message) && /taken after a pull/.test(e.message),
    );
  });
});

describe('taken on a one-shot iterator is refused, naming what to write instead', () => {
  test('taken is refused at iterator(number) and asyncIterator(number), read ahead or not', () => {
    refused(taken, iterator(number), /taken on a one-shot iterator/, /Iterator<number> is given to the function open/, /untouched/, /iterable\(…\)/);
    refused(taken, asyncIterator(number), /taken on a one-shot iterator/, /AsyncIterator<number>/, /asyncIterable\(…\)/);
    refused(readAhead(2, taken), asyncIterator(number), /taken on a one-shot iterator/);
    refused(pulledThenTaken([1]), iterator(number), /taken after a pull/);
  });

  test('a spec over iterator(number) predicting taken is a SpecError naming it', () => {
    const wrong = spec([iterator(number)], iterator(number), (predict) => predict(taken));
    assert.throws(
      () => checkSpec(wrong, (it: Iterator<number>) => it, { trials: 20, seed: 1 }),
      (e: unknown) => e instanceof SpecError && /taken on a one-shot iterator/.test(e.message),
    );
  });
});

describe('the helpers that write demands give taken only before the first pull of a re-iterable source', () => {
  const noReturnIterator = { next: () => ({ done: true as const, value: undefined }), [Symbol.iterator]() { return this; } };
  const noReturnIterable = { [Symbol.iterator]: () => ({ next: () => ({ done: true as const, value: undefined }) }) };

  test('closedAfter no pull, on a one-shot iterator without return, is _ (it was given open); on a re-iterable source, taken', () => {
    assert.equal(read(closedAfter(pulls([], 'return'), noReturnIterator as never), iterator(number)), '_');
    // Its iterators' methods are known from one taken where the protocol takes one (here the spec's reading), never by closedAfter's own.
    sourcePrefix(noReturnIterable as never, 0);
    assert.equal(read(closedAfter(pulls([], 'return'), noReturnIterable as never), numbers), 'taken');
  });

  test("pulledAsResult with closesUnstarted over one-shot iterators, some without return, passes a TC39 helper's map (es-iterator-helpers), which closes what it holds", () => {
    const closing = specOf([iterator(number)], iterator(number), ({ pulledAsResult }) => [pulledAsResult({ closesUnstarted: true })]);
    const mapHelper = (it: Iterator<number>) => mapES(it, (x: number) => x) as Iterator<number>;
    for (const compare of ['exact', 'noStricter'] as const) {
      const r = checkSpec(closing, mapHelper, { trials: 300, seed: 1, compare });
      assert.equal(r.passed, true, `${compare}: ${r.message}`);
    }
    assert.equal(untouched, closedAfter(pulls([], 'return'), noReturnIterator as never));
  });
});

describe('the iterators section of npm start', () => {
  test('says in its introduction what taken means, before its counterexamples show it', async () => {
    const intro: string[] = [];
    const stop = new Error('the introduction ended');
    // The section's first empty line ends its introduction: stopped there, before any check runs.
    await assert.rejects(
      runIteratorSection((line) => {
        if (line === '') throw stop;
        intro.push(line);
      }),
      (e: unknown) => e === stop,
    );
    const text = intro.join(' ');
    assert.match(text, /taken when its iterator was taken \(\[Symbol\.iterator\]\(\)\) and then left/);
    assert.match(text, /not _ \(never iterated/);
  });
});

describe('a list cell that its shape reads as another constructor is observed as that constructor', () => {
  test('a Lazy given where an iterable is declared is refused with a ShapeMismatchError naming it, before the function runs', () => {
    let ran = false;
    const forceIt = (xs: Iterable<number>) => {
      ran = true;
      return (xs as unknown as Lazy<unknown>).force() === undefined ? 0 : 1;
    };
    const o = observeDetailed(whnf, forceIt, [fromArray([1, 2]) as unknown as Iterable<number>], { inputs: [numbers] });
    const e = o.error?.thrown;
    assert.ok(e instanceof ShapeMismatchError, String(e));
    assert.match(e.message, /at args\[0\]: expected an iterable of number, got a Lazy \(a lazy list is not an iterable: declare it with list\(…\), or give an iterable\)/);
    assert.equal(ran, false);
  });

  test("a cell read as another constructor at a lazy position is recorded as that constructor's layer", () => {
    const fields = [lazyOf(number), lazyOf(number)] as Shape<unknown>[];
    const PAIR: Ctor = { name: 'Pair', keys: ['first', 'second'], style: 'data', build: (f) => new Cons(f[0] as Lazy<unknown>, f[1] as Lazy<never>) };
    const pairOfCell: Shape<Cons<number>> = {
      kind: 'data',
      name: 'PairOfCell',
      alternatives: () => [{ ctor: PAIR, shapes: fields }],
      project: (v) => ({ ctor: PAIR, fields: [(v as Cons<unknown>).head, (v as Cons<unknown>).tail], shapes: fields }),
    };
    const first = (p: Lazy<Cons<number>>) => p.force().head.force();
    const o = observeDetailed(whnf, first, [now(new Cons(now(1), now(2) as never))], { inputs: [lazyOf(pairOfCell)] });
    assert.equal(o.error, undefined);
    assert.equal(prettyDemand(o.inputs[0]!), 'Pair 1 _');
  });
});
