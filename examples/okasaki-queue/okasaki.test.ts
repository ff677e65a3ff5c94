/**
 * Okasaki's queue (paper, section 5): `rot` against its spec, the naive rotation against both
 * specs (with the paper's figure 4 counterexample), the queues against an array model, and the
 * property that makes Okasaki's queue worth having: a bounded amount of work per operation, even
 * when old versions of the queue are used again.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { thunk } from '../../src/lazy/lazy.ts';
import { nil, type List } from '../../src/lazy/cell.ts';
import * as L from '../../src/lazy/list.ts';
import { list } from '../../src/demand/lazy-positions.ts';
import { number } from '../../src/demand/primitives.ts';
import type { Shape } from '../../src/demand/shape-types.ts';
import { demandEquals } from '../../src/demand/demand.ts';
import { toDemand } from '../../src/demand/convert.ts';
import { observeDetailed, toContext } from '../../src/demand/observe.ts';
import { prettyDemand, prettyValue } from '../../src/demand/print.ts';
import { predictDemands, type Spec } from '../../src/spec/spec.ts';
import { rot, rotNaive, rotSimpleSpec, rotSpec, rotSpecFirstAttempt } from './rot.ts';
import { Naive, Queue, QueueOnRotNaive, type PersistentQueue, type QueueKind } from './queue.ts';
import { measure } from './cost.ts';
import { checkSpec, strictCheckSpecExact } from '../../src/checks.ts';

const SEEDS = [1, 2, 3, 17, 2024];
type Rot = (fs: List<number>, bs: List<number>) => List<number>;
type RotSpec = Spec<readonly [List<number>, List<number>], List<number>>;

// ---------------------------------------------------------------------------------------------
// Exhaustive check on small inputs: every fs, bs of length <= 4 and every demand on the result.

/** Every demand on a list with these elements, in value form: k cells forced (maybe the final []), any subset of their elements. */
function* demandsOn(values: readonly number[]): Generator<List<number>> {
  const m = values.length;
  for (let k = 0; k <= m; k++) {
    for (const capped of k === m ? [false, true] : [false]) {
      for (let mask = 0; mask < 1 << k; mask++) {
        let d: List<number> = capped ? nil : thunk;
        for (let i = k - 1; i >= 0; i--) d = L.cons(mask & (1 << i) ? values[i]! : thunk, d);
        yield d;
      }
    }
  }
}

interface Mismatch {
  readonly lengthFs: number;
  readonly lengthBs: number;
  readonly text: string;
}

/** The cases (fs, bs, result demand) where `fn`'s observed input demands differ from `s`'s. */
function exhaustiveMismatches(s: RotSpec, fn: Rot, maxLen: number): Mismatch[] {
  const bad: Mismatch[] = [];
  let cases = 0;
  for (let lf = 0; lf <= maxLen; lf++) {
    for (let lb = 0; lb <= maxLen; lb++) {
      const fsValues = Array.from({ length: lf }, (_, i) => i + 1);
      const bsValues = Array.from({ length: lb }, (_, i) => 100 + i);
      const resultValues = [...fsValues, ...bsValues.slice().reverse()];
      for (const d of demandsOn(resultValues)) {
        cases++;
        const fs = L.fromArray(fsValues);
        const bs = L.fromArray(bsValues);
        const demand = toDemand(d, list(number));
        const obs = observeDetailed(toContext(demand), fn, [fs, bs], { inputs: s.args as readonly Shape<unknown>[], result: s.result as Shape<unknown> });
        assert.equal(obs.error, undefined);
        assert.ok(demandEquals(obs.result, demand), 'the context exerts the demand it was made from');
        const predicted = predictDemands(s, obs.result, [fs, bs]);
        if (!obs.inputs.every((a, i) => demandEquals(a, predicted[i]!))) {
          const p = (x: { forced: boolean } & object) => prettyDemand(x as never);
          bad.push({
            lengthFs: lf,
            lengthBs: lb,
            text: `fs=${prettyValue(fs)} bs=${prettyValue(bs)} d=${p(demand)}: actual ${obs.inputs.map(p).join(', ')}; spec ${predicted.map(p).join(', ')}`,
          });
        }
      }
    }
  }
  const expected: Record<number, number> = { 4: 2858, 5: 11871 }; // sum over the pairs of lengths of 3 * 2^(lf + lb) - 1 demands
  if (maxLen in expected) assert.equal(cases, expected[maxLen]);
  return bad;
}

