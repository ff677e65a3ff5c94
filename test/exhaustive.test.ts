import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { option } from '../src/demand/declared-data.ts';
import { lazyOf, list } from '../src/demand/lazy-positions.ts';
import { boolean, fn, number, string } from '../src/demand/primitives.ts';
import type { Shape } from '../src/demand/shape-types.ts';
import { tuple } from '../src/demand/tuples.ts';
import { lazy, now, thunk, type Lazy } from '../src/lazy/lazy.ts';
import { Cons, NIL, type List } from '../src/lazy/cell.ts';
import { prettyDemand, prettyValue } from '../src/demand/print.ts';
import { withArbitrary } from '../src/engine/fast-check-bridge.ts';
import { functionSeries, NoSeriesError, series, withSeries } from '../src/engine/series.ts';
import { choiceContext } from '../src/engine/enumerate.ts';
import { spec, SpecError } from '../src/spec/spec.ts';
import { ExhaustiveCheckFailure } from '../src/spec/exhaustive.ts';
import { take, takePrime, takeSpec, takeSpecFirstAttempt } from '../examples/take.ts';
import { rot, rotNaive, rotSpec } from '../examples/okasaki-queue/rot.ts';
import { map, mapSpec, mapStrict } from '../examples/list-specs.ts';
import { Stream, Tree } from './fixtures/shapes.ts';
import { assertSpecExhaustive, checkSpecExhaustive } from '../src/checks.ts';

const counts = <T,>(shape: Shape<T>, upTo: number) => Array.from({ length: upTo + 1 }, (_, d) => series(shape, d).length);

test('series follow SmallCheck depth', () => {
  assert.deepEqual(counts(number, 3), [1, 3, 5, 7]); // |i| <= d
  assert.deepEqual(series(number, 2), [0, 1, -1, 2, -2]);
  assert.deepEqual(counts(boolean, 2), [2, 2, 2]);
  assert.deepEqual(counts(string, 2), [1, 3, 7]); // '' | 'a' 'b' | 'aa' 'ab' 'ba' 'bb'
  // [] has depth 0; x : xs one more than the deepest of x and xs: L(d) = 1 + (2(d-1)+1) L(d-1)
  assert.deepEqual(counts(list(number), 3), [1, 2, 7, 36]);
  assert.deepEqual(series(list(number), 1).map((v) => prettyValue(v)), ['[]', '0 : []']);
  // Leaf | Node (d-1) (d-1) (d-1): T(d) = 1 + T(d-1)^2 (2(d-1)+1)
  assert.deepEqual(counts(Tree, 2), [1, 2, 13]);
  // tuples add no level
  assert.deepEqual(counts(tuple(number, boolean), 2), [2, 6, 10]);
  assert.deepEqual(counts(option(boolean), 1), [1, 3]);
  // lazy positions hold evaluated values of the same depth
  const lazies = series(lazyOf(number), 1);
  assert.equal(lazies.length, 3);
  assert.ok(lazies.every((l) => l.isEvaluated));
});

test('function series: constants at depth 0, one-level case functions from depth 1 (paper, example 5)', () => {
  const boolFn = fn([boolean], boolean);
  assert.equal(functionSeries(boolFn, 0, 'f').length, 2);
  assert.equal(functionSeries(boolFn, 1, 'f').length, 2 + 4);
  const f = functionSeries(fn([list(number)], number), 1, 'f');
  assert.equal(f.length, 3 + 1); // constants 0, 1, -1; one table [] -> 0, _ : _ -> 0
});

