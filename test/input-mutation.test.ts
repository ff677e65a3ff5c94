/**
 * A function observed on its inputs gets copies of them, and the demand on its result is read from
 * what it returns: a function that changes its input would be observed on a computation other than
 * its own (the cell it changed copied anew, unchanged, for the result). Strictness is observed on
 * immutable data, so the copies are frozen and a change is refused with a message that says so.
 * A spec is synchronous: one that returns a Promise is refused, saying so.
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type List } from '../src/lazy/cell.ts';
import { list } from '../src/demand/lazy-positions.ts';
import { number } from '../src/demand/primitives.ts';
import { spec, SpecError } from '../src/spec/spec.ts';
import { checkSpec } from '../src/checks.ts';
import { checkSpecAsync } from '../src/async-checks.ts';
import { asyncIterable } from '../src/iter/shape.ts';

test('a spec that returns a Promise is refused: specs are synchronous, and the message says what to do instead', async () => {
  const idSpec = spec([list(number)], list(number), (async (predict: (d: unknown) => void, d: unknown) => {
    await null;
    predict(d);
  }) as never);
  /** What checking the identity with spec `s` throws: a SpecError that says a spec is synchronous. */
  const refused = (s: typeof idSpec) =>
    assert.throws(() => checkSpec(s, (xs: List<number>) => xs, { seed: 1, trials: 5 }), (err: unknown) => err instanceof SpecError && /the spec returned a Promise.*synchronous/s.test(err.message) && !/never called predict/.test(err.message));
  refused(idSpec);
  // one that calls predict before it awaits is refused too: what it does after is out of the check's reach
  refused(spec([list(number)], list(number), (async (predict: (d: unknown) => void, d: unknown) => predict(d)) as never));
  // a plain function returning a thenable
  refused(spec([list(number)], list(number), ((_p: unknown) => ({ then() {} })) as never));
  // an async check of async iterables
  const an = asyncIterable(number);
  const asyncSpec = spec([an], an, (async (p: (d: unknown) => void, d: unknown) => {
    await null;
    p(d);
  }) as never);
  await assert.rejects(
    checkSpecAsync(asyncSpec, async function* (xs: AsyncIterable<number>) {
      yield* xs;
    }, { seed: 1, trials: 5 }),
    (err: unknown) => err instanceof SpecError && /the spec returned a Promise.*synchronous/s.test(err.message),
  );
});
