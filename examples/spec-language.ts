/**
 * The specs of the examples written in the spec language (`src/spec/combinators.ts`): one
 * combinator per argument, one or two lines a spec. `docs/specs.md` sets each beside its
 * hand-written version, and `test/spec-language.test.ts` checks that the two predict the same
 * demands on every case up to a depth.
 * @module
 */
import * as L from '../src/lazy/list.ts';
import { lazyOf, list } from '../src/demand/lazy-positions.ts';
import { boolean, number } from '../src/demand/primitives.ts';
import { tuple } from '../src/demand/tuples.ts';
import { specify1 } from '../src/spec/spec.ts';
import { specOf } from '../src/spec/combinators.ts';
import { fieldDemand } from '../src/demand/value-form.ts';
import { elementFn } from './list-specs.ts';
import { predicate } from './and-filter.ts';

const numbers = list(number);
const pairs = list(tuple(lazyOf(number), lazyOf(number)));

// take: n whenever the result is demanded; xs as far as the result, but for the [] that ends it when n runs out first
export const takeByCombinators = specOf([lazyOf(number), numbers], numbers, ({ whenDemanded, asResult }) => [
  whenDemanded,
  asResult({ stopsEarly: (n, xs) => n.force() <= L.length(xs) }),
]);

// take' (the paper's, which looks at xs first): n only once xs has a cell; xs one constructor per
// constructor of the result, so when n runs out first, the cell after the result's
export const takePrimeByCombinators = specOf([lazyOf(number), numbers], numbers, ({ forcedWhen, asResult }) => [
  forcedWhen((_d, _n, xs) => !L.isEmpty(xs)),
  asResult(),
]);

// map: f when some element of the result is; xs as far as the result, each element as f demands it
export const mapByCombinators = specOf([elementFn, numbers], numbers, ({ forcedWhen, asResult }) => [
  forcedWhen(L.anyElementDemanded),
  asResult({ elements: (dy, x, f) => specify1(f, dy, x) }),
]);

// and: up to the first False
export const andByCombinators = specOf([list(boolean)], boolean, ({ shortCircuits }) => [shortCircuits(false)]);

// zip: xs as far as the result, ys too but only beside a cons of xs; the pairs' components as the result's
export const zipByCombinators = specOf([numbers, numbers], pairs, ({ asResult }) => [
  asResult({ elements: (p) => fieldDemand(p, 0) }),
  asResult({ elements: (p) => fieldDemand(p, 1), atMost: (xs) => L.length(xs) }),
]);

// xs ++ ys: xs as far as the result, up to its []; ys as the rest of the result past xs
export const appendByCombinators = specOf([numbers, numbers], numbers, ({ asResult, resultFrom }) => [
  asResult({ atMost: (xs) => L.length(xs) + 1 }),
  resultFrom((xs) => L.length(xs)),
]);

// filter p xs: p if xs has an element; xs up to as many kept elements as the result has cells, all of it once the result ended
export const filterByCombinators = specOf([predicate, numbers], numbers, ({ forcedWhen, untilFound }) => [
  forcedWhen((_d, _p, xs) => !L.isEmpty(xs)),
  untilFound((x, p) => p(x), { count: (d) => (L.isCapped(d) ? Infinity : L.spineForced(d)) }),
]);

// rot_simple_spec (fs ++ reverse bs): fs as xs in ++; bs as reverse demands it under the rest of the result past fs
export const rotSimpleByCombinators = specOf([numbers, numbers], numbers, ({ asResult, resultFrom }) => [
  asResult({ atMost: (fs) => L.length(fs) + 1 }),
  resultFrom((fs) => L.length(fs), { reversed: true }),
]);

// length: spine-strict, element-lazy
export const lengthByCombinators = specOf([numbers], number, ({ spineStrict }) => [spineStrict]);

// reverse: the whole spine, elements as the result's, reversed
export const reverseByCombinators = specOf([numbers], numbers, ({ resultFrom }) => [resultFrom(() => 0, { reversed: true })]);
