/**
 * The library's walks over values and demands under hostile input: own `__proto__` properties,
 * Lazies whose value is themselves, shared structure, and demands on very long lists.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { defer, Lazy, lazy, LazyLoopError, now, thunk } from '../src/lazy/lazy.ts';
import * as L from '../src/lazy/list.ts';
import { cons, fromArray } from '../src/lazy/list.ts';
import type { List as LazyList } from '../src/lazy/cell.ts';
import type { SpineCell } from '../src/demand/compact-demand.ts';
import { withArbitrary } from '../src/engine/fast-check-bridge.ts';
import { spec } from '../src/spec/spec.ts';
import { arbitrary } from '../src/engine/generate.ts';
import { Seed } from '../src/engine/random.ts';
import { data, type DataShape } from '../src/demand/declared-data.ts';
import { dynamic } from '../src/demand/dynamic.ts';
import { number } from '../src/demand/primitives.ts';
import { record } from '../src/demand/records.ts';
import { ShapeMismatchError } from '../src/demand/shape-errors.ts';
import type { Shape } from '../src/demand/shape-types.ts';
import { evaluatedPart, fromDemand, toDemand } from '../src/demand/convert.ts';
import { prettyDemand, prettyValue } from '../src/demand/print.ts';
import { entangle, normalize, observe, whnf } from '../src/demand/observe.ts';
import { checkSpec } from '../src/checks.ts';

// ---------------------------------------------------------------------------------------------
// An own `__proto__` property is a field

/** What `JSON.parse('{"__proto__": 1, "a": 2}')` makes: an object with an own property `__proto__`. */
const withOwnProto = () => JSON.parse('{"__proto__": 1, "a": 2}') as Record<string, unknown>;

function assertOwnProtoField(o: unknown, value: unknown): void {
  assert.equal(Object.getPrototypeOf(o), Object.prototype, 'the prototype is unchanged');
  // a copy given to a function is frozen (test/input-mutation.test.ts)
  const frozen = Object.isFrozen(o);
  assert.deepEqual(Object.getOwnPropertyDescriptor(o, '__proto__'), { value, writable: !frozen, enumerable: true, configurable: !frozen });
}

test('the copy given to a function keeps an own __proto__ property as a field, not as its prototype', () => {
  const [copy] = entangle(withOwnProto());
  assertOwnProtoField(copy, 1);
  assert.equal((copy as Record<string, unknown>).a, 2);
});

test('fromDemand keeps an own __proto__ property as a field', () => {
  const d = toDemand(withOwnProto());
  assert.equal(prettyDemand(d), '{ ["__proto__"]: 1, a: 2 }');
  assertOwnProtoField(fromDemand(d), 1);
});

test('a record declared with a field named __proto__ builds and generates values with it as a field', () => {
  const shape = record({ ['__proto__']: number, a: number }) as unknown as Shape<Record<string, unknown>>;
  assertOwnProtoField(fromDemand(toDemand(withOwnProto(), shape), shape), 1);
  const made = arbitrary(shape)(Seed.of(1).stream(), 5);
  assertOwnProtoField(made, made['__proto__']);
  assert.equal(typeof Object.getOwnPropertyDescriptor(made, '__proto__')?.value, 'number');
});

test('a data constructor named __proto__ is one of make, and builds its values', () => {
  type T = { tag: '__proto__'; x: number } | { tag: 'B' };
  const T: DataShape<T> = data<T>('T', () => ({ ['__proto__']: { x: number }, B: {} }) as never);
  assert.ok(Object.hasOwn(T.make, '__proto__'), 'make has the constructor');
  assert.deepEqual(Object.keys(T.make), ['__proto__', 'B']);
  const v = (T.make as Record<string, (f: object) => T>)['__proto__']!({ x: 3 });
  assert.equal(v.tag, '__proto__');
  assert.equal(prettyDemand(toDemand(v, T)), "__proto__ 3");
});

test('a data declaration written with a __proto__ key in an object literal, which sets its prototype, is refused naming how to write it', () => {
  const T = data<{ tag: 'A'; x: number }>('T', () => ({ __proto__: { x: number }, A: { x: number } }) as never);
  assert.throws(() => T.make, /__proto__/);
});

test('a data field named tag, the discriminant, is refused with a clear error', () => {
  type T = { tag: 'A' };
  const T = data<T>('T', () => ({ A: { tag: number } }) as never);
  assert.throws(() => T.make, /field named 'tag'.*discriminant/);
});

// ---------------------------------------------------------------------------------------------
// A Lazy whose value would be itself

const LOOP = { timeout: 30_000 };

