/**
 * A function observed on its inputs gets copies of them, and the demand on its result is read from
 * what it returns: a function that changes its input would be observed on a computation other than
 * its own (the cell it changed copied anew, unchanged, for the result). Strictness is observed on
 * immutable data, so the copies are frozen and a change is refused with a message that says so.
 * A spec is synchronous: one that returns a Promise is refused, saying so.
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lazy, now, type Lazy } from '../src/lazy/lazy.ts';
import { Cons, type List } from '../src/lazy/cell.ts';
import { fromArray, toArray } from '../src/lazy/list.ts';
import { list, lazyOf } from '../src/demand/lazy-positions.ts';
import { number } from '../src/demand/primitives.ts';
import { record } from '../src/demand/records.ts';
import { tuple } from '../src/demand/tuples.ts';
import { setOf } from '../src/demand/collections.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { normalize, observe, observeDetailed } from '../src/demand/observe.ts';
import { spec, SpecError } from '../src/spec/spec.ts';
import { checkSpec } from '../src/checks.ts';
import { checkSpecAsync } from '../src/async-checks.ts';
import { asyncIterable } from '../src/iter/shape.ts';
import { Tree } from './fixtures/shapes.ts';
import { opaque } from '../src/demand/opaque.ts';

/** What the refusal of a change to an input says. */
const IMMUTABLE = /changed its input.*strictness is observed on immutable data/is;

/** Sets the head of the first cell of its input to 99 and returns the input. */
const setHead = (xs: List<number>): List<number> => {
  const c = xs.force();
  if (c instanceof Cons) (c as { head: Lazy<number> }).head = now(99);
  return xs;
};

test('a function that changes a cell of its input list is refused by observe, saying that inputs are immutable', () => {
  // Run plainly, it returns [99, 2]: its observation must not record [1, 2].
  assert.deepEqual(toArray(setHead(fromArray([1, 2]))), [99, 2]);
  assert.throws(() => observe(normalize, setHead, fromArray([1, 2])), (err: unknown) => err instanceof TypeError && IMMUTABLE.test(err.message));
});

test('a check of a function that changes its input fails and says why, where it passed an identity spec', () => {
  const idSpec = spec([list(number)], list(number), (predict, d) => predict(d));
  const r = checkSpec(idSpec, setHead, { seed: 1, trials: 50 });
  assert.equal(r.passed, false);
  assert.match(r.message, IMMUTABLE);
  assert.match(r.message, /instead/);
});

test('an array, a record, a tuple and a value of a declared data type are frozen for the function, at the top and inside a Lazy', () => {
  const changes: [string, unknown, Parameters<typeof observeDetailed>[3], (x: any) => unknown][] = [
    ['array push', [1, 2], {}, (a: number[]) => a.push(3)],
    ['array element', now([1, 2]), {}, (a: Lazy<number[]>) => (a.force()[0] = 5)],
    ['record field', { a: 1, b: now(2) }, { inputs: [record({ a: number, b: lazyOf(number) })] }, (o: { a: number }) => (o.a = 5)],
    ['record field deleted', now({ a: 1 }), {}, (o: Lazy<{ a?: number }>) => delete o.force().a],
    ['tuple component', now([1, now(2)]), { inputs: [lazyOf(tuple(number, lazyOf(number)))] }, (p: Lazy<[number, Lazy<number>]>) => (p.force()[0] = 5)],
    ['data field', now(Tree.make.Node({ left: now(Tree.make.Leaf()), value: 1, right: now(Tree.make.Leaf()) })), { inputs: [lazyOf(Tree)] }, (t: Lazy<Tree>) => ((t.force() as { value: number }).value = 5)],
    ['a cell further down', fromArray([1, 2, 3]), {}, (xs: List<number>) => {
      const c = xs.force() as Cons<number>;
      (c.tail.force() as { head: Lazy<number> }).head = now(9);
    }],
  ];
  for (const [what, input, shapes, change] of changes) {
    const o = observeDetailed(normalize, (x: unknown) => lazy(() => change(x)), [input], shapes);
    assert.ok(o.error !== undefined, `${what}: the change was not refused (result ${prettyDemand(o.result)})`);
    assert.ok(o.error.thrown instanceof TypeError, `${what}: ${String(o.error.thrown)}`);
    // a cell of a list says so itself; V8's TypeError for a frozen object gets a hint
    assert.match(o.error.hint ?? (o.error.thrown as Error).message, IMMUTABLE, what);
  }
});

test('an empty array or object given to a function is a frozen copy: changing it is refused and leaves the caller\'s input as it was', () => {
  const empty: number[] = [];
  const o = observeDetailed(normalize, (a: number[]) => a.push(1), [empty]);
  assert.match(String((o.error?.thrown as Error).message), IMMUTABLE);
  assert.deepEqual(empty, []);
  const none: Record<string, number> = {};
  const p = observeDetailed(normalize, (r: Record<string, number>) => (r.x = 1), [none]);
  assert.match(String((p.error?.thrown as Error).message), IMMUTABLE);
  assert.deepEqual(none, {});
});

