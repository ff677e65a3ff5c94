/**
 * fast-check shrinking strictcheck's cases over iterables: every shrink is a smaller case than the
 * one it shrinks (fast-check's contract), so that shrinking a failing check ends.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AsyncSource, asyncIterable, assertStrictCase, checkSpec, Cons, lazy, NIL, prettyDemand, type LazyList, iterable, number, prettyValue, specOf, strictCases, strictProperty, type StrictCase } from '../src/index.ts';
import type { Shape } from '../src/demand/shape-types.ts';
import { generateInputs } from '../src/engine/generate.ts';
import { Seed } from '../src/engine/random.ts';
import { shrinkValue } from '../src/engine/shrink.ts';
import { mapSpec as listMapSpec, type ElementFn } from '../examples/list-specs.ts';
import { finiteMapSpec, mapNoReturn } from './fixtures/iter-checks.ts';

const numbers = iterable(number);
const mapSpec = specOf([numbers], numbers, ({ pulledAsResult }) => [pulledAsResult()]);

/** A map that reads one element ahead of the one it yields. */
function* mapAhead(xs: Iterable<number>): Generator<number> {
  const it = xs[Symbol.iterator]();
  let cur = it.next();
  try {
    while (!cur.done) {
      const next = it.next();
      yield cur.value * 2;
      cur = next;
    }
  } finally {
    if (!cur.done) it.return?.();
  }
}

/**
 * Far more runs than shrinking a case takes: past it a guarded predicate passes every case, which
 * ends a shrinking that would not end (a hang is the bug these tests guard against).
 */
const RUNS = 3000;

/** `run`, passing every case once it has run {@link RUNS} times; `runs()` says how many times it ran. */
function guarded<F extends (...args: any[]) => unknown>(run: F): { run: F; runs: () => number } {
  let n = 0;
  return { run: ((...args) => (++n > RUNS ? null : run(...args))) as F, runs: () => n };
}

const firstLine = (c: unknown): string => String(c).split('\n')[0]!;

test('a failing check over an iterable under fc.assert(strictProperty(...)) ends shrinking at a small counterexample', { timeout: 120_000 }, () => {
  for (const s of [mapSpec, finiteMapSpec]) {
    const p = strictProperty(s, mapAhead);
    const g = guarded(p.run.bind(p));
    p.run = g.run;
    const r = fc.check(p, { seed: 7 });
    assert.equal(r.failed, true);
    assert.ok(g.runs() < RUNS, `shrinking ended on its own (${g.runs()} runs)`);
    assert.match(firstLine(r.counterexample![0]), /^inputs iter \[0(, 0)?\]; result demand /);
    assert.throws(() => fc.assert(p, { seed: 7 }), /Counterexample: \[inputs iter \[0(, 0)?\]; result demand [^]*Failed: the spec does not match the function/);
  }
});

test('strictCases with assertStrictCase ends shrinking a failing iterable check, in fc.property and fc.asyncProperty', { timeout: 120_000 }, async () => {
  const sync = guarded((c: StrictCase) => assertStrictCase(finiteMapSpec, mapNoReturn, c));
  const r = fc.check(fc.property(strictCases(finiteMapSpec, mapNoReturn), sync.run), { seed: 7 });
  assert.equal(r.failed, true);
  assert.ok(sync.runs() < RUNS, `shrinking ended on its own (${sync.runs()} runs)`);
  assert.match(firstLine(r.counterexample![0]), /^inputs iter \[0\]; result demand /);
  const async = guarded(async (c: StrictCase) => assertStrictCase(mapSpec, mapAhead, c));
  const ra = await fc.check(fc.asyncProperty(strictCases(mapSpec, mapAhead), async.run), { seed: 7 });
  assert.equal(ra.failed, true);
  assert.ok(async.runs() < RUNS, `shrinking ended on its own (${async.runs()} runs)`);
});

test('no shrink of a failing iterable case runs back to the case it shrinks, and shrinking it ends', { timeout: 120_000 }, () => {
  for (const [s, fn] of [[mapSpec, mapAhead], [finiteMapSpec, mapNoReturn]] as const) {
    const arb = strictCases(s, fn);
    const fails = (c: StrictCase) => {
      try {
        assertStrictCase(s, fn, c);
        return false;
      } catch {
        return true;
      }
    };
    let current = fc.sample(arb, { seed: 3, numRuns: 200 }).find(fails);
    assert.ok(current, 'a generated case fails');
    let steps = 0;
    for (let shrunk = true; shrunk; steps++) {
      assert.ok(steps < RUNS, 'shrinking ends');
      shrunk = false;
      const origin = firstLine(current);
      for (const v of arb.shrink(current, undefined)) {
        if (!fails(v.value)) continue;
        // A shrunk case prints its inputs and the demand its run forced: a generated one is shown with "a random context".
        assert.notEqual(firstLine(v.value), origin, 'a shrink is a smaller case');
        current = v.value;
        shrunk = true;
        break;
      }
    }
    assert.ok(steps > 1, `it shrank (${steps} steps)`);
  }
});

test('an async source keeps no delays past its last late pull: a generated or shrunk one shows none of them', () => {
  const asyncNumbers = asyncIterable(number);
  const late = new AsyncSource({ elements: [0, 0, 0], infinite: false, hasReturn: true, delays: [0, 1, 0, 0, 0, 0, 0] });
  assert.equal(prettyValue(late, asyncNumbers), 'async iter [0, 0, 0] delays [0, 1]');
  const shown = [...shrinkValue(new AsyncSource({ ...late.plan, delays: [0, 2, 0, 0] }), asyncNumbers)].map((s) => prettyValue(s, asyncNumbers));
  assert.ok(shown.includes('async iter [0, 0, 0] delays [0, 1]'), shown.join(' | '));
  for (let i = 0; i < 100; i++) {
    const [s] = generateInputs([asyncNumbers as Shape<unknown>], Seed.of(i).stream(), 10) as [AsyncSource<number>];
    assert.notEqual(s.plan.delays.at(-1), 0, `a generated source's delays end at a late pull: ${prettyValue(s, asyncNumbers)}`);
  }
});

/** A map that, computing an element, also computes the next one (if that cell is there): it forces one cell too many. */
const mapPeek = (f: ElementFn<number, number>, xs: LazyList<number>): LazyList<number> =>
  lazy(() => {
    const c = xs.force();
    if (!(c instanceof Cons)) return NIL;
    const head = lazy(() => {
      const v = f(c.head);
      const next = c.tail.force();
      if (next instanceof Cons) f(next.head);
      return v;
    });
    return new Cons(head, mapPeek(f, c.tail));
  });

test('a list input shrinks along with the demand on the result: a cell of the demand is dropped as an element of the input is', () => {
  for (const seed of [1, 2, 3]) {
    const r = checkSpec(listMapSpec, mapPeek, { seed, trials: 300 });
    assert.equal(r.passed, false);
    const { inputs, resultDemand } = r.counterexample!;
    assert.equal(prettyValue(inputs[1], listMapSpec.args[1]), '0 : []', `seed ${seed}: ${r.message}`);
    assert.match(prettyDemand(resultDemand), /^-?\d+ : _$/, `seed ${seed}: ${r.message}`);
  }
});
