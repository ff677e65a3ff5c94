/**
 * The value form of an async iterable's demand round-trips: what `fromDemand` gives, `toDemand`
 * reads back equal, `Ahead n` kept at each iteration read ahead; only the demand a spec receives
 * is its iterations alone (see test/iter-async-ahead.test.ts).
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { number } from '../src/demand/primitives.ts';
import { fromDemand, toDemand } from '../src/demand/convert.ts';
import { demandEquals } from '../src/demand/demand.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { asyncIterable, asyncIterator, iterations, pulls, readAhead, type IterationEnd } from '../src/iter/index.ts';

const asyncNumbers = asyncIterable(number);

function roundTrip(value: unknown, shape: typeof asyncNumbers): { before: string; after: string; equal: boolean } {
  const d = toDemand(value as never, shape);
  const d2 = toDemand(fromDemand(d, shape), shape);
  return { before: prettyDemand(d), after: prettyDemand(d2), equal: demandEquals(d, d2) };
}

const ends: IterationEnd[] = ['open', 'done', 'return', 'throw', 'threw'];
const iteration = fc.record({ elems: fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 4 }), end: fc.constantFrom(...ends), ahead: fc.integer({ min: 1, max: 4 }) })
  .map(({ elems, end, ahead }) => readAhead(ahead, pulls(elems, end)));

describe('an async iterable demand, through fromDemand and toDemand', () => {
  test('read ahead, closed by the consumer, reads back Ahead 2 (1 : 2 : return())', () => {
    const r = roundTrip(readAhead(2, pulls([1, 2], 'return')), asyncNumbers);
    assert.equal(r.after, 'Ahead 2 (1 : 2 : return())');
    assert.ok(r.equal);
  });

  test('keeps the reading ahead of a second iteration', () => {
    const r = roundTrip(iterations(pulls([1], 'open'), readAhead(3, pulls([1], 'done'))), asyncNumbers);
    assert.equal(r.after, 'Iterations (1 : _) (Ahead 3 (1 : []))');
    assert.ok(r.equal);
  });

  test('reads back equal for random iterations, read ahead or not, at several iterations', () => {
    fc.assert(
      fc.property(fc.array(iteration, { minLength: 1, maxLength: 4 }), (each) => {
        const r = roundTrip(iterations(...each), asyncNumbers);
        assert.ok(r.equal, `${r.before} read back as ${r.after}`);
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  test('reads back equal for an async iterator read ahead', () => {
    fc.assert(
      fc.property(iteration, (it) => {
        const r = roundTrip(it, asyncIterator(number) as never);
        assert.ok(r.equal, `${r.before} read back as ${r.after}`);
      }),
      { numRuns: 200, seed: 7 },
    );
  });
});
