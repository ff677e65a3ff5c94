/** Exhaustive enumeration (src/engine/enumerate.ts): its cases are the series of the inputs, pruned by demand, and every context within the depth, each once. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Lazy } from '../src/lazy/lazy.ts';
import { fromArray } from '../src/lazy/list.ts';
import { entangle, normalize } from '../src/demand/observe.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { lazyOf, list } from '../src/demand/lazy-positions.ts';
import { boolean, number } from '../src/demand/primitives.ts';
import type { Shape } from '../src/demand/shape-types.ts';
import { tuple } from '../src/demand/tuples.ts';
import { comparePaths, countInputs, enumerateCases } from '../src/engine/enumerate.ts';
import { series } from '../src/engine/series.ts';
import { assertFits, SHAPES, shown } from './fixtures/contracts.ts';
import { Tree } from './fixtures/shapes.ts';

const DEPTH = 2;

for (const { name, shape, enumerable } of SHAPES) {
  if (!enumerable) continue;
  test(`without pruning, the cases of ${name} are the series of the shape, each once, as countInputs counts them`, () => {
    const cases = [...enumerateCases([shape], DEPTH, (inputs) => shown(inputs[0], shape), { prune: false })];
    assert.deepEqual(cases.map((c) => c.outcome), series(shape, DEPTH).map((v) => shown(v, shape)));
    assert.equal(cases.length, countInputs([shape], DEPTH));
    for (const c of cases) assertFits(c.total()[0], shape);
  });
}

test('with pruning, a run that forces no input is one case for every input, and one that forces its inputs whole sees each total input once', () => {
  for (const shape of [list(number), lazyOf(Tree), lazyOf(tuple(boolean, lazyOf(number)))] as Shape<unknown>[]) {
    const untouched = [...enumerateCases([shape], DEPTH, () => 'ran')];
    assert.equal(untouched.length, 1, shape.name);
    const whole = [...enumerateCases([shape], DEPTH, (inputs) => (normalize(inputs[0]), shown(inputs[0], shape)))];
    assert.deepEqual(whole.map((c) => c.outcome).sort(), series(shape, DEPTH).map((v) => shown(v, shape)).sort(), shape.name);
  }
});

test('the cases of an enumeration come in the preorder of their paths, the same in every enumeration', () => {
  const run = (inputs: unknown[]) => normalize(inputs[0]);
  const paths = () => [...enumerateCases([list(boolean), lazyOf(Tree)], DEPTH, run)].map((c) => c.path());
  const first = paths();
  assert.ok(first.length > 1);
  for (let i = 1; i < first.length; i++) assert.ok(comparePaths(first[i - 1]!, first[i]!) < 0, `${first[i - 1]} before ${first[i]}`);
  assert.deepEqual(paths(), first);
});

test('a run that walks the result with its context sees every demand on it within the depth, each once', () => {
  // 1 : 2 : [] at depth 2: both heads and the first tail at budget 1, the second cell's head and tail at 0.
  const result = fromArray([1, 2]);
  const seen = [...enumerateCases([boolean], DEPTH, (_inputs, context) => {
    const [copy, demand] = entangle(result, list(number));
    context(copy);
    return prettyDemand(demand());
  }, { result: list(number), prune: false })].map((c) => c.outcome);
  // The first head forced or not, times the first tail left or forced with the second cell's head and tail each forced or not: 2 × (1 + 4), for each of the 2 inputs.
  assert.equal(seen.length, 2 * 2 * (1 + 4));
  assert.equal(new Set(seen).size, 2 * (1 + 4));
  assert.ok(seen.includes('_ : _') && seen.includes('1 : 2 : []'), seen.join(', '));
});

/** Forces the lazy parts of `v` that `pick` chooses, by their place in the walk, and walks what they hold. */
function forceSome(v: unknown, pick: (place: number) => boolean, at = { place: 0 }): void {
  if (v instanceof Lazy) {
    if (pick(at.place++)) forceSome(v.force(), pick, at);
    return;
  }
  if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) forceSome(x, pick, at);
}

test('each run of an enumeration finds at most one case, given before the next run: every case is given once', () => {
  const shapes = [list(number), lazyOf(Tree), lazyOf(tuple(boolean, lazyOf(number))), list(boolean)] as Shape<unknown>[];
  fc.assert(
    fc.property(fc.constantFrom(...shapes), fc.constantFrom(...shapes), fc.integer({ min: 0, max: 2 }), fc.boolean(), fc.integer(), (a, b, depth, prune, seed) => {
      // Which lazy parts a run forces depends on the seed and their place (the same for a case run again); its context makes choices over a result.
      const pick = (place: number) => ((Math.imul(seed ^ place, 0x9e3779b1) >>> 0) & 3) !== 0;
      const events: string[] = [];
      const stats = { cases: 0, runs: 0, refinements: 0 };
      const run = (inputs: unknown[], context: (r: unknown) => void) => {
        events.push('run');
        for (const x of inputs) forceSome(x, pick);
        context(entangle(fromArray([1, 2]), list(number))[0]);
      };
      for (const _ of enumerateCases([a, b], depth, run, { prune, stats, result: list(number) })) events.push('case');
      assert.ok(!events.join().includes('case,case'), 'a run found two cases');
      assert.equal(events.filter((e) => e === 'case').length, stats.cases);
    }),
    { numRuns: 100, seed: 1 },
  );
});
