/** Printing: values in the REPL and console.log, demands in the paper's notation, and the counterexample diagram. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import util from 'node:util';
import { lazy, thunk } from '../src/lazy/lazy.ts';
import { nil } from '../src/lazy/cell.ts';
import * as L from '../src/lazy/list.ts';
import { option } from '../src/demand/declared-data.ts';
import { dynamic } from '../src/demand/dynamic.ts';
import { demandEquals, type Demand, type Forced } from '../src/demand/demand.ts';
import { normalize, observe } from '../src/demand/observe.ts';
import { toDemand } from '../src/demand/convert.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { drawDiagram } from '../src/spec/diagram.ts';
import { importable, ownProcessArgs } from './fixtures/own-process.ts';

/** A shape of one field of any value: a demand on its value is printed as an argument. */
const maybe = option(dynamic);
/** The demand of all of `value`, as the argument of a constructor. */
const some = (value: unknown) => toDemand(maybe.make.Some({ value }), maybe);
/** How all of `v` prints as a demand. */
const show = (v: unknown) => prettyDemand(toDemand(v));

/** Every pair of `demands` prints alike exactly when the two are equal. */
function printedAlikeExactlyWhenEqual(demands: readonly Demand[]): void {
  for (const a of demands) for (const b of demands) assert.equal(prettyDemand(a) === prettyDemand(b), demandEquals(a, b), `${prettyDemand(a)} and ${prettyDemand(b)}`);
}

