/**
 * Errors a user meets: functions of demands given something else, thrown values that cannot be
 * printed, and the mistakes of a newcomer, each with a message that says what is wrong, where,
 * and how to fix it, and that keeps the counterexample.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { lazy, now, thunk, type Lazy } from '../src/lazy/lazy.ts';
import * as L from '../src/lazy/list.ts';
import { cons, fromArray, nil } from '../src/lazy/list.ts';
import type { List as LazyList } from '../src/lazy/cell.ts';
import { data, option, type DataShape } from '../src/demand/declared-data.ts';
import { dynamic } from '../src/demand/dynamic.ts';
import { lazyOf, list } from '../src/demand/lazy-positions.ts';
import { number } from '../src/demand/primitives.ts';
import { record } from '../src/demand/records.ts';
import { glb, lub } from '../src/demand/lattice.ts';
import { demandEquals, demandSize, isForced, lessDefined, type Demand } from '../src/demand/demand.ts';
import { evaluatedPart, fromDemand, toDemand } from '../src/demand/convert.ts';
import { prettyDemand, prettyValue, printDemand } from '../src/demand/print.ts';
import { normalize, observe, toContext } from '../src/demand/observe.ts';
import { withArbitrary } from '../src/engine/fast-check-bridge.ts';
import { shrinkDemand } from '../src/engine/shrink.ts';
import { predictDemands, spec, SpecError } from '../src/spec/spec.ts';
import { take, takeSpec } from '../examples/take.ts';
import { mapSpec } from '../examples/list-specs.ts';
import { ShapeMismatchError } from '../src/demand/shape-errors.ts';
import { strictProperty } from '../src/spec/property.ts';
import { unprintable, unprintableChecks, type Unprintable } from './fixtures/unprintable.ts';
import { mismatchOf } from './fixtures/assertions.ts';
import { checkSpec, checkSpecExhaustive } from '../src/checks.ts';

// ---------------------------------------------------------------------------------------------
// Demand functions refuse what is not a demand

const aDemand = toDemand(cons(thunk, thunk));

/** Every exported function taking a demand, called with `d` in the place of argument `name`. */
const demandTakers: readonly [string, string, (d: Demand) => unknown][] = [
  ['demandEquals', 'a', (d) => demandEquals(d, aDemand)],
  ['demandEquals', 'b', (d) => demandEquals(aDemand, d)],
  ['lessDefined', 'a', (d) => lessDefined(d, aDemand)],
  ['lessDefined', 'b', (d) => lessDefined(aDemand, d)],
  ['demandSize', 'd', (d) => demandSize(d)],
  ['isForced', 'd', (d) => isForced(d)],
  ['prettyDemand', 'demand', (d) => prettyDemand(d)],
  ['printDemand', 'demand', (d) => printDemand(d)],
  ['fromDemand', 'demand', (d) => fromDemand(d)],
  ['toContext', 'demand', (d) => toContext(d)],
  ['shrinkDemand', 'demand', (d) => [...shrinkDemand(d)]],
  ['predictDemands', 'resultDemand', (d) => predictDemands(takeSpec, d, [now(1), nil])],
  ['lub', 'a', (d) => lub(d, aDemand)],
  ['lub', 'b', (d) => lub(aDemand, d)],
  ['glb', 'a', (d) => glb(d, aDemand)],
  ['glb', 'b', (d) => glb(aDemand, d)],
];

test('every function of demands refuses a non-demand with a TypeError naming the argument and how to make a demand', () => {
  for (const notADemand of [5, {}, { forced: false }, { forced: true, ctor: { name: ':' } }, null, undefined, cons(1, thunk)]) {
    for (const [fn, name, call] of demandTakers) {
      assert.throws(
        () => call(notADemand as unknown as Demand),
        (err: unknown) => {
          assert.ok(err instanceof TypeError, `${fn}: ${String(err)}`);
          assert.match(err.message, new RegExp(`^${fn}: its argument ${name} is not a demand`));
          assert.match(err.message, /toDemand\(value, shape\)/);
          assert.match(err.message, /observe/);
          return true;
        },
      );
    }
  }
  assert.equal(demandEquals(aDemand, toDemand(cons(thunk, thunk))), true, 'demands are still taken');
});