describe('rot and its spec (figure 5)', () => {
  for (const seed of SEEDS) {
    test(`rot passes rotSpec (seed ${seed}, 300 trials)`, () => {
      strictCheckSpecExact(rotSpec, rot, { seed, trials: 300 });
    });
  }

  test('rot passes rotSpec on every fs, bs of length <= 4 under every result demand', () => {
    assert.deepEqual(exhaustiveMismatches(rotSpec, rot, 4).map((m) => m.text), []);
  });

  test('rotSpec covers the case outside the queue invariant (length bs > length fs)', () => {
    // fs = [1], bs = [100, 101, 102], the first two cells of the result demanded: rot has gone
    // past fs, so it forced all of bs (the first attempt below gets this right too) ...
    const fs = L.fromArray([1]);
    const bs = L.fromArray([100, 101, 102]);
    const d = toDemand(L.cons(thunk, L.cons(thunk, thunk)), list(number));
    const obs = observeDetailed(toContext(d), rot, [fs, bs]);
    assert.deepEqual(obs.inputs.map((x) => prettyDemand(x)), ['_ : []', '_ : _ : _ : []']);
    assert.deepEqual(predictDemands(rotSpec, obs.result, [fs, bs]).map((x) => prettyDemand(x)), ['_ : []', '_ : _ : _ : []']);
    // ... and under one cell, one cell of bs (not the elements).
    const d1 = toDemand(L.cons(1, thunk), list(number));
    const obs1 = observeDetailed(toContext(d1), rot, [fs, bs]);
    assert.deepEqual(obs1.inputs.map((x) => prettyDemand(x)), ['1 : _', '_ : _']);
    assert.deepEqual(predictDemands(rotSpec, obs1.result, [fs, bs]).map((x) => prettyDemand(x)), ['1 : _', '_ : _']);
  });

  test("the text's first attempt at rot_spec (no middle case) fails, even inside the invariant", () => {
    const r = checkSpec(rotSpecFirstAttempt, rot, { seed: 1, trials: 300 });
    assert.equal(r.passed, false);
    const c = r.counterexample!;
    // fs = 0 : [], bs = []: rot forces bs's [] on the first step; the attempt predicts _ : _.
    assert.deepEqual(c.inputs.map((v) => prettyValue(v)), ['0 : []', '[]']);
    assert.equal(prettyDemand(c.resultDemand), '_ : _');
    assert.deepEqual(c.actual.map((x) => prettyDemand(x)), ['_ : _', '[]']);
    assert.deepEqual(c.predicted.map((x) => prettyDemand(x)), ['_ : _', '_ : _']);
  });

  test('the first attempt fails exactly when length bs < length fs (the paper says: bs > fs)', () => {
    const bad = exhaustiveMismatches(rotSpecFirstAttempt, rot, 5);
    const pairs = new Set(bad.map((m) => `${m.lengthFs},${m.lengthBs}`));
    const expected = new Set<string>();
    for (let lf = 0; lf <= 5; lf++) for (let lb = 0; lb < lf; lb++) expected.add(`${lf},${lb}`);
    assert.deepEqual([...pairs].sort(), [...expected].sort());
  });
});

