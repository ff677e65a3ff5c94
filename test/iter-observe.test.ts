/**
 * Observing functions over iterables: an instrumented source records each iteration's pulls and
 * events (a source's `finally` runs when it is closed), and a context consumes an iterable result
 * as far as a demand says.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { ForceBudgetExceeded, withForceBudget } from '../src/lazy/lazy.ts';
import { number } from '../src/demand/primitives.ts';
import { toDemand } from '../src/demand/convert.ts';
import { normalize, observeDetailed, toContext, whnf } from '../src/demand/observe.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { randomContext } from '../src/engine/context.ts';
import { Seed } from '../src/engine/random.ts';
import { iterable, iterator, pulls, Source } from '../src/iter/index.ts';
import { take } from '../examples/iterators/take.ts';

const xs = iterable(number);
const its = iterator(number);
/** A source whose iterators are generators, with `return` (an array's iterators have none). */
const src = (...elements: number[]) => new Source({ elements, infinite: false, hasReturn: true });

/** Observes `f` on `inputs` of shape iterable(number), its result consumed by `context`. */
function run(context: Parameters<typeof observeDetailed>[0], f: (...a: any[]) => unknown, ...inputs: unknown[]) {
  const o = observeDetailed(context, f, inputs, { inputs: inputs.map(() => xs), result: xs });
  if (o.error) throw o.error.thrown;
  return { result: prettyDemand(o.result), inputs: o.inputs.map((d) => prettyDemand(d)) };
}

describe('observing a function over an iterable', () => {
  test('records the pulls of a source and its closing by for-of', () => {
    const o = run(normalize, (it: Iterable<number>) => take(2, it), src(1, 2, 3));
    assert.deepEqual(o, { result: '1 : 2 : []', inputs: ['1 : 2 : return()'] });
    // An array's iterator has no return(): for-of cannot close it.
    assert.deepEqual(run(normalize, (it: Iterable<number>) => take(2, it), [1, 2, 3]), { result: '1 : 2 : []', inputs: ['1 : 2 : _'] });
  });

  test('records a source pulled to its end', () => {
    assert.deepEqual(run(normalize, (it: Iterable<number>) => take(5, it), [1, 2]), { result: '1 : 2 : []', inputs: ['1 : 2 : []'] });
  });

  test('a context following a demand pulls as far as it says, then abandons or closes', () => {
    const f = (it: Iterable<number>) => take(5, it);
    assert.deepEqual(run(toContext(toDemand(pulls([1], 'open'), xs)), f, src(1, 2, 3)), { result: '1 : _', inputs: ['1 : _'] });
    assert.deepEqual(run(toContext(toDemand(pulls([1], 'return'), xs)), f, src(1, 2, 3)), { result: '1 : return()', inputs: ['1 : return()'] });
    assert.deepEqual(run(toContext(toDemand(pulls([], 'return'), xs)), f, src(1, 2, 3)), { result: 'return()', inputs: ['_'] });
    assert.deepEqual(run(toContext(toDemand(pulls([1], 'throw'), xs)), f, src(1, 2, 3)), { result: '1 : throw()', inputs: ['1 : return()'] });
    assert.deepEqual(run(whnf, f, src(1, 2, 3)), { result: '1 : _', inputs: ['1 : _'] });
  });

  test('runs a source generator\'s finally when the function closes it', () => {
    let released = 0;
    function* resource() {
      try {
        yield 1;
        yield 2;
        yield 3;
      } finally {
        released++;
      }
    }
    const o = observeDetailed(normalize, (it: Iterator<number>) => take(1, { [Symbol.iterator]: () => it }), [resource()], { inputs: [its], result: xs });
    assert.equal(prettyDemand(o.inputs[0]!), '1 : return()');
    assert.equal(released, 1);
  });

  test('records each iteration of a re-iterable source', () => {
    const twice = (it: Iterable<number>) => {
      const first = it[Symbol.iterator]().next().value as number;
      return [first, ...it];
    };
    const o = observeDetailed(normalize, twice, [[4, 5]], { inputs: [xs] });
    assert.equal(prettyDemand(o.inputs[0]!), 'Iterations (4 : _) (4 : 5 : [])');
  });

  test('records a pull that throws in the source as ⊥', () => {
    const source = new Source({ elements: [1, 2], infinite: false, throwAt: 1, hasReturn: true });
    assert.deepEqual(run(normalize, (it: Iterable<number>) => take(3, it), source), { result: '1 : ⊥', inputs: ['1 : ⊥'] });
  });

  test('has no return() on a source without one, so closing it is not recorded', () => {
    const source = new Source({ elements: [1, 2, 3], infinite: false, hasReturn: false });
    assert.deepEqual(run(normalize, (it: Iterable<number>) => take(1, it), source), { result: '1 : []', inputs: ['1 : _'] });
  });

  test('counts each pull as a force, so pulling an infinite source for ever is stopped by the budget', { timeout: 20_000 }, () => {
    const source = new Source({ elements: [1], infinite: true, hasReturn: true });
    assert.throws(() => withForceBudget(10_000, () => run(whnf, (it: Iterable<number>) => [...it], source)), ForceBudgetExceeded);
    assert.throws(() => withForceBudget(10_000, () => run(normalize, (it: Iterable<number>) => it, source)), ForceBudgetExceeded);
  });

  test('random contexts pull, abandon, close and exhaust the result, always demanding something', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const o = run(randomContext(Seed.of(i), 4), (it: Iterable<number>) => take(3, it), src(1, 2, 3, 4));
      assert.notEqual(o.result, '_');
      seen.add(o.result.replace(/\d+/g, 'x'));
    }
    for (const kind of ['x : _', 'return()', 'x : return()', 'x : x : x : []', 'throw()']) assert.ok(seen.has(kind), `${kind} in ${[...seen].join(', ')}`);
  });
});