test("take' fails at depth 0 with the paper's counterexample", () => {
  const r = checkSpecExhaustive(takeSpec, takePrime, { depth: 4, unicode: false });
  assert.equal(r.passed, false);
  assert.equal(r.depth, 0);
  const c = r.counterexample!;
  assert.deepEqual(c.inputs.map((v, i) => prettyValue(v, takeSpec.args[i] as never)), ['0', '[]']);
  assert.equal(prettyDemand(c.resultDemand), '[]');
  assert.deepEqual(c.actual.map((d) => prettyDemand(d)), ['_', '[]']);
  assert.deepEqual(c.predicted.map((d) => prettyDemand(d)), ['0', '_']);
  assert.match(r.message, /depth 0/);
  assert.match(r.message, /Actual input demands/);
  assert.throws(() => assertSpecExhaustive(takeSpec, takePrime, { depth: 2 }), ExhaustiveCheckFailure);
});

test('take passes every case up to depth 4', () => {
  const r = checkSpecExhaustive(takeSpec, take, { depth: 4 });
  assert.equal(r.passed, true);
  assert.equal(r.depth, 4);
  assert.equal(r.cases, 2997);
  assert.ok(r.totalCases > r.cases && r.runs >= r.totalCases);
  assert.match(r.message, /passed all 2997 cases of depth 4/);
});

test('pruning gives the same verdict as no pruning, in fewer cases', () => {
  const checks = [
    { name: 'take', s: takeSpec, f: take, depth: 3 },
    { name: "take'", s: takeSpec, f: takePrime, depth: 3 },
    { name: 'take vs first attempt', s: takeSpecFirstAttempt, f: take, depth: 3 },
    { name: 'rot', s: rotSpec, f: rot, depth: 2 },
    { name: 'rotNaive', s: rotSpec, f: rotNaive, depth: 3 },
    { name: 'map', s: mapSpec, f: map, depth: 2 },
    { name: 'mapStrict', s: mapSpec, f: mapStrict, depth: 3 },
  ] as const;
  for (const { name, s, f, depth } of checks) {
    const pruned = checkSpecExhaustive(s as never, f as never, { depth, unicode: false });
    const full = checkSpecExhaustive(s as never, f as never, { depth, prune: false, unicode: false });
    assert.equal(pruned.passed, full.passed, name);
    assert.equal(pruned.depth, full.depth, name);
    assert.ok(pruned.cases <= full.cases, `${name}: ${pruned.cases} <= ${full.cases}`);
    if (pruned.passed) assert.ok(pruned.cases < full.cases, `${name}: ${pruned.cases} < ${full.cases}`);
    else {
      const show = (r: typeof pruned) => [r.counterexample!.inputs.map((v) => prettyValue(v)), prettyDemand(r.counterexample!.resultDemand)];
      assert.deepEqual(show(pruned), show(full), name);
    }
  }
});

test("rot_naive fails with the paper's counterexample; map_strict needs a non-strict function", () => {
  const r = checkSpecExhaustive(rotSpec, rotNaive, { depth: 3 });
  assert.equal(r.depth, 1);
  const c = r.counterexample!;
  assert.deepEqual(c.inputs.map((v) => prettyValue(v)), ['0 : []', '[]']);
  assert.equal(prettyDemand(c.resultDemand), '_ : _');
  assert.deepEqual(c.actual.map((d) => prettyDemand(d)), ['_ : _', '_']);
  assert.deepEqual(c.predicted.map((d) => prettyDemand(d)), ['_ : _', '[]']);
  assert.equal(checkSpecExhaustive(rotSpec, rot, { depth: 2 }).passed, true);
  assert.equal(checkSpecExhaustive(mapSpec, map, { depth: 2 }).passed, true);
  const m = checkSpecExhaustive(mapSpec, mapStrict, { depth: 3 });
  assert.equal(m.passed, false);
  assert.match(prettyValue(m.counterexample!.inputs[0]), /^λx\. -?\d+$/); // a constant function
});