describe('rotNaive (fs ++ reverse bs)', () => {
  for (const seed of SEEDS) {
    test(`rotNaive passes rotSimpleSpec (seed ${seed}, 300 trials)`, () => {
      strictCheckSpecExact(rotSimpleSpec, rotNaive, { seed, trials: 300 });
    });
  }

  test('rotNaive passes rotSimpleSpec on every fs, bs of length <= 4 under every result demand', () => {
    assert.deepEqual(exhaustiveMismatches(rotSimpleSpec, rotNaive, 4).map((m) => m.text), []);
  });

  test('rot does not pass rotSimpleSpec (the specs tell the two apart)', () => {
    assert.equal(checkSpec(rotSimpleSpec, rot, { seed: 1, trials: 300 }).passed, false);
  });

  // Figure 4: inputs 0 : [] and [], result demand _ : _, actual _ : _ and _, spec _ : _ and [].
  for (let seed = 1; seed <= 10; seed++) {
    test(`rotNaive fails rotSpec with exactly figure 4's counterexample (seed ${seed})`, () => {
      const r = checkSpec(rotSpec, rotNaive, { seed, trials: 300 });
      assert.equal(r.passed, false);
      const c = r.counterexample!;
      assert.equal(c.error, undefined);
      assert.deepEqual(c.inputs.map((v) => prettyValue(v)), ['0 : []', '[]']);
      assert.equal(prettyDemand(c.resultDemand), '_ : _');
      assert.deepEqual(c.actual.map((x) => prettyDemand(x)), ['_ : _', '_']);
      assert.deepEqual(c.predicted.map((x) => prettyDemand(x)), ['_ : _', '[]']);
      assert.match(r.message, /Actual input demands/);
      assert.throws(() => strictCheckSpecExact(rotSpec, rotNaive, { seed, trials: 300 }), /0 : \[\]/);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Queues: random persistent programs. Each operation applies to some existing version, mostly the
// newest, sometimes an old one, and adds the version it returns to the pool.

type Op = { readonly kind: 'snoc'; readonly from: number; readonly x: number } | { readonly kind: 'uncons' | 'head'; readonly from: number };
// 0 is the newest version, k the k-th newest (modulo the number of versions).
const fromArb = fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat(1000) });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('snoc' as const), from: fromArb, x: fc.integer({ min: -100, max: 100 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('uncons' as const), from: fromArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('head' as const), from: fromArb }) },
);
const programArb = fc.array(opArb, { maxLength: 300, size: 'max' });

interface Version {
  readonly q: PersistentQueue<number>;
  readonly model: readonly number[];
}

/** Runs a program, calling `each` with the operation, the version it applies to, and a function doing it. */
function runProgram(K: QueueKind, program: readonly Op[], each: (op: Op, v: Version, run: () => Version | undefined) => Version | undefined): Version[] {
  const pool: Version[] = [{ q: K.empty<number>(), model: [] }];
  for (const op of program) {
    const v = pool[pool.length - 1 - (op.from % pool.length)]!;
    const run = (): Version | undefined => {
      switch (op.kind) {
        case 'snoc':
          return { q: v.q.snoc(op.x), model: [...v.model, op.x] };
        case 'uncons': {
          const u = v.q.uncons();
          if (v.model.length === 0) {
            assert.equal(u, undefined);
            return undefined;
          }
          assert.ok(u !== undefined);
          assert.equal(u[0], v.model[0]);
          return { q: u[1], model: v.model.slice(1) };
        }
        case 'head':
          if (v.model.length === 0) assert.throws(() => v.q.head());
          else assert.equal(v.q.head(), v.model[0]);
          return undefined;
      }
    };
    const next = each(op, v, run);
    if (next) pool.push(next);
  }
  return pool;
}

describe('queues equal an array model, used persistently', () => {
  for (const K of [Queue, Naive, QueueOnRotNaive]) {
    test(`${K.name}: every operation on every version agrees with the array model`, () => {
      fc.assert(
        fc.property(programArb, (program) => {
          const pool = runProgram(K, program, (_op, v, run) => {
            const next = run();
            assert.equal(v.q.size, v.model.length);
            assert.equal(v.q.isEmpty(), v.model.length === 0);
            return next;
          });
          // Every version still holds its elements (persistence), checked last to first.
          for (const v of pool.slice().reverse()) assert.deepEqual(v.q.toArray(), v.model);
        }),
        { seed: 7, numRuns: 200 },
      );
    });
  }

  test('tail and head of an empty queue throw; of() builds by snoc', () => {
    for (const K of [Queue, Naive, QueueOnRotNaive]) {
      assert.throws(() => K.empty().head(), /empty/);
      assert.throws(() => K.empty().tail(), /empty/);
      assert.deepEqual(K.of(1, 2, 3).tail().snoc(4).toArray(), [2, 3, 4]);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The point of Okasaki's queue: bounded work per operation, in the worst case, persistently.
//
// The measure is `steps` (cost.ts): calls of force(), i.e. looks at lazy cells and elements, the
// unit of work of a lazy program. `forceCount()` (thunks evaluated) is not enough: it counts each
// thunk once (memoised) and sees a whole `List.reverse` as one evaluation; see the last test.
//
// The bound: an operation of Okasaki's queue forces at most the front cell and one schedule cell,
// each at most one step of `rotate` (a `rotate [] (b : bs)` step runs two clauses), plus the
// element: 11 looks at most. It does not depend on the size of the queue nor on the history of
// the version: the version's thunks are shared with every version made from it and memoised.
const BOUND = 11;

/** The most steps any single operation of the program takes. */
function maxStepsPerOp(K: QueueKind, program: readonly Op[]): number {
  let max = 0;
  runProgram(K, program, (_op, _v, run) => {
    const [next, c] = measure(run);
    max = Math.max(max, c.steps);
    return next;
  });
  return max;
}

describe('work per operation, used persistently', () => {
  test(`Okasaki's queue: every operation of any persistent program takes at most ${BOUND} steps`, () => {
    fc.assert(
      fc.property(programArb, (program) => maxStepsPerOp(Queue, program) <= BOUND),
      { seed: 11, numRuns: 300 },
    );
  });

  for (const K of [Naive, QueueOnRotNaive]) {
    test(`${K.name}: some operation takes more than ${BOUND} steps (the property fails)`, () => {
      // Its first counterexample is enough: not shrunk (shrinking took most of the test's time).
      const r = fc.check(
        fc.property(programArb, (program) => maxStepsPerOp(K, program) <= BOUND),
        { seed: 11, numRuns: 300, endOnFailure: true },
      );
      assert.equal(r.failed, true, 'expected a counterexample');
    });
  }

  test('the same old version, uncons-ed again and again: O(1) each for Okasaki, O(n) each for the naive queue', () => {
    for (const n of [16, 256, 4096]) {
      const xs = Array.from({ length: n }, (_, i) => i);
      const okasaki = Queue.of(...xs);
      const naive = Naive.of(...xs); // front [0], back [n-1 .. 1]
      for (let repeat = 0; repeat < 10; repeat++) {
        // uncons and look at the next element: the naive queue has to reverse its back list
        const [, ok] = measure(() => okasaki.uncons()![1].head());
        const [, nv] = measure(() => naive.uncons()![1].head());
        assert.ok(ok.steps <= BOUND, `Okasaki, n=${n}: ${ok.steps} steps`);
        // Memoisation does not help the naive queue: the reversal is made by `uncons` and kept in
        // the new version only, so each use of the old version does it again.
        assert.ok(nv.steps >= n - 1, `naive, n=${n}, repeat ${repeat}: ${nv.steps} steps`);
      }
    }
  });

  test('the real-time queue on rotNaive: memoised across versions, but one operation pays a whole reverse', () => {
    // 2^k - 1 snocs leave the schedule at the end of a rotation whose reverse is still pending.
    const n = 1023;
    let q = QueueOnRotNaive.of(...Array.from({ length: n }, (_, i) => i));
    let worst = 0;
    for (let i = 0; i < n; i++) {
      const [u, c] = measure(() => q.uncons()!);
      worst = Math.max(worst, c.steps);
      q = u[1];
    }
    assert.ok(worst > 256, `worst single uncons: ${worst} steps`);
    // With rot, the same sequence never exceeds the bound.
    let p = Queue.of(...Array.from({ length: n }, (_, i) => i));
    for (let i = 0; i < n; i++) {
      const [u, c] = measure(() => p.uncons()!);
      assert.ok(c.steps <= BOUND);
      p = u[1];
    }
  });

  test('forceCount alone cannot see the difference: the naive reversal is one thunk evaluation', () => {
    const naive = Naive.of(...Array.from({ length: 4096 }, (_, i) => i));
    const [, c] = measure(() => naive.uncons()![1].head());
    assert.ok(c.evaluations <= 2, `${c.evaluations} evaluations`);
    assert.ok(c.steps >= 4095, `${c.steps} steps`);
  });
});