/** Forces `l`, keeping what it throws: the loops below are built by forcing, which must refuse them. */
function attempt(l: Lazy<unknown>): unknown {
  try {
    return l.force();
  } catch (err) {
    return err;
  }
}

/** Loops of Lazies a user can build with the public API, each forced as far as it goes. */
function loops(): [string, Lazy<unknown>][] {
  const self: Lazy<unknown> = lazy(() => self);
  const a: Lazy<unknown> = lazy(() => b);
  const b: Lazy<unknown> = lazy(() => a);
  const wrapped: Lazy<unknown> = lazy(() => now(now(wrapped)));
  const mapped: Lazy<unknown> = now(1).map(() => mapped);
  const deferred: Lazy<unknown> = defer(() => now(deferred));
  for (const l of [self, a, b, a, wrapped, mapped, deferred]) attempt(l);
  return Object.entries({ self, a, b, wrapped, mapped, deferred });
}

/** Forces `l` and the Lazies it holds, until a value that is no Lazy. */
function forceThrough(l: Lazy<unknown>): unknown {
  let v: unknown = l;
  while (v instanceof Lazy) v = v.force();
  return v;
}

test('a Lazy whose value would be itself, directly or through other Lazies, is a <<loop>> when forced through, and stays unevaluated', LOOP, () => {
  for (const [name, l] of loops()) {
    for (let i = 0; i < 2; i++) assert.throws(() => forceThrough(l), (err) => err instanceof LazyLoopError && /itself/.test(err.message), name);
  }
  const [, self] = loops()[0]!;
  assert.equal(self.isEvaluated, false);
  assert.equal(String(self), 'Lazy(<unevaluated>)');
});

test('a value holding a loop of Lazies is refused with the <<loop>> by toDemand, observe and normalize, and read as unevaluated by evaluatedPart', LOOP, () => {
  for (const [name, l] of loops()) {
    const holder = { f: l, g: cons(1, l as Lazy<never>) };
    assert.throws(() => toDemand(holder), LazyLoopError, name);
    assert.throws(() => observe(normalize, () => holder), LazyLoopError, name);
    assert.throws(() => observe(whnf, () => l), LazyLoopError, name);
    assert.match(prettyDemand(evaluatedPart(holder)), /^\{ f: (_|.*), g: 1 : .* \}$/, name);
    // A function that never looks at it is observed as usual.
    assert.equal(prettyDemand(observe(normalize, (_h: unknown) => 1, holder).inputs[0]!), '{ f: _, g: _ }');
  }
});

test('a value holding a loop of Lazies prints through String and util.inspect, and prettyValue refuses it with the <<loop>>', LOOP, () => {
  for (const [name, l] of loops()) {
    assert.match(String(l), /^Lazy\(/, name);
    assert.match(inspect({ f: l }), /f: /, name);
    // prettyValue forces what it prints, and an error it meets propagates.
    assert.throws(() => prettyValue({ f: l }), LazyLoopError, name);
  }
});

test('a failing check whose input holds a loop of Lazies returns its report, with the counterexample and the <<loop>>', LOOP, () => {
  const self: Lazy<unknown> = lazy(() => self);
  attempt(self);
  const input = { f: self };
  const s = spec([withArbitrary(fc.constant(input), dynamic)], dynamic, (predict) => predict(thunk));
  const result = checkSpec(s as never, (o: { f: Lazy<unknown> }) => (o.f.force(), 1), { trials: 3, seed: 1 });
  assert.equal(result.passed, false);
  assert.match(result.message, /LazyLoopError/);
  assert.match(result.message, /\{ f: /, 'the counterexample is shown');
});

// ---------------------------------------------------------------------------------------------
// Long lists

test('fromDemand builds a list from a demand on it without adding to the demand: its heads stay as recorded', () => {
  const n = 100_000;
  const d = toDemand(fromArray(Array.from({ length: n }, (_, i) => i)));
  const xs = fromDemand<LazyList<number>>(d);
  assert.equal(L.length(xs), n);
  assert.equal(L.toArray(xs)[n - 1], n - 1);
  const { spine } = d as unknown as SpineCell;
  for (let k = 0; k < n; k++) assert.equal(typeof spine.head(k), 'number', `head ${k}`);
});

test('a record declared with a field named __proto__ refuses a value without it, rather than reading its prototype as the field', () => {
  const shape = record({ ['__proto__']: dynamic, a: number }) as unknown as Shape<Record<string, unknown>>;
  assert.throws(() => toDemand({ a: 1 }, shape), (err) => err instanceof ShapeMismatchError && /field '__proto__'/.test(err.message));
});