test('a case that threw under a demand on the result is reported with its total inputs, pruned or not', () => {
  // take, except that demanding a second cell of the result throws: every time, or only the first time
  const takeThrows = (always: boolean) => {
    let threw = false;
    return (n: Lazy<number>, xs: List<number>): List<number> =>
      lazy(() => {
        if (n.force() <= 0) return NIL;
        const c = xs.force();
        const rest: List<number> = lazy(() => {
          if (threw && !always) return NIL;
          threw = true;
          throw new Error('second cell');
        });
        return c instanceof Cons ? new Cons(c.head, rest) : NIL;
      });
  };
  for (const always of [true, false]) {
    for (const prune of [true, false]) {
      const r = checkSpecExhaustive(takeSpec, takeThrows(always), { depth: 2, prune, unicode: false });
      assert.equal(r.depth, 1);
      assert.deepEqual(r.counterexample!.inputs.map((v) => prettyValue(v)), ['1', '0 : []']);
      assert.equal(prettyDemand(r.counterexample!.resultDemand), '_ : ⊥');
      assert.match(r.message, /^Failed: the function threw \(exhaustive, depth 1, after \d+ cases\)\n[^]*\nThe function threw: Error: second cell\nReproduce with the options \{ depth: 1 \}\.$/);
    }
  }
  // The report runs the case's context again: it must force what it forced the first time.
  let heads = 0;
  const context = choiceContext(1, [1], []);
  for (let i = 1; i <= 2; i++) {
    context(new Cons(lazy(() => ++heads), now(NIL)));
    assert.equal(heads, i);
  }
});

test('pruning gives the same verdict when the function catches the error of a part it forced', () => {
  // a "safe" head: any error while reading the list gives -1; the spec wrongly says it never looks at the list
  const safeHead = (xs: List<number>): Lazy<number> =>
    lazy(() => {
      try {
        const c = xs.force();
        return c instanceof Cons ? c.head.force() : 0;
      } catch {
        return -1;
      }
    });
  const wrong = spec([list(number)], lazyOf(number), (predict, _d, _xs) => predict(thunk));
  for (const prune of [true, false]) {
    const r = checkSpecExhaustive(wrong, safeHead, { depth: 3, prune, unicode: false });
    assert.equal(r.passed, false);
    assert.equal(r.depth, 0);
    assert.deepEqual(r.counterexample!.inputs.map((v) => prettyValue(v)), ['[]']);
  }
});

test('a spec error names the depth and the inputs of its case', () => {
  const throws = spec([lazyOf(number), list(number)], list(number), (predict, _d, n, _xs) => {
    if (n.force() === 1) throw new TypeError('oops');
    predict(n, thunk);
  });
  assert.throws(() => checkSpecExhaustive(throws, take, { depth: 2 }), (err: unknown) => {
    assert.ok(err instanceof SpecError);
    assert.equal(err.message, 'the spec threw TypeError: oops (exhaustive, depth 1, inputs 1, [])');
    return true;
  });
});

test('a shape with only a fast-check arbitrary is a clear error naming the argument; withSeries fixes it', () => {
  const evens = withArbitrary(fc.integer().map((i) => 2 * i), number);
  const s = spec([evens, list(number)], number, (predict, _d, _n, _xs) => predict(_n, thunk), ['n', 'xs']);
  assert.throws(() => checkSpecExhaustive(s, (n: number, _xs) => n, { depth: 1 }), (err: unknown) => {
    assert.ok(err instanceof NoSeriesError);
    assert.match(err.message, /cannot enumerate n \(shape number\).*withSeries/);
    return true;
  });
  const withS = spec([withSeries(evens, (d) => [0, 2, -2].slice(0, 2 * d + 1)), list(number)], number, (predict, _d, n, _xs) => predict(n, thunk), ['n', 'xs']);
  const r = checkSpecExhaustive(withS, (n: number, _xs) => n, { depth: 2 });
  assert.equal(r.passed, true);
});


