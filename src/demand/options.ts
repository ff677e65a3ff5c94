/**
 * Options declared as tables of descriptors, and their checks, shared by every entry point:
 * running through tsx checks no types, so a misspelt option or a value of the wrong kind would
 * otherwise be ignored without a word.
 * @module
 */

/** @internal An option's value as an error message shows it. */
export function showOption(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

/**
 * @internal What a table of options says of one option of type `T`: how its value is checked,
 * and what it is where none is given.
 */
export interface OptionDescriptor<T> {
  /** Throws an error naming the option (`name`) unless `value`, given, is one it can have. */
  readonly check: (value: unknown, name: string) => void;
  /** Its value where none is given (made per run: a seed is drawn, the terminal asked). */
  readonly default?: () => T;
  /** Whether it must be given: its check then sees `undefined` too. */
  readonly required?: true;
}

/**
 * @internal Checks `options` against `table`: an option not among `names` (those the call
 * accepts, in the order an error lists them; by default, all of the table's) is refused with the known one closest to it, then
 * each option given, and each one required, is checked by its descriptor. The errors name the
 * options of `of` (a combinator, a shape) so, where one is given, and then options that are not
 * an object are refused.
 */
export function checkDeclared(options: object, table: { readonly [name: string]: OptionDescriptor<unknown> }, of?: string, names: readonly string[] = Object.keys(table)): void {
  // Untyped (JavaScript, a cast), a number or null would read as no options at all.
  if (of !== undefined && (typeof options !== 'object' || options === null)) throw new TypeError(`the options of ${of} are an object, got ${showOption(options)}`);
  checkKnownOptions(options, names, of);
  for (const name of names) {
    const value = (options as Record<string, unknown>)[name];
    const option = table[name]!;
    if (value !== undefined || option.required) option.check(value, of === undefined ? name : `${name} of ${of}`);
  }
}

/** Options of other property-testing tools that are one of strictcheck's under another name: the tool, and the name here. */
const OTHER_TOOLS: { readonly [name: string]: readonly [tool: string, here: string] } = {
  numRuns: ['fast-check', 'trials'],
  maxSuccess: ['QuickCheck', 'trials'],
  max_examples: ['Hypothesis', 'trials'],
};

/**
 * @internal Throws a RangeError naming an option of `options` that is not one of `known` (an
 * option of `of`, where given), and the known one it stands for: another tool's name for it, or
 * the one closest to it (misspelt, or within it: `maxTrials`).
 */
export function checkKnownOptions(options: object, known: readonly string[], of?: string): void {
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const other = Object.hasOwn(OTHER_TOOLS, key) ? OTHER_TOOLS[key]! : undefined;
    const near = nearest(key, known);
    const hint = other && known.includes(other[1]) ? ` (${other[0]}'s name: here it is ${other[1]})` : didYouMean(near);
    throw new RangeError(`unknown option ${showOption(key)}${of === undefined ? '' : ` of ${of}`}${hint}; the options here are ${known.join(', ')}`);
  }
}

/**
 * @internal The one of `known` that `key` stands for, misspelt (`trails`) or within it
 * (`maxTrials`): a message's "did you mean". The closest, as far as its length allows: a name of
 * one or two letters (an argument's `n`, `xs`; opaque's `is`) is one edit from most short keys, and
 * within many words, so it is suggested for none; nor is anything for a number (an index out of range).
 */
export function nearest(key: string, known: readonly string[]): string | undefined {
  if (/^\d+$/.test(key)) return undefined;
  const lower = key.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const k = name.toLowerCase();
    const allowed = k.length >= 5 ? 2 : k.length >= 3 ? 1 : 0;
    const distance = k.length >= 4 && lower.includes(k) ? 0 : editDistance(k, lower);
    if (allowed > 0 && distance <= allowed && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** @internal What a message adds of the name `meant` by a misspelt one ({@link nearest}), if any. */
export const didYouMean = (meant: string | undefined): string => (meant === undefined ? '' : ` (did you mean ${meant}?)`);

/**
 * @internal The check of an integer option from `min` to `max`, or Infinity when `max` is (a
 * limit that means none): a NaN or a negative count would otherwise run nothing and pass.
 */
export function integer(min: number, max = Number.MAX_SAFE_INTEGER): OptionDescriptor<number>['check'] {
  return (value, name) => {
    if ((value === Infinity && max === Infinity) || (Number.isInteger(value) && (value as number) >= min && (value as number) <= max)) return;
    const integer = min === 0 ? 'a non-negative integer' : min === 1 ? 'a positive integer' : 'an integer';
    const what = max === Infinity ? `${integer} or Infinity (no limit)` : max !== Number.MAX_SAFE_INTEGER ? `an integer from ${min} to ${max}` : integer;
    throw new RangeError(`${name} must be ${what}, got ${showOption(value)}`);
  };
}

/** @internal The check of an option of a `typeof`, such as `'boolean'` or `'function'`. */
export function ofType(type: 'boolean' | 'function'): OptionDescriptor<unknown>['check'] {
  const what = type === 'boolean' ? 'a boolean' : 'a function';
  return (value, name) => {
    if (typeof value !== type) throw new TypeError(`${name} must be ${what}, got ${showOption(value)}`);
  };
}

/** @internal An option that is a function, or a boolean, with no default (a combinator's, a shape's). */
export const FUNCTION_OPTION: OptionDescriptor<unknown> = { check: ofType('function') };
export const BOOLEAN_OPTION: OptionDescriptor<unknown> = { check: ofType('boolean') };

/** @internal The check of an option that is one of `values`, named as `'a' or 'b'`. */
export function oneOf(...values: readonly string[]): OptionDescriptor<unknown>['check'] {
  return (value, name) => {
    if (!values.includes(value as string)) throw new RangeError(`${name} must be ${values.map((v) => `'${v}'`).join(' or ')}, got ${showOption(value)}`);
  };
}

/** Levenshtein distance, for suggesting an option name. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}
