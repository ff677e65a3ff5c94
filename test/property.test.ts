/** The fast-check integration: strictcheck's cases and checks inside fast-check's runner. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { strictCases, strictProperty, type StrictCase } from '../src/spec/property.ts';
import { spec, SpecError } from '../src/spec/spec.ts';
import { list, number } from '../src/demand/shape.ts';
import { take, takePrime, takeSpec } from '../examples/take.ts';
import { rot, rotNaive, rotSpec } from '../examples/okasaki-queue/rot.ts';
import { map, mapSpec, mapStrict } from '../examples/list-specs.ts';

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
  let runs = 0;
  fc.assert(
    fc.property(strictCases(takeSpec, take), fc.nat(5), (c, k) => {
      runs++;
      assert.equal(c.inputs.length, 2);
      assert.ok(k <= 5);
    }),
    { numRuns: 50 },
  );
  assert.equal(runs, 50);
});

test('spec errors are reported, not shrunk away; a function of the wrong arity is refused at once', () => {
  const never = spec([list(number)], list(number), (_predict, _d, _xs) => {});
  const r = fc.check(strictProperty(never, (xs) => xs), { seed: 1 });
  assert.ok(r.failed && r.errorInstance instanceof SpecError, String(r.errorInstance));
  assert.throws(() => strictProperty(takeSpec, ((n: unknown) => n) as never), SpecError);
});
