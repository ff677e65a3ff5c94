/**
 * A shape argument that is no shape (a shape maker passed uncalled, undefined) is refused where the
 * spec is made, naming the argument and the fix: used, it failed deep in a walk
 * ("shape.project is not a function", "reading 'protocol'").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertSameStrictnessAsync, asyncIterable, checkSameStrictness, checkSameStrictnessAsync, inferSpec, inferSpecAsync, iterable, list, number, spec, specOf, tuple } from '../src/index.ts';

test('a shape maker passed uncalled as an input shape is refused by spec, naming the input and the call to write', () => {
  assert.throws(() => spec([iterable, number] as never, number, (predict, _d, xs, n) => predict(xs, n)), {
    name: 'TypeError',
    message: 'the shape of args[0] is not a shape: iterable is a function making a shape: call it, e.g. iterable(number)',
  });
});

test('an undefined result shape is refused by specOf, naming the result', () => {
  assert.throws(() => specOf([list(number)], undefined as never, ({ whenDemanded }) => [whenDemanded]), {
    name: 'TypeError',
    message: /^the shape of the result is not a shape: got undefined/,
  });
});

test('a shape maker of several shapes is named with a call of its own', () => {
  assert.throws(() => specOf([number, tuple] as never, number, ({ whenDemanded }) => [whenDemanded, whenDemanded]), /args\[1\] is not a shape: tuple is a function making a shape: call it, e.g. tuple\(number, string\)/);
});

test('a function of the user that is no shape maker is refused as a function, not a shape', () => {
  const numbers = () => number;
  assert.throws(() => spec([numbers] as never, number, (predict, _d, x) => predict(x)), { message: 'the shape of args[0] is not a shape: numbers is a function, not a shape: if it makes one, call it' });
});

test('the argument shapes given as one shape, not an array, are refused', () => {
  assert.throws(() => spec(number as never, number, (predict, _d, x) => predict(x)), { name: 'TypeError', message: /^the argument shapes are an array of one shape per argument \(\[number, list\(number\)\]\), got an object/ });
});

test('checkSameStrictness and inferSpec refuse a shape passed uncalled before they run', () => {
  const id = (xs: Iterable<number>) => xs;
  assert.throws(() => checkSameStrictness([iterable] as never, iterable(number), id as never, id as never), /args\[0\] is not a shape: iterable is a function making a shape/);
  assert.throws(() => inferSpec([iterable(number)], iterable as never, id), /the shape of the result is not a shape: iterable is a function making a shape/);
});

test('the asynchronous inference and same-strictness checks reject a shape passed uncalled, as they reject a bad option, not throw', async () => {
  const id = (xs: AsyncIterable<number>) => xs;
  const calls = [
    () => inferSpecAsync([asyncIterable(number)], asyncIterable as never, id),
    () => checkSameStrictnessAsync([asyncIterable] as never, asyncIterable(number), id as never, id as never),
    () => assertSameStrictnessAsync([asyncIterable] as never, asyncIterable(number), id as never, id as never),
  ];
  for (const call of calls) {
    let made: Promise<unknown> | undefined;
    assert.doesNotThrow(() => void (made = call()));
    await assert.rejects(made!, /is not a shape: asyncIterable is a function making a shape/);
  }
});
