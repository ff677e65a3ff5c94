/**
 * Every protocol call on an instrumented source (`next()`, `return()`, `throw()`) counts as a force
 * against the force budget, whatever the source's state: a function that keeps pulling a source
 * that has ended or that it closed, sync or async, is stopped by the budget and reported as
 * probably diverging with its case, never left running in the check's thread. The functions
 * below stop after many pulls past the end, so that a regression fails rather than hangs.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { asyncIterable, checkSpec, checkSpecAsync, checkSpecExhaustive, checkSpecExhaustiveAsync, forceCallCount, iterable, normalize, number, observeDetailed, spec, withArbitrary } from '../src/index.ts';
import { AsyncSource, pulls, Source, untouched, type SourcePlan } from '../src/iter/index.ts';

/** Pulls past the end that the functions below make before they give up: far more than the budget the checks give. */
const PAST = 20_000;
const BUDGET = 2_000;
// Finite sources that never throw, so that the specs below fit every case the functions end on.
const elements = fc.array(fc.nat(9), { maxLength: 4 });
const finite = withArbitrary(elements.map((xs) => new Source({ elements: xs, infinite: false, hasReturn: true }) as Iterable<number>), iterable(number));
const finiteAsync = withArbitrary(
  fc.record({ elements, delays: fc.array(fc.nat(2), { maxLength: 3 }) }).map((plan) => new AsyncSource({ ...plan, infinite: false, hasReturn: true }) as AsyncIterable<number>),
  asyncIterable(number),
);
const elementsOf = (xs: unknown) => (xs as { plan: SourcePlan<number> }).plan.elements;
/** Each source pulled to its end, then left. */
const pulledToEnd = spec([finite], number, (predict, _d, xs) => predict(pulls(elementsOf(xs), 'done')));
const pulledToEndAsync = spec([finiteAsync], number, (predict, _d, xs) => predict(pulls(elementsOf(xs), 'done')));
/** Each source pulled once, then closed (an empty one ended at its first pull). */
const firstThenClosedDemand = (xs: unknown) => {
  const [first] = elementsOf(xs);
  return first === undefined ? pulls([], 'done') : pulls([first], 'return');
};
const firstThenClosed = spec([finite], number, (predict, _d, xs) => predict(firstThenClosedDemand(xs)));
const firstThenClosedAsync = spec([finiteAsync], number, (predict, _d, xs) => predict(firstThenClosedDemand(xs)));
/** Each source closed before any pull, by `how`. */
const closedUnpulled = (how: 'return' | 'throw') => spec([finite], number, (predict) => predict(pulls([], how)));

/** Asserts that `r` reports the function as probably diverging, with the case it diverged on. */
function divergedWithCase(r: { passed: boolean; message: string; counterexample?: { inputs: readonly unknown[] } | undefined }): void {
  assert.equal(r.passed, false, 'the check passed');
  assert.match(r.message, /it made more than 2000 forces of thunks and pulls of iterators: it probably diverges/);
  assert.ok(r.counterexample !== undefined && r.counterexample.inputs.length === 1, 'the case is reported');
  assert.match(r.message, /Inputs/);
}

const THROWN = new Error('thrown in');
const OPTIONS = { seed: 1, trials: 30, forceBudget: BUDGET };

