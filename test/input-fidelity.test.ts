/**
 * The inputs an observed function is given behave as plain values do, and whatever it does to them
 * is seen, never lost: a list cell has its own `head` and `tail`, and a generic copy of it works;
 * a change to any input (a cell, an array, a record, a Set, a Map), in sloppy-mode code or strict,
 * caught by the function or not, fails the observation, naming the input. And what a consumer's
 * `throw()` into the result gets back is the function's error where the function made it.
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
import { dynamic } from '../src/demand/dynamic.ts';
import { mapOf, setOf } from '../src/demand/collections.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { toDemand } from '../src/demand/convert.ts';
import { normalize, observeDetailed, observeDetailedAsync, toContext, type ObserveShapes } from '../src/demand/observe.ts';
import { spec } from '../src/spec/spec.ts';
import { checkSpec } from '../src/checks.ts';
import { asyncIterable, iterable, pulls } from '../src/iter/index.ts';

/** What the refusal of a change to an input says. */
const IMMUTABLE = /changed its input.*strictness is observed on immutable data/is;

/** The demands and error of observing `f` on `inputs`, fully normalized. */
function observed(f: (...args: any[]) => unknown, inputs: unknown[], shapes: ObserveShapes = {}) {
  const o = observeDetailed(normalize, f, inputs, shapes);
  return { result: prettyDemand(o.result), inputs: o.inputs.map((d) => prettyDemand(d)), error: o.error?.thrown };
}

/** A generic "update" helper: a copy of `o` on its prototype, with `patch`. */
const update = <T extends object>(o: T, patch: Partial<T>): T => Object.assign(Object.create(Object.getPrototypeOf(o)), o, patch);

test('a list cell given to an observed function is a Cons with its head and tail, read as a plain Cons is', () => {
  const o = observeDetailed(normalize, (xs: List<number>) => {
    const d = xs.force() as Cons<number>;
    return [d instanceof Cons, d.constructor === Cons, d.tag, d.head.force(), Object.assign(Object.create(Object.getPrototypeOf(d)) as Cons<number>, d).tail === d.tail].join(',');
  }, [fromArray([1])], { inputs: [list(number)] });
  assert.equal(prettyDemand(o.result), '"true,true,Cons,1,true"');
});

test('a generic copy of an input cell works as on plain cells, and the copy\'s head and tail are the observed ones: forcing them is recorded', () => {
  const setFirst = (xs: List<number>): List<number> => lazy(() => {
    const c = xs.force();
    return c instanceof Cons ? update(c, { head: now(0) }) : c;
  });
  assert.deepEqual(toArray(setFirst(fromArray([1, 2]))), [0, 2]);
  assert.deepEqual(observed(setFirst, [fromArray([1, 2])], { inputs: [list(number)], result: list(number) }), { result: '0 : 2 : []', inputs: ['_ : 2 : []'], error: undefined });
  // a copy that keeps the head: forcing it later is a demand on the input's head
  const firstOfCopy = (xs: List<number>): number => {
    const c = update(xs.force() as Cons<number>, {});
    return c.head.force();
  };
  assert.deepEqual(observed(firstOfCopy, [fromArray([1, 2])], { inputs: [list(number)] }), { result: '1', inputs: ['1 : _'], error: undefined });
});

/** A function in sloppy-mode code (no "use strict"), where a change to a frozen object is ignored without a word. */
const sloppy = <F>(params: string, body: string): F => new Function(params, body) as F;

