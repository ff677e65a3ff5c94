import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkSpec, demandEquals, fromArray, isThunk, lazyOf, list, number, predictDemands, prettyDemand, spec, SpecError, string, thunk, toDemand, cons,
} from '../src/index.ts';
import type { List } from '../src/lazy/cell.ts';
import * as L from '../src/lazy/list.ts';
import { take, takePrime, takeSpec } from '../examples/take.ts';

// What the optimisations of a check's cost (issue 19) must leave as it was: these pin behaviour
// that a shortcut could change (a demand passed through a spec, a context's paths).

test("a demand on the result that a spec passes through unread is predicted as it is, and take still passes and take' still fails", () => {
  const passThrough = spec([list(number)], list(number), (predict, d, _xs) => predict(d));
  const d = toDemand(cons(thunk, cons(2, thunk)), list(number));
  const [predicted] = predictDemands(passThrough, d, [fromArray([1, 2, 3])]);
  assert.equal(demandEquals(predicted!, d), true);
  assert.equal(prettyDemand(predicted!), '_ : 2 : _');
  assert.equal(checkSpec(takeSpec, take, { trials: 2000, seed: 3 }).passed, true);
  assert.equal(checkSpec(takeSpec, takePrime, { trials: 2000, seed: 3 }).passed, false);
});

test('a spec that reads the demand on the result before passing it through predicts the same as one that does not', () => {
  const reading = spec([lazyOf(number), list(number)], list(number), (predict, d, n, xs) =>
    predict(n, isThunk(d) ? thunk : n.force() > L.length(xs) ? d : L.append(d, thunk)));
  const a = checkSpec(reading, take, { trials: 1000, seed: 5 });
  const b = checkSpec(takeSpec, take, { trials: 1000, seed: 5 });
  assert.deepEqual([a.passed, a.trials], [b.passed, b.trials]);
  assert.equal(checkSpec(reading, takePrime, { trials: 1000, seed: 5 }).passed, false);
});

test("a demand on the result passed through to an argument of another shape is still refused as not fitting that argument", () => {
  const lengths = (xs: List<string>): List<number> => L.map((s: string) => s.length, xs);
  const wrong = spec([list(string)], list(number), (predict, d, _xs) => predict(d as never));
  assert.throws(() => checkSpec(wrong, lengths, { trials: 200, seed: 1 }), (err: unknown) => err instanceof SpecError && /does not fit its argument/.test(err.message));
});

test('a random context that forces a result layer by layer names where the result does not fit its shape', () => {
  const bad = spec([lazyOf(number)], list(number), (predict, _d, n) => predict(n));
  const f = (_n: unknown) => fromArray([1, 2, 'three' as unknown as number, 4]);
  assert.throws(() => checkSpec(bad, f, { trials: 300, seed: 2 }), (err: unknown) => /result\.tail\.tail\.head/.test((err as Error).message));
});