/** The counts of an exhaustive check: of the cases of its last depth, and of all. */
type Counts = { readonly cases: number; readonly totalCases: number };
/** An exhaustive check of `f` up to `depth` in `n` shards, and the counts of the whole check: `whole` where they are known, else the check's. */
const sharded = (s: unknown, f: unknown, depth: number, n: number, whole?: Counts) => ({
  all: whole ?? checkSpecExhaustive(s as never, f as never, { depth }),
  parts: Array.from({ length: n }, (_, i) => checkSpecExhaustive(s as never, f as never, { depth, shard: `${i + 1}/${n}` })),
});
/**
 * take's check up to depth 5 in 4 shards: made once, as two tests read it. The whole check's
 * counts are known (30,061 cases of depth 5, 33,490 up to it: docs/specs.md, examples/exhaustive's
 * transcript in docs/tutorial.md), where checking it whole again took a third of the first test.
 */
let takeShards: ReturnType<typeof sharded> | undefined;
const takeSharded = () => (takeShards ??= sharded(takeSpec, take, 5, 4, { cases: 30061, totalCases: 33490 }));

test('shards partition the cases of every depth; the shard holding the first counterexample reports it', () => {
  for (const { all, parts } of [takeSharded(), sharded(rotSpec, rot, 3, 3)]) {
    assert.ok(parts.every((p) => p.passed));
    assert.equal(parts.reduce((n, p) => n + p.cases, 0), all.cases);
    assert.equal(parts.reduce((n, p) => n + p.totalCases, 0), all.totalCases);
    assert.match(parts[1]!.message, new RegExp(`of depth \\d, shard 2/${parts.length} \\(`));
  }
  const first = checkSpecExhaustive(rotSpec, rotNaive, { depth: 3, unicode: false });
  // The diagram: between the header and the line that runs it again (which names the shard).
  const diagram = (m: string) => m.slice(m.indexOf('\n'), m.lastIndexOf('\nReproduce'));
  const shards = [1, 2, 3, 4, 5].map((i) => checkSpecExhaustive(rotSpec, rotNaive, { depth: 3, unicode: false, shard: `${i}/5` }));
  assert.ok(shards.every((r) => !r.passed && r.depth >= first.depth));
  assert.equal(shards.filter((r) => r.depth === first.depth && diagram(r.message) === diagram(first.message)).length, 1);
  assert.throws(() => checkSpecExhaustive(takeSpec, take, { depth: 2, shard: '3/2' }), /shard: expected "i\/n" with 1 <= i <= n, got "3\/2"/);
});

test('an argument with no value up to the depth (a stream) is refused, not checked over no case', () => {
  const s = spec([lazyOf(Stream)], number, (predict, _d, _xs) => predict(thunk));
  const throws = (_xs: Lazy<Stream>): number => {
    throw new Error('always');
  };
  for (const depth of [0, 3]) {
    assert.throws(() => checkSpecExhaustive(s, throws, { depth }), (err: unknown) => err instanceof NoSeriesError && /args\[0\] \(shape Lazy<Stream>\): it has no value of depth at most/.test(err.message));
  }
});

test('a result that does not fit its shape names its case', () => {
  const s = spec([list(number)], number, (predict, _d, xs) => predict(xs));
  const f = (xs: List<number>) => (xs.force().tag === 'Nil' ? ('none' as unknown as number) : 0);
  assert.throws(() => checkSpecExhaustive(s, f, { depth: 2 }), /expected number, got the string "none" \(exhaustive, depth 0, inputs \[\]\)$/);
});

test('shards share the cases of a depth evenly: none has far more than the mean', () => {
  // Subtrees met at one level of the tree differ in size by orders of magnitude: dealt out 256 per shard, one of 4 had 1.38 times the mean (1.83 at depth 6).
  const parts = takeSharded().parts.map((p) => p.cases);
  const mean = parts.reduce((a, b) => a + b) / parts.length;
  assert.ok(Math.max(...parts) < 1.3 * mean, `cases per shard: ${parts.join(', ')}`);
});