/** Each function changes its input, in the way its name says; run plainly, the change shows in its result. */
const changes: [string, (x: any) => unknown, unknown, ObserveShapes][] = [
  ['Set add', (s: Lazy<Set<number>>) => (s.force().add(99), s.force().has(99)), now(new Set([1])), { inputs: [lazyOf(setOf(number))] }],
  ['Set delete', (s: Set<number>) => (s.delete(1), s.size), new Set([1]), { inputs: [setOf(number)] }],
  ['Set clear', (s: Set<number>) => (s.clear(), s.size), new Set([1]), { inputs: [setOf(number)] }],
  ['Map set', (m: Map<number, number>) => (m.set(1, 5), m.get(1)), new Map([[1, 2]]), { inputs: [mapOf(number, number)] }],
  ['Map delete', (m: Map<number, number>) => (m.delete(1), m.size), new Map([[1, 2]]), { inputs: [mapOf(number, number)] }],
  ['Map clear', (m: Map<number, number>) => (m.clear(), m.size), new Map([[1, 2]]), { inputs: [mapOf(number, number)] }],
  ['array push, caught', (a: Lazy<number[]>) => {
    try {
      a.force().push(9);
    } catch {
      // goes on
    }
    return a.force().length;
  }, now([1]), { inputs: [lazyOf(dynamic)] }],
  ['array element, sloppy', sloppy('a', 'a[0] = 5; return a[0];'), [1, 2], { inputs: [tuple(number, number)] }],
  ['array length, sloppy', sloppy('a', 'a.length = 0; return a.length;'), [1, 2], { inputs: [tuple(number, number)] }],
  ['record field, sloppy', sloppy('o', 'o.a = 5; return o.a;'), { a: 1 }, { inputs: [record({ a: number })] }],
  ['record field deleted, sloppy', sloppy('o', 'delete o.a; return o.a === undefined;'), { a: 1 }, { inputs: [record({ a: number })] }],
  ['record field added, sloppy', sloppy('o', 'o.b = 5; return o.b;'), { a: 1 }, { inputs: [record({ a: number })] }],
  ['record field, caught', (o: { a: number }) => {
    try {
      o.a = 5;
    } catch {
      // goes on
    }
    return o.a;
  }, { a: 1 }, { inputs: [record({ a: number })] }],
  ['record prototype, sloppy', sloppy('o', 'Object.setPrototypeOf(o, null); return 1;'), { a: 1 }, { inputs: [record({ a: number })] }],
  ['cell head, caught', (xs: List<number>) => {
    try {
      (xs.force() as { head: Lazy<number> }).head = now(9);
    } catch {
      // goes on
    }
    return 1;
  }, fromArray([1]), { inputs: [list(number)] }],
];

test('a change to an input, a Set, a Map, an array, a record or a list cell, in sloppy-mode code or caught, fails the observation naming the input and saying why; what changes nothing does not', () => {
  for (const [what, f, input, shapes] of changes) {
    const o = observeDetailed(normalize, f, [input], { ...shapes, names: ['xs'] });
    assert.ok(o.error !== undefined, `${what}: the change went unseen (result ${prettyDemand(o.result)})`);
    assert.ok(o.error.thrown instanceof TypeError, `${what}: ${String(o.error.thrown)}`);
    assert.match((o.error.thrown as Error).message, IMMUTABLE, what);
    assert.match((o.error.thrown as Error).message, /changed its input xs\b/, what);
  }
  // What does not change an input is no change: reading, copying, freezing it again, deleting a field it has not.
  const reads = (o: { a: number }, a: number[], s: Set<number>) => {
    Object.freeze(o);
    Object.freeze(a);
    delete (o as { b?: number }).b;
    return [{ ...o }.a, [...a].length, new Set(s).size, structuredClone(s).size, a.slice().concat([3]).length].join(',');
  };
  const unchanged = observed(reads, [{ a: 1 }, [1, 2], new Set([4])], { inputs: [record({ a: number }), tuple(number, number), setOf(number)] });
  assert.deepEqual(unchanged, { result: '"1,2,1,1,3"', inputs: ['{ a: 1 }', '(1, 2)', 'Set {4}'], error: undefined });
});

