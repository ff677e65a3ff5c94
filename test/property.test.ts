/** The fast-check integration: strictcheck's cases and checks inside fast-check's runner. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { strictCases, strictProperty, type StrictCase } from '../src/spec/property.ts';
import { predictDemands, spec, SpecError } from '../src/spec/spec.ts';
import { lazy, type Lazy } from '../src/lazy/lazy.ts';
import type { List } from '../src/lazy/cell.ts';
import * as L from '../src/lazy/list.ts';
import { demandEquals } from '../src/demand/demand.ts';
import { observe } from '../src/demand/observe.ts';
import { list } from '../src/demand/lazy-positions.ts';
import { number } from '../src/demand/primitives.ts';
import { tuple } from '../src/demand/tuples.ts';
import { take, takePrime, takeSpec } from '../examples/take.ts';
import { rot, rotNaive, rotSpec } from '../examples/okasaki-queue/rot.ts';
import { map, mapSpec, mapStrict } from '../examples/list-specs.ts';
import { takeAsyncSpec } from '../examples/iterators/take-async.ts';
import { firstArgSpec, isRed, isRedWrongSpec } from './fixtures/shapes.ts';

const counterexample = (r: fc.RunDetails<[StrictCase]>) => String(r.counterexample?.[0]);

test('correct functions pass under fc.check', () => {
  for (const [s, f] of [[takeSpec, take], [rotSpec, rot], [mapSpec, map]] as const) {
    const r = fc.check(strictProperty(s as never, f as never), { seed: 7, numRuns: 300 });
    assert.equal(r.failed, false, String(r.errorInstance));
  }
});

test("fast-check shrinks with strictcheck's shrinker to the paper's counterexamples, printed with the diagram", () => {
  for (let seed = 1; seed <= 10; seed++) {
    const r = fc.check(strictProperty(takeSpec, takePrime, { unicode: false }), { seed });
    assert.ok(r.failed);
    const text = counterexample(r);
    assert.match(text, /^inputs 0, \[\]; result demand \[\]\nFailed: the spec does not match the function\n/, text);
    assert.match(text, /\| \* _ {18}\| {7}\| \* 0 {18}\|\n\| \* \[\] {17}\| {7}\| \* _ {18}\|/);
  }
  const r = fc.check(strictProperty(rotSpec, rotNaive, { unicode: false }), { seed: 3 });
  assert.match(counterexample(r), /^inputs 0 : \[\], \[\]; result demand _ : _\n/);
  // map_strict fails only through a generated non-strict function
  const m = fc.check(strictProperty(mapSpec, mapStrict, { unicode: false }), { seed: 5 });
  assert.match(counterexample(m), /^inputs λ\{_ ↦ -?\d+\}, -?\d+ : \[\]; result demand -?\d+ : _\n/);
  // fc.assert throws with the same text, and fast-check's seed and path replay the failure
  assert.throws(() => fc.assert(strictProperty(takeSpec, takePrime, { unicode: false }), { seed: 1 }), /Counterexample: \[inputs 0, \[\]; result demand \[\]\nFailed/);
  const replay = fc.check(strictProperty(takeSpec, takePrime, { unicode: false }), { seed: 1, path: fc.check(strictProperty(takeSpec, takePrime), { seed: 1 }).counterexamplePath! });
  assert.match(counterexample(replay), /^inputs 0, \[\]; result demand \[\]/);
});

test('strictCases combine with other arbitraries in one property', () => {
  const seen = new Set<string>();
  let forced = 0;
  fc.assert(
    fc.property(strictCases(takeSpec, take), fc.nat(5), (c, k) => {
      const [n, xs] = c.inputs as [Lazy<number>, List<number>];
      seen.add(`${n.force()} ${L.toArray(xs).join(',')}`);
      // the case's context evaluates take's result as the check would: observed, it forces no more than the spec allows
      const o = observe(c.context, take, n, xs);
      if (o.result.forced) forced++;
      const predicted = predictDemands(takeSpec, o.result, [n, xs]);
      assert.ok(predicted.every((p, i) => demandEquals(p, o.inputs[i]!)), 'take behaves as its spec says on the case');
      // and the other arbitrary's value works with the case's inputs
      assert.deepEqual(L.toArray(L.take(k, xs)), L.toArray(xs).slice(0, k));
    }),
    { numRuns: 50 },
  );
  assert.ok(seen.size > 10, `varied inputs: ${seen.size} distinct of 50`);
  assert.ok(forced > 0, 'some contexts force the result');
});

test('spec errors are reported, not shrunk away; a function of the wrong arity is refused at once', () => {
  const never = spec([list(number)], list(number), (_predict, _d, _xs) => {});
  const r = fc.check(strictProperty(never, (xs) => xs), { seed: 1 });
  assert.ok(r.failed && r.errorInstance instanceof SpecError, String(r.errorInstance));
  assert.throws(() => strictProperty(takeSpec, ((n: unknown) => n) as never), SpecError);
});

test('strictCases shrinks a case that passes the check but fails another property: its inputs, under its own context', () => {
  for (let seed = 1; seed <= 5; seed++) {
    let failing: StrictCase | undefined; // the first case that fails, before shrinking
    const r = fc.check(
      fc.property(strictCases(takeSpec, take), (c) => {
        const short = L.length(c.inputs[1] as List<number>) < 3;
        if (!short) failing ??= c;
        return short;
      }),
      { seed },
    );
    assert.ok(r.failed && r.numShrinks > 0, `seed ${seed}: ${r.numShrinks} shrinks`);
    const c = r.counterexample![0];
    // as far as fc.array would shrink: three elements, each 0; take passes its spec, so no failure is kept alike
    assert.deepEqual(L.toArray(c.inputs[1] as List<number>), [0, 0, 0]);
    assert.equal(c.shrunk, undefined);
    assert.equal(c.context, failing!.context);
  }
});

test('fast-check ends shrinking a case of an enum-like type (its shrinks went round in a circle, and fast-check has no limit)', () => {
  // The time limit only turns a regression into a failure instead of a hang.
  const r = fc.check(strictProperty(isRedWrongSpec, isRed), { seed: 1, plugins: [fc.interruptAfterTimeLimit(5000)] });
  assert.ok(r.failed && !r.interrupted && r.numShrinks <= 2, `${r.numShrinks} shrinks, interrupted: ${r.interrupted}`);
});

test("a shrunk case's summary line shows the result demand of its own run, as its diagram does", () => {
  // Forces y when x > 20: shrinking y changes the result demand under a context built from the parent's.
  const f = (x: Lazy<number>, y: Lazy<number>) => lazy(() => (x.force() > 20 ? y.force() : 0));
  const r = fc.check(strictProperty(firstArgSpec, f, { unicode: false }), { seed: 42, numRuns: 300 });
  assert.equal(r.failed, true);
  const text = String(r.counterexample![0]);
  const summary = /result demand (\S+)/.exec(text)![1];
  const diagram = /Demand on result \|\n\+[-+ ]+\n\|[^\n]*?\| +\| (\S+)/.exec(text)![1];
  assert.equal(summary, diagram, text);
});

test('a fast-check property of a spec whose shapes are async is refused, pointing to the asynchronous checks, as checkSpec refuses it', () => {
  const plain = ((_n: number, xs: unknown) => xs) as never;
  const refused = { name: 'TypeError', message: /^the spec's shape AsyncIterable<number> is async: its check is asynchronous\. Use checkSpecAsync or assertSpecAsync/ };
  assert.throws(() => strictProperty(takeAsyncSpec, plain), refused);
  assert.throws(() => strictCases(takeAsyncSpec, plain), refused);
});

test('a spec that changes its input ends the property with its SpecError, unshrunk, where fast-check shrank without end', () => {
  // Each candidate's spec changes it back to the case it shrank (99 in its first place), which fast-check took for a new failure to shrink.
  const changing = spec([tuple(number, number)], number, (predict, _d, p) => {
    (p as unknown as number[])[0] = 99;
    predict(p);
  });
  const out = fc.check(strictProperty(changing, (p: readonly [number, number]) => p[0] + p[1]), { seed: 1, interruptAfterTimeLimit: 10_000 });
  assert.equal(out.interrupted, false, `interrupted after ${out.numShrinks} shrinks`);
  assert.equal(out.numShrinks, 0);
  assert.ok(out.errorInstance instanceof SpecError && /the spec changed its input args\[0\]/.test(out.errorInstance.message), String(out.errorInstance));
});