test('demands on two data types that share constructor names are not equal, nor less defined', () => {
  type Tree = { tag: 'Leaf' } | { tag: 'Node'; value: number };
  type Heap = { tag: 'Leaf' } | { tag: 'Node'; value: number };
  const Tree: DataShape<Tree> = data<Tree>('Tree', () => ({ Leaf: {}, Node: { value: number } }));
  const Heap: DataShape<Heap> = data<Heap>('Heap', () => ({ Leaf: {}, Node: { value: number } }));
  const tree = toDemand(Tree.make.Leaf(), Tree);
  const heap = toDemand(Heap.make.Leaf(), Heap);
  assert.equal(demandEquals(tree, heap), false);
  assert.equal(lessDefined(tree, heap), false);
  assert.equal(demandEquals(toDemand(Tree.make.Node({ value: 1 }), Tree), toDemand(Heap.make.Node({ value: 1 }), Heap)), false);
  // Two declarations of one name (two modules' Tree) are two types too; option(number) made twice is one.
  const Tree2: DataShape<Tree> = data<Tree>('Tree', () => ({ Leaf: {}, Node: { value: number } }));
  assert.equal(demandEquals(tree, toDemand(Tree2.make.Leaf(), Tree2)), false);
  assert.equal(lessDefined(toDemand(Tree.make.Node({ value: 1 }), Tree), toDemand(Tree2.make.Node({ value: 1 }), Tree2)), false);
  assert.equal(demandEquals(toDemand({ tag: 'Some', value: 3 }, option(number)), toDemand({ tag: 'Some', value: 3 }, option(number))), true);
});

// ---------------------------------------------------------------------------------------------
// A thrown value that cannot be printed is described safely, and the counterexample kept

/** How a report names each kind of thrown value: a part of it that must be there. */
const described: Record<Unprintable, string> = {
  'an object without a prototype': '[Object: null prototype] {}',
  'an object whose toString throws': '{ toString: [Function: toString] }',
  'an error whose message getter throws': 'Error (its message could not be read)',
  'a 10 MB string': `${'x'.repeat(100)}`,
  'a revoked Proxy': '<Revoked Proxy>',
  'a Proxy whose traps throw': '{}',
};

/** Asserts that `message` is a failure's report, with the diagram, naming the thrown `kind` as `label` does, in bounded length. */
function reportsThrown(message: string, kind: Unprintable, label = 'The function threw: '): void {
  assert.match(message, /Actual input demands/, 'the counterexample diagram is there');
  assert.ok(message.includes(`${label}${described[kind]}`), message.slice(0, 3000));
  if (kind === 'a 10 MB string') assert.match(message, /… \(cut: 10000000 characters in all\)/);
  assert.ok(message.length < 5000, `a report of ${message.length} characters`);
}

/** Asserts that `err` is the spec error of a spec that threw `kind`, naming the trial (`where`), in bounded length. */
function specErrorNames(err: unknown, kind: Unprintable, where: RegExp): true {
  assert.ok(err instanceof SpecError, String(err instanceof Error ? err.message : typeof err));
  assert.ok(err.message.startsWith(`the spec threw ${described[kind]}`), err.message.slice(0, 3000));
  assert.match(err.message, where);
  assert.ok(err.message.length < 5000, `a message of ${err.message.length} characters`);
  return true;
}

