/**
 * The library's walks over values and demands under hostile input: own `__proto__` properties,
 * Lazies whose value is themselves, shared structure, and demands on very long lists.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { arbitrary } from '../src/engine/generate.ts';
import { Seed } from '../src/engine/random.ts';
import { data, number, record, type DataShape, type Shape } from '../src/demand/shape.ts';
import { fromDemand, toDemand } from '../src/demand/convert.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { entangle } from '../src/demand/observe.ts';

// ---------------------------------------------------------------------------------------------
// An own `__proto__` property is a field

/** What `JSON.parse('{"__proto__": 1, "a": 2}')` makes: an object with an own property `__proto__`. */
const withOwnProto = () => JSON.parse('{"__proto__": 1, "a": 2}') as Record<string, unknown>;

function assertOwnProtoField(o: unknown, value: unknown): void {
  assert.equal(Object.getPrototypeOf(o), Object.prototype, 'the prototype is unchanged');
  assert.deepEqual(Object.getOwnPropertyDescriptor(o, '__proto__'), { value, writable: true, enumerable: true, configurable: true });
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