describe('pulls past the end of a source count against the force budget', () => {
  test('a function that ignores done and keeps pulling a finite source is reported as probably diverging', { timeout: 30_000 }, () => {
    const sumPastTheEnd = (xs: Iterable<number>) => {
      const it = xs[Symbol.iterator]();
      let sum = 0;
      for (let past = 0; past < PAST; ) {
        const r = it.next();
        if (r.done) past++;
        else sum += r.value;
      }
      return sum;
    };
    divergedWithCase(checkSpec(pulledToEnd, sumPastTheEnd, OPTIONS));
  });

  test('a function that keeps pulling a source after closing it with return() is reported as probably diverging', { timeout: 30_000 }, () => {
    const pullsAfterClosing = (xs: Iterable<number>) => {
      const it = xs[Symbol.iterator]();
      it.next();
      it.return!();
      for (let past = 0; past < PAST; past++) it.next();
      return 0;
    };
    divergedWithCase(checkSpec(firstThenClosed, pullsAfterClosing, OPTIONS));
  });

  test('a function that keeps calling return() or throw() on a source is reported as probably diverging', { timeout: 30_000 }, () => {
    const closesAgain = (how: 'return' | 'throw') => (xs: Iterable<number>) => {
      const it = xs[Symbol.iterator]() as Required<Iterator<number>>;
      for (let past = 0; past < PAST; past++) {
        try {
          it[how](THROWN);
        } catch {}
      }
      return 0;
    };
    divergedWithCase(checkSpec(closedUnpulled('return'), closesAgain('return'), OPTIONS));
    divergedWithCase(checkSpec(closedUnpulled('throw'), closesAgain('throw'), OPTIONS));
  });

  test('each next(), return() and throw() on an instrumented source counts one force, before and after its end', () => {
    const counted: number[] = [];
    const calls = (xs: Iterable<number>) => {
      const it = xs[Symbol.iterator]() as Required<Iterator<number>>;
      const at = () => counted.push(forceCallCount());
      at();
      it.next(); // 1
      at();
      it.next(); // done
      at();
      it.next(); // past the end
      at();
      it.return();
      at();
      it.next(); // after closing
      at();
      try {
        it.throw(new Error('in'));
      } catch {}
      at();
      return 0;
    };
    const source = new Source({ elements: [1], infinite: false, hasReturn: true });
    observeDetailed(normalize, calls, [source], { inputs: [iterable(number)], result: number });
    assert.deepEqual(
      counted.slice(1).map((c, i) => c - counted[i]!),
      [1, 1, 1, 1, 1, 1],
    );
  });

  test('an async function that keeps awaiting next() on a finite async source is reported as probably diverging', { timeout: 30_000 }, async () => {
    const sumPastTheEnd = async (xs: AsyncIterable<number>) => {
      const it = xs[Symbol.asyncIterator]();
      let sum = 0;
      for (let past = 0; past < PAST; ) {
        const r = await it.next();
        if (r.done) past++;
        else sum += r.value;
      }
      return sum;
    };
    divergedWithCase(await checkSpecAsync(pulledToEndAsync, sumPastTheEnd, OPTIONS));
  });

  test('an async function that keeps pulling a source after closing it with return() is reported as probably diverging', { timeout: 30_000 }, async () => {
    const pullsAfterClosing = async (xs: AsyncIterable<number>) => {
      const it = xs[Symbol.asyncIterator]();
      await it.next();
      await it.return?.();
      for (let past = 0; past < PAST; past++) await it.next();
      return 0;
    };
    divergedWithCase(await checkSpecAsync(firstThenClosedAsync, pullsAfterClosing, OPTIONS));
  });
});

/** An iterable whose iterator's `next()` answers `answers` in turn, then `done`. */
function answering(answers: readonly unknown[]): Iterable<number> {
  return {
    [Symbol.iterator]: () => {
      let i = 0;
      return { next: () => (i < answers.length ? answers[i++] : { done: true, value: undefined }) } as Iterator<number>;
    },
  };
}

/** The async iterable answering as {@link answering} does. */
function answeringAsync(answers: readonly unknown[]): AsyncIterable<number> {
  return {
    [Symbol.asyncIterator]: () => {
      let i = 0;
      return { next: async () => (i < answers.length ? answers[i++] : { done: true, value: undefined }) } as AsyncIterator<number>;
    },
  };
}

const numbers = iterable(number);
const asyncNumbers = asyncIterable(number);
// The functions below leave their argument untouched, as these specs say: a check fails only by the refusal.
const constant = spec([numbers], numbers, (predict) => predict(untouched));
const constantAsync = spec([asyncNumbers], asyncNumbers, (predict) => predict(untouched));

/** A check of `sum`, catching what its loop throws, over `source` alone. */
const checkSum = (source: Iterable<number>) => {
  const s = spec([withArbitrary(fc.constant(source), numbers)], number, (predict, _d, xs) => predict(xs as never));
  const sum = (xs: Iterable<number>) => {
    let n = 0;
    try {
      for (const x of xs) n += x;
    } catch {}
    return n;
  };
  return checkSpec(s, sum, { seed: 1, trials: 5 });
};

describe('an iterator result that is not an object is refused as JavaScript refuses it', () => {
  test("a result whose next() answers 3 is refused at the result's pull, saying the iterator result is not an object", () => {
    assert.throws(() => checkSpec(constant, (_xs: Iterable<number>) => answering([3]), { seed: 1, trials: 5 }), /at result\.iteration\.next1: .*got number 3: the iterator result is not an object \(JavaScript throws TypeError: Iterator result 3 is not an object\)/);
    assert.throws(() => checkSpec(constant, (_xs: Iterable<number>) => answering([{ done: false, value: 1 }, null]), { seed: 1, trials: 100 }), /at result\.iteration\.next2: .*got null: the iterator result is not an object/);
  });

  test("a source whose next() answers 3 is refused at the argument's pull, whether or not the function catches it", () => {
    assert.throws(() => checkSum(answering([{ done: false, value: 1 }, 3])), /at args\[0\]\.iteration\.next2: .*got number 3: the iterator result is not an object/);
  });

  test('an async result or source whose next() resolves to a non-object is refused so too', async () => {
    await assert.rejects(checkSpecAsync(constantAsync, (_xs: AsyncIterable<number>) => answeringAsync(['3']), { seed: 1, trials: 5 }), /at result\.iteration\.next1: .*got the string "3": the iterator result is not an object/);
    const broken = withArbitrary(fc.constant(answeringAsync([7])), asyncNumbers);
    const s = spec([broken], number, (predict, _d, xs) => predict(xs as never));
    const first = async (xs: AsyncIterable<number>) => (await xs[Symbol.asyncIterator]().next()).value ?? 0;
    await assert.rejects(checkSpecAsync(s, first, { seed: 1, trials: 5 }), /at args\[0\]\.iteration\.next1: .*got number 7: the iterator result is not an object/);
  });
});