test('an opaque input is given to the function itself, neither copied nor frozen: a correct function over byte arrays passes', () => {
  const bytes = opaque<Uint8Array>('Bytes', { is: (v) => v instanceof Uint8Array });
  const mine = new Uint8Array([7, 8]);
  const o = observeDetailed(normalize, (xs: List<Uint8Array>) => { const c = xs.force(); return c instanceof Cons ? c.head.force()[0]! : 0; }, [fromArray([mine])], { inputs: [list(bytes)], result: number });
  assert.equal(o.error, undefined);
  assert.equal(Object.isFrozen(mine), false);
  mine[0] = 9; // the caller's own array, still its to change
  assert.equal(mine[0], 9);
});

/** `setHead` written in sloppy-mode code, where an assignment to a frozen object is ignored without a word. */
const sloppySetHead = new Function('Cons', 'now', 'return function setHead(xs) { var c = xs.force(); if (c instanceof Cons) c.head = now(99); return xs; }')(Cons, now) as typeof setHead;

/** `setHead` catching what the assignment throws, and going on. */
const catchingSetHead = (xs: List<number>): List<number> => {
  try {
    setHead(xs);
  } catch {
    // goes on as if the change were made
  }
  return xs;
};

test('a change to a cell of its input list is refused in sloppy-mode code, and when the function catches the error, naming the cell', () => {
  assert.deepEqual(toArray(sloppySetHead(fromArray([1, 2]))), [99, 2]);
  assert.deepEqual(toArray(catchingSetHead(fromArray([1, 2]))), [99, 2]);
  for (const f of [sloppySetHead, catchingSetHead]) {
    const o = observeDetailed(normalize, f, [fromArray([1, 2])], { names: ['xs'] });
    assert.ok(o.error !== undefined, `${f.name}: observed without an error, result ${prettyDemand(o.result)}`);
    assert.match(String((o.error.thrown as Error).message), /changed its input xs: it assigned to the head of a cell.*strictness is observed on immutable data/is);
    const idSpec = spec([list(number)], list(number), (predict, d) => predict(d));
    const r = checkSpec(idSpec, f, { seed: 1, trials: 20 });
    assert.equal(r.passed, false, `${f.name} passed`);
  }
});

test('a spec that returns a Promise is refused: specs are synchronous, and the message says what to do instead', async () => {
  const idSpec = spec([list(number)], list(number), (async (predict: (d: unknown) => void, d: unknown) => {
    await null;
    predict(d);
  }) as never);
  /** What checking the identity with spec `s` throws: a SpecError that says a spec is synchronous. */
  const refused = (s: typeof idSpec) =>
    assert.throws(() => checkSpec(s, (xs: List<number>) => xs, { seed: 1, trials: 5 }), (err: unknown) => err instanceof SpecError && /the spec returned a Promise.*synchronous/s.test(err.message) && !/never called predict/.test(err.message));
  refused(idSpec);
  // one that calls predict before it awaits is refused too: what it does after is out of the check's reach
  refused(spec([list(number)], list(number), (async (predict: (d: unknown) => void, d: unknown) => predict(d)) as never));
  // a plain function returning a thenable
  refused(spec([list(number)], list(number), ((_p: unknown) => ({ then() {} })) as never));
  // an async check of async iterables
  const an = asyncIterable(number);
  const asyncSpec = spec([an], an, (async (p: (d: unknown) => void, d: unknown) => {
    await null;
    p(d);
  }) as never);
  await assert.rejects(
    checkSpecAsync(asyncSpec, async function* (xs: AsyncIterable<number>) {
      yield* xs;
    }, { seed: 1, trials: 5 }),
    (err: unknown) => err instanceof SpecError && /the spec returned a Promise.*synchronous/s.test(err.message),
  );
});

test('a spec that changes its input (an element of a tuple, a Set) is a SpecError naming the input, where the function was blamed as behaving differently', () => {
  const pair = spec([tuple(number, number)], number, (predict, _d, p) => {
    (p as unknown as number[])[0] = 99;
    predict(p);
  });
  const sum = (p: readonly [number, number]) => p[0] + p[1];
  const changedPair = /the spec changed its input args\[0\]: the function read \(0, 0\), and after the spec it is \(99, 0\)\. A spec must not change its inputs.*build new values/s;
  assert.throws(() => checkSpec(pair, sum, { seed: 1, trials: 5 }), (err: unknown) => err instanceof SpecError && changedPair.test(err.message));
  const set = spec([setOf(number)], number, (predict, _d, s) => {
    (s as Set<number>).add(12345);
    predict(s);
  });
  assert.throws(() => checkSpec(set, (s: ReadonlySet<number>) => s.size, { seed: 1, trials: 5 }), (err: unknown) => err instanceof SpecError && /the spec changed its input args\[0\]: the function read Set \{\}, and after the spec it is Set \{12345\}/.test(err.message));
  // A spec that reads its inputs and builds new values is judged as ever.
  const copies = spec([tuple(number, number)], number, (predict, _d, p) => predict([...p].sort() as unknown as typeof p));
  assert.equal(checkSpec(copies, sum, { seed: 1, trials: 50 }).passed, false);
});