for (const kind of Object.keys(unprintable) as Unprintable[]) {
  const { fn: fnCheck, spec: specCheck } = unprintableChecks[kind];

  test(`a function that throws ${kind} gives the counterexample diagram, naming what it threw, with and without workers`, { timeout: 60_000 }, async () => {
    const result = checkSpec(fnCheck.spec, fnCheck.fn, { seed: 1 });
    reportsThrown(result.message, kind);
    assert.match(inspect(result), /passed: false[^]*Actual input demands/, 'console.log prints the result');
    reportsThrown((await checkSpec(fnCheck.spec, fnCheck.fn, { seed: 1, workers: 1 })).message, kind);
    assert.throws(() => fc.assert(strictProperty(fnCheck.spec, fnCheck.fn), { seed: 1 }), (err: Error) => (reportsThrown(err.message, kind), true));
  });

  test(`a function that throws ${kind} gives the counterexample diagram in the exhaustive mode, with and without workers`, { timeout: 60_000 }, async () => {
    reportsThrown(checkSpecExhaustive(fnCheck.spec, fnCheck.fn, { depth: 1 }).message, kind);
    reportsThrown((await checkSpecExhaustive(fnCheck.spec, fnCheck.fn, { depth: 1, workers: 1 })).message, kind);
  });

  test(`a spec that throws ${kind} is a spec error naming what it threw and the trial, with and without workers`, { timeout: 60_000 }, async () => {
    assert.throws(() => checkSpec(specCheck.spec, specCheck.fn, { seed: 1 }), (err) => specErrorNames(err, kind, /\(trial 1, seed 1, inputs 0, \[\]\)$/));
    await assert.rejects(checkSpec(specCheck.spec, specCheck.fn, { seed: 1, workers: 1 }), (err) => specErrorNames(err, kind, /\(trial 1, seed 1, inputs 0, \[\]\)$/));
    assert.throws(() => checkSpecExhaustive(specCheck.spec, specCheck.fn, { depth: 1 }), (err) => specErrorNames(err, kind, /\(exhaustive, depth 0, inputs 0, \[\]\)$/));
  });
}

