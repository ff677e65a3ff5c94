/**
 * Shrinking the demand on an iterable result: a closing shrinks to an earlier one (fewer pulls,
 * still closed), before it shrinks to fewer pulls left open.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { number } from '../src/demand/primitives.ts';
import { toDemand } from '../src/demand/convert.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { shrinkDemand } from '../src/engine/shrink.ts';
import { iterable, pulls } from '../src/iter/index.ts';

const xs = iterable(number);
const shrinks = (d: number[], end: Parameters<typeof pulls>[1]) => [...shrinkDemand(toDemand(pulls(d, end), xs))].map((s) => prettyDemand(s));

test('a demand closing an iteration shrinks to closing it earlier, then to fewer pulls left open', () => {
  const shown = shrinks([1, 2], 'return');
  for (const smaller of ['return()', '1 : return()', '1 : _']) assert.ok(shown.includes(smaller), `${smaller} in ${shown.join(' | ')}`);
  assert.ok(shown.indexOf('1 : return()') < shown.indexOf('1 : _'), `closing earlier first: ${shown.join(' | ')}`);
  assert.ok(shrinks([1], 'throw').includes('throw()'));
});

test('a demand that pulled to the end or left the iteration open shrinks to fewer pulls only', () => {
  assert.ok(!shrinks([1, 2], 'done').some((s) => s.includes('return()')));
  assert.deepEqual(shrinks([1, 2], 'open').filter((s) => s.endsWith('[]')), []);
});

test("a demand closing an iteration with throw() shrinks to closing it with return() at the same pull, what a consumer's break does, before its first pull too: never the other way", () => {
  assert.ok(shrinks([1, 2], 'throw').includes('1 : 2 : return()'), shrinks([1, 2], 'throw').join(' | '));
  assert.deepEqual(shrinks([], 'throw'), ['return()']);
  assert.ok(!shrinks([1, 2], 'return').some((s) => s.includes('throw()')));
});
