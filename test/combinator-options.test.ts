/**
 * The options objects of the spec language's combinators and of the shapes that take one are
 * checked as a check's options are: run without types (JavaScript, a cast), a misspelt option was
 * ignored, and the spec meant something else than it said.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSpec, iterable, list, lazyOf, number, opaque, specOf, type LazyList, type SpecLanguage } from '../src/index.ts';

const numbers = iterable(number);

/** A spec of an iterable and a number whose first argument's rule `rule` makes: made (and its rules with it) when specOf is called. */
const iterSpec = (rule: (l: SpecLanguage<readonly [Iterable<number>, number], Iterable<number>>) => unknown) => () => specOf([numbers, number], numbers, (l) => [rule(l) as never, l.whenDemanded]);
/** A spec of a list whose argument's rule `rule` makes. */
const listSpec = (rule: (l: SpecLanguage<readonly [LazyList<number>], LazyList<number>>) => unknown) => () => specOf([list(number)], list(number), (l) => [rule(l) as never]);

test('a misspelt option of pulledAsResult is refused where the spec is made, naming the option meant', () => {
  assert.throws(iterSpec((l) => l.pulledAsResult({ limt: (_xs: unknown, n: number) => n } as never)), {
    name: 'RangeError',
    message: /^unknown option "limt" of pulledAsResult \(did you mean limit\?\); the options here are pulls, yields, limit, delegates, closesUnstarted$/,
  });
});

test('a misspelt option of pulledInLockstep is refused, naming closesUnstarted', () => {
  assert.throws(
    () => specOf([numbers, numbers], numbers, ({ pulledInLockstep }) => [pulledInLockstep({ closeUnstarted: true } as never), pulledInLockstep()]),
    /^RangeError: unknown option "closeUnstarted" of pulledInLockstep \(did you mean closesUnstarted\?\)/,
  );
});

test('an option of a combinator of the wrong type is refused, naming the option and the combinator', () => {
  assert.throws(iterSpec((l) => l.pulledAsResult({ limit: 3 } as never)), { name: 'TypeError', message: 'limit of pulledAsResult must be a function, got 3' });
  assert.throws(iterSpec((l) => l.pulledInLockstep({ closesUnstarted: 'yes' } as never)), { name: 'TypeError', message: 'closesUnstarted of pulledInLockstep must be a boolean, got "yes"' });
});

test('the list combinators asResult, resultFrom and untilFound refuse a misspelt option too', () => {
  assert.throws(listSpec((l) => l.asResult({ stopEarly: () => true } as never)), /unknown option "stopEarly" of asResult \(did you mean stopsEarly\?\); the options here are stopsEarly, atMost, elements$/);
  assert.throws(listSpec((l) => l.resultFrom(() => 0, { reverse: true } as never)), /unknown option "reverse" of resultFrom \(did you mean reversed\?\)/);
  assert.throws(listSpec((l) => l.untilFound(() => true, { counts: () => 1 } as never)), /unknown option "counts" of untilFound \(did you mean count\?\)/);
  assert.throws(listSpec((l) => l.resultFrom(() => 0, { reversed: 1 } as never)), /reversed of resultFrom must be a boolean, got 1/);
});

test('options given as undefined are left to their defaults, as TypeScript allows them', () => {
  const s = specOf([numbers, number], numbers, ({ pulledAsResult, whenDemanded, onlyWhen }) => [
    onlyWhen((_d, _xs, n) => n > 0, pulledAsResult({ limit: (_xs, n) => n, pulls: undefined, closesUnstarted: undefined })),
    whenDemanded,
  ]);
  function* take(xs: Iterable<number>, n: number) {
    if (n <= 0) return;
    for (const x of xs) {
      yield x;
      if (--n <= 0) return;
    }
  }
  assert.equal(checkSpec(s, take, { seed: 1, trials: 50 }).passed, true);
});

test('opaque refuses a misspelt option and an option of the wrong type', () => {
  assert.throws(() => opaque<Date>('Date', { equal: (a: Date, b: Date) => a.getTime() === b.getTime() } as never), /^RangeError: unknown option "equal" of opaque \(did you mean equals\?\); the options here are is, equals, show, arbitrary$/);
  assert.throws(() => opaque<Date>('Date', { isEqual: () => true } as never), /^RangeError: unknown option "isEqual" of opaque; the options here are is, equals, show, arbitrary$/);
  assert.throws(() => opaque<Date>('Date', { show: 'iso' } as never), { name: 'TypeError', message: 'show of opaque must be a function, got "iso"' });
  assert.throws(() => opaque<Date>('Date', { arbitrary: () => new Date() } as never), { name: 'TypeError', message: /^arbitrary of opaque must be a fast-check arbitrary \(fc\.date\(\), …\), got / });
  assert.doesNotThrow(() => lazyOf(opaque<Date>('Date', { is: (v) => v instanceof Date, show: undefined })));
});

test('options of a combinator or a shape that are not an object are refused, not read as none', () => {
  assert.throws(iterSpec((l) => l.pulledAsResult(5 as never)), { name: 'TypeError', message: 'the options of pulledAsResult are an object, got 5' });
  assert.throws(iterSpec((l) => l.pulledInLockstep(null as never)), { name: 'TypeError', message: 'the options of pulledInLockstep are an object, got null' });
  assert.throws(() => opaque('Date', true as never), { name: 'TypeError', message: 'the options of opaque are an object, got true' });
});
