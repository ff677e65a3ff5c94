/**
 * The specs of the iterator examples in the spec language (`src/spec/iter-combinators.ts`): one
 * combinator per argument, where the hand-written specs beside them (take.ts, zip.ts, …) read
 * the result's pulls and the source by hand. docs/iterators.md sets each beside its hand-written
 * twin; test/iter-combinators.test.ts checks that the two predict the same demands on thousands
 * of random cases, and fail the same buggy versions with the same counterexamples.
 * @module
 */
import { number } from '../../src/demand/primitives.ts';
import { specOf } from '../../src/spec/combinators.ts';
import { numbers } from './take.ts';
import { asyncNumbers } from './take-async.ts';
import { expand } from './flat-map.ts';
import { chunks, SIZE } from './chunk.ts';
import { pairs } from './zip.ts';
import { digitSources } from './resource.ts';

// take: n whenever the result is pulled; the source only when n > 0 (take returns before opening it), as far as the result, closed once n are taken
export const takeByCombinators = specOf([number, numbers], numbers, ({ whenDemanded, onlyWhen, pulledAsResult }) => [
  whenDemanded,
  onlyWhen((_d, n) => n > 0, pulledAsResult({ limit: (n) => n })),
]);

// take over async iterables: the same combinators
export const takeAsyncByCombinators = specOf([number, asyncNumbers], asyncNumbers, ({ whenDemanded, onlyWhen, pulledAsResult }) => [
  whenDemanded,
  onlyWhen((_d, n) => n > 0, pulledAsResult({ limit: (n) => n })),
]);

// zip: one pull of each per pull of the result; the first to end closes the other
export const zipByCombinators = specOf([numbers, numbers], pairs, ({ pulledInLockstep }) => [pulledInLockstep(), pulledInLockstep()]);

// flatMap(expand, xs): the fewest outer elements whose expansions hold the result's pulls
export const flatMapByCombinators = specOf([numbers], numbers, ({ pulledAsResult }) => [pulledAsResult({ yields: (x) => [...expand(x)].length })]);

// chunk: SIZE pulls of the source per chunk pulled
export const chunkByCombinators = specOf([numbers], chunks, ({ pulledAsResult }) => [pulledAsResult({ pulls: (k) => SIZE * k })]);

// firstEven: up to the first even element, then closed
export const firstEvenByCombinators = specOf([digitSources], number, ({ pulledUntil }) => [pulledUntil((x) => x % 2 === 0)]);