test('a value forced into a cycle (repeat, cycle, a tree that is its own subtree) prints a bounded prefix', () => {
  // In a child process with little memory and a deadline: unbounded, printing never ends.
  const from = (path: string) => JSON.stringify(importable(new URL(path, import.meta.url)));
  const script = `
    import util from 'node:util';
    import { lazy } from ${from('../src/lazy/lazy.ts')};
    import * as L from ${from('../src/lazy/list.ts')};
    import ${from('../src/demand/print.ts')};
    import { Tree } from ${from('./fixtures/shapes.ts')};
    const ones = L.repeat(1);
    ones.force();
    const cycle = L.cycle(L.fromArray([1, 2, 3]));
    L.toArray(L.take(4, cycle));
    const tree = lazy(() => Tree.make.Node({ left: tree, value: 1, right: tree }));
    console.log(JSON.stringify([util.inspect(ones), util.inspect(cycle), util.inspect(tree.force())]));
  `;
  const run = spawnSync(process.execPath, ['--max-old-space-size=200', ...ownProcessArgs(), '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(run.status, 0, `the child ended with ${run.status ?? run.signal}: ${run.stderr.slice(0, 500)}`);
  const [ones, cycle, tree] = JSON.parse(run.stdout) as string[];
  assert.match(ones!, /^Lazy\(1 : 1 : 1 : .* : 1 : …\)$/);
  assert.match(cycle!, /^Lazy\(1 : 2 : 3 : 1 : 2 : 3 : .* : …\)$/);
  assert.match(tree!, /^Node \(Node \(Node .*…/);
  for (const s of [ones, cycle, tree]) assert.ok(s!.length < 5000, s);
});

test('printing a lazy value forces nothing, and 100,000 evaluated cells print elided, without overflowing the stack', () => {
  let forced = 0;
  const xs = L.map((x: number) => x * 10, L.fromArray([1, 2, 3]));
  L.take(2, xs).force();
  const later = lazy(() => ++forced);
  assert.deepEqual([util.inspect(xs), util.inspect(later), util.inspect(L.cons(1, thunk))], ['Lazy(_ : _)', 'Lazy(_)', 'Lazy(1 : _)']);
  assert.equal(forced, 0);
  // Printing reads a prefix: cells enough to overflow the default stack, were it to walk them all recursively.
  const long = L.fromArray(Array.from({ length: 100_000 }, (_, i) => i));
  assert.equal(L.length(long), 100_000);
  const shown = util.inspect(long);
  assert.match(shown, /^Lazy\(0 : 1 : 2 : .*…/);
  assert.ok(shown.length < 1000, shown);
  assert.equal(util.inspect(L.fromArray([1, 2])), 'Lazy(1 : 2 : [])');
});

test('demands that differ print differently: -0, negative bigints, unit and empty or one-element tuples, sets and maps as arguments', () => {
  const showSome = (value: unknown) => prettyDemand(some(value));
  assert.deepEqual([showSome(-5n), showSome(5n), showSome(-5)], ['Some (-5n)', 'Some 5n', 'Some (-5)']);
  assert.deepEqual([show(-0), show(0), showSome(-0), show(L.cons(-0, nil))], ['-0', '0', 'Some (-0)', '-0 : []']);
  assert.deepEqual([show(undefined), show([]), show([-1]), showSome([-1]), show([1, undefined])], ['()', 'tuple()', '(-1,)', 'Some (-1,)', '(1, ())']);
  assert.deepEqual(
    [showSome(new Set([1])), showSome(new Map([[1, 2]])), show(new Set([1])), show(L.cons(new Set([1]), nil))],
    ['Some (Set {1})', 'Some (Map {1 => 2})', 'Set {1}', 'Set {1} : []'],
  );
  // Every pair of these, alone, as an argument and in a list: printed alike exactly when equal.
  const atoms = [0, -0, 1, -1, 5n, -5n, undefined, [], [-1], [0, 1], new Set([1]), new Set<number>(), new Map([[1, 2]]), '-1'];
  printedAlikeExactlyWhenEqual(atoms.flatMap((a) => [toDemand(a), some(a), toDemand(L.cons(a, nil))]));
});

test('diagram columns line up with wide characters (CJK, fullwidth, emoji) and combining marks', () => {
  // Each string takes the columns a terminal gives it: 日本語 six, e + U+0301 (é) one, ｘ two, 😀 and 👍🏽 (thumb and skin tone) two each.
  const diagram = drawDiagram({ inputs: ['"日本語"', '"e\u0301"', '"😀👍🏽"', '"ｘ"'], resultDemand: '葉 : 節 _ 1 : _', actual: ['"日本語"', '_', '_', '"ｘ"'], predicted: ['_', '"e\u0301"', '"😀👍🏽"', '_'] }, true);
  assert.equal(
    diagram,
    `┌────────────┐   ┌──────────────────┐
│ Inputs     ├───┤ Demand on result │
├────────────┤   ├──────────────────┤
│ • "日本語" │   │ 葉 : 節 _ 1 : _  │
│ • "e\u0301"      │   └──────────────────┘
│ • "😀👍🏽"   │
│ • "ｘ"     │
└────────────┘
  🡓 🡓 🡓
┌──────────────────────┐       ┌──────────────────────┐
│ Actual input demands │       │ Spec's input demands │
├──────────────────────┤  ═╱═  ├──────────────────────┤
│ • "日本語"           │       │ • _                  │
│ • _                  │       │ • "e\u0301"                │
│ • _                  │       │ • "😀👍🏽"             │
│ • "ｘ"               │       │ • _                  │
└──────────────────────┘       └──────────────────────┘`,
  );
});

test('eliding a long demand never cuts an emoji (a surrogate pair) in two', () => {
  for (let maxWidth = 10; maxWidth < 40; maxWidth++) {
    const printed = prettyDemand(toDemand(L.fromArray(Array.from({ length: 30 }, () => '😀'))), { maxWidth });
    assert.ok(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(printed), `maxWidth ${maxWidth}: ${printed}`);
  }
});

test('a long evaluated list prints with its true end, elided in the middle', () => {
  // With a budget of 200 layers, a finite list of 300 cells printed as if it went on: `… : 99 : …`.
  assert.match(util.inspect(L.fromArray(Array.from({ length: 300 }, (_, i) => i))), /^Lazy\(0 : 1 : .* : 298 : 299 : \[\]\)$/);
  assert.match(util.inspect(L.fromArray(Array.from({ length: 9_999 }, (_, i) => i))), /^Lazy\(0 : 1 : .* : 9997 : 9998 : \[\]\)$/);
});

test("the tail of a recorded list, a run of its cells begun past the first, prints its own elements, whole and elided, as the same list of plain cells does", () => {
  const recorded = observe(normalize, (xs: L.List<number>) => xs, L.fromArray(Array.from({ length: 40 }, (_, i) => i))).result;
  const tailOf = (d: Demand) => (d as Forced).field(1);
  const tail = tailOf(tailOf(tailOf(recorded)));
  const plain = toDemand(L.fromArray(Array.from({ length: 37 }, (_, i) => i + 3)));
  for (const maxItems of [40, 6]) assert.equal(prettyDemand(tail, { maxItems }), prettyDemand(plain, { maxItems }));
  assert.equal(prettyDemand(tail, { maxItems: 6 }), '3 : 4 : 5 : … (31 more) … : 37 : 38 : 39 : []');
});

test('eliding cuts only between tokens, keeps both ends and is never longer than maxWidth (at least 20) nor the text', () => {
  let nested: unknown = 123456789;
  for (let i = 0; i < 30; i++) nested = maybe.make.Some({ value: nested });
  const strings = ['a'.repeat(30), 'b'.repeat(30), 'c'.repeat(30)];
  const numbers = [123456789, 987654321];
  const cases = [
    { d: toDemand(L.fromArray(strings)), literals: strings.map((s) => JSON.stringify(s)) },
    { d: toDemand(L.fromArray(numbers)), literals: numbers.map(String) },
    { d: toDemand(L.fromArray(Array.from({ length: 30 }, (_, i) => 1000 + i))), literals: Array.from({ length: 30 }, (_, i) => String(1000 + i)) },
    { d: toDemand(nested), literals: ['123456789'] },
    { d: toDemand({ first: 'x'.repeat(12), second: 'y'.repeat(12) }), literals: [JSON.stringify('x'.repeat(12)), JSON.stringify('y'.repeat(12))] },
  ];
  for (const { d, literals } of cases) {
    const full = prettyDemand(d);
    for (let maxWidth = 0; maxWidth <= full.length + 1; maxWidth++) {
      const printed = prettyDemand(d, { maxWidth });
      const about = `maxWidth ${maxWidth}: ${printed}`;
      assert.ok(printed.length <= Math.max(maxWidth, 20) && printed.length <= full.length, about);
      if (full.length <= Math.max(maxWidth, 20)) {
        assert.equal(printed, full);
        continue;
      }
      const at = printed.indexOf('…');
      assert.ok(full.startsWith(printed.slice(0, at).trimEnd()) && full.endsWith(printed.slice(at + 1).trimStart()), about);
      // Cut inside a token, `"aaa… … ccc"` reads as one string and `123456 … 1` as two numbers.
      for (const literal of printed.match(/"[^"]*"|\d+/g) ?? []) assert.ok(literals.includes(literal), `${literal} in ${about}`);
    }
  }
  assert.equal(prettyDemand(cases[1]!.d, { maxWidth: 15 }), '… : 987654321 : []');
  assert.equal(prettyDemand(cases[2]!.d, { maxWidth: 40 }), '1000 : 1001 : 1002 … : 1028 : 1029 : []');
});

test('a list of 100,000 cells printed in full (maxItems Infinity) is elided by width, without overflowing the stack', () => {
  // Cells enough to overflow the default stack where printing recurses.
  const long = toDemand(L.fromArray(Array.from({ length: 100_000 }, (_, i) => i)));
  const shown = prettyDemand(long, { maxItems: Infinity });
  assert.match(shown, /^0 : 1 : 2 : .* … .* : 99998 : 99999 : \[\]$/);
  assert.ok(shown.length <= 4000, `${shown.length} characters`);
});

test('record keys that are not identifiers are quoted, and constructor names that are not or read as something else', () => {
  assert.deepEqual([show({ a: 1, c: 2, d: 3 }), show({ a: 1, 'c: 2, d': 3 }), show({ _: 1, $x: 2, 葉: 3, 'x"y': 4, '': 5 })], [
    '{ a: 1, c: 2, d: 3 }',
    '{ a: 1, "c: 2, d": 3 }',
    '{ _: 1, $x: 2, 葉: 3, "x\\"y": 4, "": 5 }',
  ]);
  assert.deepEqual(
    [show({ tag: '1' }), show({ tag: '_' }), show({ tag: 'true' }), show({ tag: 'my node', x: -1 }), show({ tag: "it's", x: 1 }), show({ tag: 'Node', x: 1 })],
    ["'1'", "'_'", "'true'", "'my node' (-1)", "'it\\'s' 1", 'Node 1'],
  );
  assert.equal(prettyDemand(some({ tag: '1 2', x: 3 })), "Some ('1 2' 3)");
  // Every pair of these, alone and as an argument: printed alike exactly when equal.
  const atoms = [1, '1', true, 'true', Infinity, { tag: '1' }, { tag: '"1"' }, { tag: 'true' }, { tag: 'Infinity' }, { tag: '_' }, { tag: 'a b' }, { tag: 'a', b: 1 }, { a: 1, c: 2, d: 3 }, { a: 1, 'c: 2, d': 3 }, { 'a, b': 1 }, { a: 1, b: 2 }];
  printedAlikeExactlyWhenEqual([toDemand(thunk), ...atoms.flatMap((a) => [toDemand(a), some(a)])]);
  // a symbol key is not the string of its description
  const s = Symbol('s');
  assert.equal(show({ [s]: 1 }), '{ [Symbol(s)]: 1 }');
  printedAlikeExactlyWhenEqual([toDemand({ [s]: 1 }), toDemand({ 'Symbol(s)': 1 }), toDemand({ '[Symbol(s)]': 1 })]);
});