test('a check of a function that changes its input array and catches the error fails and says why, where it passed the spec it meets unchanged', () => {
  const lengthSpec = spec([lazyOf(tuple(number, number))], number, (predict, _d, a) => predict(a));
  const r = checkSpec(lengthSpec, changes[6]![1] as (a: Lazy<number[]>) => number, { seed: 1, trials: 20 });
  assert.equal(r.passed, false);
  assert.match(r.message, IMMUTABLE);
});

const numbers = iterable(number);
const thrownAfterOne = toContext(toDemand(pulls([1], 'throw'), numbers));

/** A hand-written iterable whose iterator yields 1, 2, … and whose throw() crashes with an error of its own. */
const crashingThrow = (_xs: Iterable<number>): Iterable<number> => {
  let i = 0;
  return {
    [Symbol.iterator]: () => ({
      next: () => ({ done: false, value: ++i }),
      throw: (): IteratorResult<number> => {
        throw new RangeError('its throw() crashed');
      },
    }),
  };
};

/** A generator whose finally block, run by a consumer's throw(), fails. */
function* failingCleanup(xs: Iterable<number>): Generator<number> {
  try {
    yield* [...xs].slice(0, 0);
    for (;;) yield 1;
  } finally {
    // eslint-disable-next-line no-unsafe-finally
    throw new RangeError('its cleanup failed');
  }
}

test("a function that gives an input array or record to structuredClone fails with a hint that the copy it was given is a Proxy, and how to copy it instead", () => {
  const clonesPair = (p: readonly [number, number]) => structuredClone(p)[0];
  const pair = checkSpec(spec([tuple(number, number)], number, (predict, _d, p) => predict(p)), clonesPair, { seed: 1, trials: 1 });
  assert.equal(pair.passed, false);
  assert.match(pair.message, /The function threw: DataCloneError: \[object Array\] could not be cloned\.\nHint: structuredClone \(or postMessage\) refused a Proxy: .*array, record, tuple.*\[\.\.\.array\] or \{ \.\.\.object \}/s);
  const clonesRecord = (r: { a: number }) => structuredClone(r).a;
  const o = observeDetailed(normalize, clonesRecord, [{ a: 1 }], { inputs: [record({ a: number })] });
  assert.match(String(o.error?.hint), /^Hint: structuredClone \(or postMessage\) refused a Proxy/);
  // A value that no run could clone (a function) gets no such hint.
  const clonesFunction = (_r: { a: number }) => structuredClone(() => 1);
  assert.equal(observeDetailed(normalize, clonesFunction, [{ a: 1 }], { inputs: [record({ a: number })] }).error?.hint, undefined);
});

test('a consumer\'s throw() into the result that fails with the function\'s own error (a hand-written throw() that crashes, a finally that throws) is the function\'s error', () => {
  for (const f of [crashingThrow, failingCleanup]) {
    const o = observeDetailed(thrownAfterOne, f, [[]], { inputs: [iterable(number, { finite: true })], result: numbers });
    assert.ok(o.error?.thrown instanceof RangeError, `${f.name}: ${String(o.error?.thrown)}`);
  }
  // the error thrown in, passed back, is the outcome the consumer asked for
  function* passesBack(): Generator<number> {
    for (;;) yield 1;
  }
  assert.equal(observeDetailed(thrownAfterOne, passesBack, [], { inputs: [], result: numbers }).error, undefined);
});

test('an async generator whose cleanup fails under a consumer\'s throw() is the function\'s error', async () => {
  const asyncNumbers = asyncIterable(number);
  async function* failing(): AsyncGenerator<number> {
    try {
      for (;;) yield 1;
    } finally {
      // eslint-disable-next-line no-unsafe-finally
      throw new RangeError('its cleanup failed');
    }
  }
  const o = await observeDetailedAsync(toContext(toDemand(pulls([1], 'throw'), asyncNumbers)), failing, [], { inputs: [], result: asyncNumbers });
  assert.ok(o.error?.thrown instanceof RangeError, String(o.error?.thrown));
});