describe("a result iterator whose return() answers no object is refused, as a for…of's break throws there", () => {
  /** An iterable answering 1 for ever, whose iterator's `return()` answers `answer` (a `return() { cleanup(); }` answers undefined). */
  const closingWith = (answer: unknown): Iterable<number> => ({
    [Symbol.iterator]: () => ({ next: () => ({ done: false, value: 1 }), return: () => answer }) as Iterator<number>,
  });
  const closingWithAsync = (answer: unknown): AsyncIterable<number> => ({
    [Symbol.asyncIterator]: () => ({ next: async () => ({ done: false, value: 1 }), return: async () => answer }) as AsyncIterator<number>,
  });

  test("a result whose return() answers undefined or 5 is refused at the result's return, where it passed", () => {
    assert.throws(() => checkSpec(constant, (_xs: Iterable<number>) => closingWith(undefined), { seed: 1 }), /at result\.iteration\.return: expected an iterator result \(an object \{ done, value \}\) from return\(\), got undefined: .*JavaScript throws TypeError: Iterator result undefined is not an object/);
    assert.throws(() => checkSpecExhaustive(constant, (_xs: Iterable<number>) => closingWith(5), { depth: 2 }), /at result\.iteration\.return: .*got number 5/);
  });

  test("an async result whose return() resolves to no object is refused so too, as a for await's break throws there", async () => {
    await assert.rejects(checkSpecAsync(constantAsync, (_xs: AsyncIterable<number>) => closingWithAsync(undefined), { seed: 1 }), /at result\.iteration\.return: .*got undefined/);
    await assert.rejects(checkSpecExhaustiveAsync(constantAsync, (_xs: AsyncIterable<number>) => closingWithAsync(5), { depth: 2 }), /at result\.iteration\.return: .*got number 5/);
  });

  test("a source whose return() answers no object is refused at the argument's return, where the function closing it was blamed for the TypeError", async () => {
    const first = (xs: Iterable<number>) => {
      for (const x of xs) return x;
      return -1;
    };
    const closedFirst = spec([withArbitrary(fc.constant(closingWith(undefined)), numbers)], number, (predict, _d, xs) => predict(xs as never));
    assert.throws(() => checkSpec(closedFirst, first, { seed: 1, trials: 5 }), /at args\[0\]\.iteration\.return: expected an iterator result \(an object \{ done, value \}\) from return\(\), got undefined/);
    const firstAsync = async (xs: AsyncIterable<number>) => {
      for await (const x of xs) return x;
      return -1;
    };
    const closedFirstAsync = spec([withArbitrary(fc.constant(closingWithAsync(5)), asyncNumbers)], number, (predict, _d, xs) => predict(xs as never));
    await assert.rejects(checkSpecAsync(closedFirstAsync, firstAsync, { seed: 1, trials: 5 }), /at args\[0\]\.iteration\.return: .*got number 5/);
  });

  test('a result whose return() answers an object, done or not, passes', () => {
    assert.equal(checkSpec(constant, (_xs: Iterable<number>) => closingWith({ done: true, value: undefined }), { seed: 1 }).passed, true);
    assert.equal(checkSpec(constant, (_xs: Iterable<number>) => closingWith({}), { seed: 1 }).passed, true);
  });
});

describe('an iterator that is not one is refused as JavaScript refuses it', () => {
  const withIterator = (it: unknown) => ({ [Symbol.iterator]: () => it }) as Iterable<number>;

  test("a result whose [Symbol.iterator]() gives no iterator is refused at the result's iteration, not reported as the function's throw", () => {
    assert.throws(() => checkSpec(constant, (_xs: Iterable<number>) => withIterator({}), { seed: 1, trials: 5 }), /at result\.iteration: expected an iterator \(an object with a next method\), got an object without a next method \(JavaScript throws TypeError: undefined is not a function\)/);
    assert.throws(() => checkSpec(constant, (_xs: Iterable<number>) => withIterator(3), { seed: 1, trials: 5 }), /at result\.iteration: .*got number 3: \[Symbol\.iterator\]\(\) gave no object \(JavaScript throws TypeError: Result of the Symbol\.iterator method is not an object\)/);
    const noNext = { [Symbol.asyncIterator]: () => ({ next: 1 }) } as unknown as AsyncIterable<number>;
    return assert.rejects(checkSpecAsync(constantAsync, (_xs: AsyncIterable<number>) => noNext, { seed: 1, trials: 5 }), /at result\.iteration: .*got an object whose next is number 1, not a method/);
  });

  test("a source whose [Symbol.iterator]() gives no iterator is refused at the argument's iteration", () => {
    assert.throws(() => checkSum(withIterator({ next: 'no' })), /at args\[0\]\.iteration: .*got an object whose next is the string "no", not a method/);
  });
});
