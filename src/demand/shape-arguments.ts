/**
 * The refusal of a shape argument that is no shape (a shape maker passed uncalled, `undefined`),
 * where a spec is made: used, it failed deep in a walk, naming neither the argument nor the fix
 * ("shape.project is not a function").
 * @module
 */
import { describeValue } from './shape-errors.ts';

/** The arguments of a call of each shape maker, for the fix a message names. */
const EXAMPLE_ARGUMENTS: { readonly [maker: string]: string } = {
  ...Object.fromEntries(['iterable', 'iterator', 'asyncIterable', 'asyncIterator', 'list', 'lazyOf', 'cell', 'setOf', 'option'].map((maker) => [maker, 'number'])),
  tuple: 'number, string',
  mapOf: 'string, number',
  either: 'number, string',
  record: '{ x: number }',
  fn: '[number], number',
  opaque: "'Date', { is: (v) => v instanceof Date }",
  data: "'Tree', (self) => ({ … })",
};

/** Whether `value` is a shape: what a walk reads of every shape. */
function isShape(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string' && typeof (value as { project?: unknown }).project === 'function';
}

/** Throws a TypeError where `value`, the shape of `what` (`args[0]`, `the result`), is no shape: naming the call to write where it is a function. */
function checkShape(value: unknown, what: string): void {
  if (isShape(value)) return;
  const prefix = `the shape of ${what} is not a shape`;
  if (typeof value !== 'function') throw new TypeError(`${prefix}: got ${describeValue(value)}; give a shape, such as number or list(number)`);
  const name = value.name || 'an anonymous function';
  const example = Object.hasOwn(EXAMPLE_ARGUMENTS, name) ? EXAMPLE_ARGUMENTS[name] : undefined;
  throw new TypeError(example === undefined ? `${prefix}: ${name} is a function, not a shape: if it makes one, call it` : `${prefix}: ${name} is a function making a shape: call it, e.g. ${name}(${example})`);
}

/** @internal Throws a TypeError naming the argument, or the result, whose shape is no shape, and the fix (see {@link checkShape}). */
export function checkShapes(args: unknown, result: unknown): void {
  if (!Array.isArray(args)) throw new TypeError(`the argument shapes are an array of one shape per argument ([number, list(number)]), got ${describeValue(args)}`);
  args.forEach((shape, i) => checkShape(shape, `args[${i}]`));
  checkShape(result, 'the result');
}