test('a spec whose prediction throws something unprintable when read is a spec error naming what it threw', () => {
  const predictsBottom = spec([lazyOf(number), list(number)], list(number), (predict, _d, n) => predict(n, lazy(() => { throw Object.create(null); })));
  assert.throws(() => checkSpec(predictsBottom, take, { seed: 1 }), (err) => {
    assert.ok(err instanceof SpecError, String(err));
    assert.match(err.message, /^the spec's prediction threw when it was read: \[Object: null prototype\] \{\} \(trial 1, seed 1, inputs 0, \[\]\)$/);
    return true;
  });
});

// ---------------------------------------------------------------------------------------------
// The mistakes of a newcomer: what is wrong, where (argument, trial, seed), and how to fix it

/** The message of what `f` throws (failing if it throws nothing). */
function thrownMessage(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  assert.fail('nothing was thrown');
}

test('an arbitrary of plain arrays given for a lazy list is refused naming the argument, the trial and seed, and fromArray', () => {
  const reverseSpec = spec([withArbitrary(fc.array(fc.nat()) as never as fc.Arbitrary<LazyList<number>>, list(number))], list(number), (predict, _d, xs) => predict(xs), ['xs']);
  const message = thrownMessage(() => checkSpec(reverseSpec, L.reverse, { seed: 1 }));
  assert.match(message, /at xs: expected a lazy list/);
  assert.match(message, /got an array of length \d+/);
  assert.match(message, /\.map\(fromArray\)/);
  assert.match(message, /\(trial 1, seed 1, inputs \(/, 'the trial and its input, shown as it is');
});

test('a record or data value without a declared field is refused naming the path, the field, the trial and seed', () => {
  const Point = record({ x: number, y: number });
  const pointSpec = spec([withArbitrary(fc.constant({ x: 1 }) as never as fc.Arbitrary<{ x: number; y: number }>, Point)], number, (predict, _d, p) => predict(p), ['p']);
  const message = thrownMessage(() => checkSpec(pointSpec, (p: { x: number; y: number }) => p.x, { seed: 1 }));
  assert.match(message, /at p\.y: expected field 'y' of \{ x: number; y: number \}, got nothing: the object has no field 'y' \(its fields: x\)/);
  assert.match(message, /\(trial 1, seed 1, inputs \{ x: 1 \}\)$/);
  type T = { tag: 'Leaf' } | { tag: 'Node'; value: number; right: T };
  const T: DataShape<T> = data<T>('T', (T) => ({ Leaf: {}, Node: { value: number, right: T } }));
  assert.match(thrownMessage(() => toDemand({ tag: 'Node', value: 1 } as T, T)), /at demand\.right: expected field 'right' of T's Node, got nothing: the object has no field 'right' \(its fields: tag, value\)/);
});

test('an async or generator function given to check or observe is refused, saying what is supported', () => {
  const idSpec = spec([list(number)], list(number), (predict, d) => predict(d));
  const cases: [string, (xs: LazyList<number>) => never][] = [
    ['an async function', (async (xs: LazyList<number>) => xs) as never],
    ['a generator function', function* (xs: LazyList<number>) { yield xs; } as never],
    ['an async generator function', async function* (xs: LazyList<number>) { yield xs; } as never],
  ];
  for (const [what, f] of cases) {
    for (const run of [() => checkSpec(idSpec, f), () => checkSpecExhaustive(idSpec, f, { depth: 1 }), () => observe(normalize, f, fromArray([1]))]) {
      const message = thrownMessage(run);
      assert.match(message, new RegExp(`is ${what}`), message);
      assert.match(message, /a plain function \(or arrow function\) that returns its result/, message);
    }
  }
});

/** Trees whose right subtree is declared strict: a slip for a function that forces it. */
type SlipTree = { tag: 'Leaf' } | { tag: 'Node'; left: Lazy<SlipTree>; value: number; right: SlipTree };
const SlipTree: DataShape<SlipTree> = data<SlipTree>('SlipTree', (T) => ({ Leaf: {}, Node: { left: lazyOf(T), value: number, right: T } }));

test('a function that forces a field declared strict gets a hint naming the field, its argument and lazyOf, below the diagram; one that forces what the shapes say nothing of gets none', () => {
  // Written as if `right` were lazy: the observed copy holds a plain value there.
  const rightmost = (t: Lazy<SlipTree>): number => {
    let v = 0;
    for (let n = t.force() as { tag: string; value?: number; right?: unknown }; n.tag === 'Node'; n = (n.right as Lazy<typeof n>).force()) v = n.value!;
    return v;
  };
  const rightmostSpec = spec([lazyOf(SlipTree)], number, (predict, _d, t) => predict(t));
  const r = checkSpec(rightmostSpec, rightmost, { seed: 3 });
  assert.equal(r.passed, false);
  assert.match(r.message, /Actual input demands/, 'the counterexample diagram is there');
  assert.match(r.message, /\nThe function threw: TypeError: n\.right\.force is not a function\nHint: the function called force on n\.right, which is not a Lazy\. In the shapes of t, field right of SlipTree's Node is declared SlipTree: a strict field holds its value, not a Lazy\. If the function takes a Lazy there, declare the field lazyOf\(SlipTree\)\.\nReproduce with the option \{ seed: 3 \}\.$/);
  assert.equal(r.counterexample?.error?.hint?.startsWith('Hint: '), true);
  // No hint where the shapes say nothing of what was forced: `other` is no field of theirs.
  const other = checkSpec(rightmostSpec, (t: Lazy<SlipTree>) => {
    const k = { other: 1 } as unknown as { other: Lazy<number> };
    return t.force().tag === 'Leaf' ? 0 : k.other.force();
  }, { seed: 1 });
  assert.match(other.message, /The function threw: TypeError: k\.other\.force is not a function\nReproduce/);
  assert.doesNotMatch(other.message, /Hint/);
});

test('a function that forces an argument declared strict gets a hint naming the argument and lazyOf', () => {
  const r = checkSpec(spec([number], number, (predict, _d, n) => predict(n)), (n: number) => (n as unknown as Lazy<number>).force(), { seed: 1 });
  assert.match(r.message, /\nHint: the function called force on n, which is not a Lazy\. Argument n is declared number, which is strict: the function receives its value, not a Lazy\. If the function takes a Lazy there, declare the argument lazyOf\(number\)\.\n/);
});

test('observe of a function given a plain array where it forces a lazy list says so, with fromArray', () => {
  const message = thrownMessage(() => observe(normalize, L.reverse, [1, 2, 3] as never));
  assert.match(message, /^xs\.force is not a function\nHint: the function called force on xs, which is not a Lazy\. Argument xs is given an array, which is passed as it is \(a tuple\), not as a lazy list: if the function takes a lazy list, make one with fromArray\(array\)\.$/);
});

test('a revoked Proxy in an input is refused naming where it is, the trial and seed, and the fix', () => {
  const { proxy, revoke } = Proxy.revocable({ x: 1 }, {});
  revoke();
  const refusal = /expected a value it can read \(give the value itself, or a Proxy not revoked\), got a revoked Proxy, on which every operation throws/;
  const top = mismatchOf(() => observe(normalize, (_p: unknown) => 1, proxy));
  assert.equal(top.path, 'args[0]');
  assert.match(top.message, refusal);
  const nested = mismatchOf(() => observe(normalize, (xs: LazyList<unknown>) => xs, fromArray([1, proxy])));
  assert.equal(nested.path, 'args[0].tail.head');
  // In a check (fast-check itself cannot take a revoked Proxy for a whole generated value).
  const Point = record({ x: number });
  const points = withArbitrary(fc.nat().map(() => fromArray([proxy as { x: number }])), list(Point));
  const sumSpec = spec([points], number, (predict, _d, ps) => predict(ps), ['ps']);
  const inCheck = mismatchOf(() => checkSpec(sumSpec, (ps: LazyList<{ x: number }>) => L.sum(L.map((p) => p.x, ps)), { seed: 1 }));
  assert.equal(inCheck.path, 'ps.head');
  assert.match(inCheck.message, refusal);
  assert.match(inCheck.message, /\(trial 1, seed 1, inputs <revoked Proxy> : \[\]\)$/);
});

test('a revoked Proxy is refused naming where it is by every reading of a value, and blamed on the input, not on a spec that passes it through', () => {
  const { proxy, revoke } = Proxy.revocable({ x: 1 }, {});
  revoke();
  assert.equal(mismatchOf(() => toDemand({ a: proxy })).path, 'demand.a');
  assert.equal(mismatchOf(() => toDemand(proxy)).path, 'demand');
  assert.equal(mismatchOf(() => evaluatedPart(fromArray([proxy]))).path, 'value.head');
  assert.equal(mismatchOf(() => prettyValue({ a: proxy })).path, 'value.a');
  assert.throws(() => demandEquals(proxy as never, aDemand), /demandEquals: its argument a is not a demand, got <Revoked Proxy>/);
  // The function never reads the element; the spec passes the list through, and reading it finds the Proxy.
  const elems = withArbitrary(fc.nat().map(() => fromArray([proxy])), list(dynamic));
  const lengthSpec = spec([elems], number, (predict, _d, xs) => predict(xs), ['xs']);
  const inCheck = mismatchOf(() => checkSpec(lengthSpec, (xs: LazyList<unknown>) => L.length(xs), { seed: 1 }));
  assert.equal(inCheck.path, 'xs.head');
  assert.match(inCheck.message, /\(trial 1, seed 1, inputs <revoked Proxy> : \[\]\)$/);
});

test('an arbitrary that cannot make its value is named, with its trial and seed', () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  const s = spec([withArbitrary(fc.constant(proxy), dynamic)], number, (predict, _d, x) => predict(x));
  assert.throws(() => checkSpec(s, (_x: unknown) => 1, { seed: 1 }), /^TypeError: generating args\[0\] \(shape unknown\) threw: TypeError: Cannot perform 'has' on a proxy that has been revoked \(trial 1, seed 1\)$/);
});

test("a function that calls its generated function argument with what its shape does not declare is refused naming that argument of the generated function, where the message said 'at value'", () => {
  // map's element function is declared fn([lazyOf(number)], number): this map gives it the element's value.
  const mapGivingValues = (f: (x: Lazy<number>) => number, xs: LazyList<number>) => L.mapLazy((x: Lazy<number>) => lazy(() => f(x.force() as never)), xs);
  assert.throws(() => checkSpec(mapSpec, mapGivingValues as never, { seed: 1 }), (err: unknown) =>
    err instanceof ShapeMismatchError && /at argument 0 of a generated function \(Lazy<number>\) => number: expected a Lazy, got number -?\d+ \(trial \d+, seed 1/.test(err.message),
  );
});

test('a function that calls its generated function argument with what its shape does not declare is refused past the 64 calls the report shows, where such a call was taken as it was', () => {
  // 70 calls that fit, then one that gives the element's value where a Lazy is declared.
  const mapGivingLate = (f: (x: Lazy<number>) => number, xs: LazyList<number>) => {
    for (let i = 0; i < 70; i++) f(lazy(() => i));
    f(5 as never);
    return L.mapLazy((x: Lazy<number>) => lazy(() => f(x)), xs);
  };
  assert.throws(() => checkSpec(mapSpec, mapGivingLate as never, { seed: 1, trials: 1 }), (err: unknown) =>
    err instanceof ShapeMismatchError && /at argument 0 of a generated function \(Lazy<number>\) => number: expected a Lazy, got number 5 /.test(err.message),
  );
});
