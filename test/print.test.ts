/** Printing: values in the REPL and console.log, demands in the paper's notation, and the counterexample diagram. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import util from 'node:util';
import { fileURLToPath } from 'node:url';
import { lazy, thunk } from '../src/lazy/lazy.ts';
import { nil } from '../src/lazy/cell.ts';
import * as L from '../src/lazy/list.ts';
import { dynamic, option } from '../src/demand/shape.ts';
import { demandEquals } from '../src/demand/demand.ts';
import { toDemand } from '../src/demand/convert.ts';
import { prettyDemand } from '../src/demand/print.ts';
import { drawDiagram } from '../src/spec/diagram.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

test('a value forced into a cycle (repeat, cycle, a tree that is its own subtree) prints a bounded prefix', () => {
  // In a child process with little memory and a deadline: unbounded, printing never ends.
  const script = `
    import util from 'node:util';
    import { lazy } from './src/lazy/lazy.ts';
    import * as L from './src/lazy/list.ts';
    import { data, lazyOf, number } from './src/demand/shape.ts';
    import './src/demand/print.ts';
    const ones = L.repeat(1);
    ones.force();
    const cycle = L.cycle(L.fromArray([1, 2, 3]));
    L.toArray(L.take(4, cycle));
    const Tree = data('Tree', (Tree) => ({ Leaf: {}, Node: { left: lazyOf(Tree), value: number, right: lazyOf(Tree) } }));
    const tree = lazy(() => Tree.make.Node({ left: tree, value: 1, right: tree }));
    console.log(JSON.stringify([util.inspect(ones), util.inspect(cycle), util.inspect(tree.force())]));
  `;
  const run = spawnSync(process.execPath, ['--max-old-space-size=200', '--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 30_000 });
  assert.equal(run.status, 0, `the child ended with ${run.status ?? run.signal}: ${run.stderr.slice(0, 500)}`);
  const [ones, cycle, tree] = JSON.parse(run.stdout) as string[];
  assert.match(ones!, /^Lazy\(1 : 1 : 1 : .* : 1 : …\)$/);
  assert.match(cycle!, /^Lazy\(1 : 2 : 3 : 1 : 2 : 3 : .* : …\)$/);
  assert.match(tree!, /^Node \(Node \(Node .*…/);
  for (const s of [ones, cycle, tree]) assert.ok(s!.length < 5000, s);
});

test('printing a lazy value forces nothing, and a million evaluated cells print fast, elided', () => {
  let forced = 0;
  const xs = L.map((x: number) => x * 10, L.fromArray([1, 2, 3]));
  L.take(2, xs).force();
  const later = lazy(() => ++forced);
  assert.deepEqual([util.inspect(xs), util.inspect(later), util.inspect(L.cons(1, thunk))], ['Lazy(_ : _)', 'Lazy(_)', 'Lazy(1 : _)']);
  assert.equal(forced, 0);
  const million = L.fromArray(Array.from({ length: 1_000_000 }, (_, i) => i));
  assert.equal(L.length(million), 1_000_000);
  const start = performance.now();
  const shown = util.inspect(million);
  assert.ok(performance.now() - start < 1000, `${performance.now() - start} ms`);
  assert.match(shown, /^Lazy\(0 : 1 : 2 : .*…/);
  assert.ok(shown.length < 1000, shown);
  assert.equal(util.inspect(L.fromArray([1, 2])), 'Lazy(1 : 2 : [])');
});

test('demands that differ print differently: -0, negative bigints, unit and empty or one-element tuples, sets and maps as arguments', () => {
  const maybe = option(dynamic);
  const some = (value: unknown) => toDemand(maybe.make.Some({ value }), maybe);
  const show = (v: unknown) => prettyDemand(toDemand(v));
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
  const demands = atoms.flatMap((a) => [toDemand(a), some(a), toDemand(L.cons(a, nil))]);
  for (const a of demands) for (const b of demands) assert.equal(prettyDemand(a) === prettyDemand(b), demandEquals(a, b), `${prettyDemand(a)} and ${prettyDemand(b)}`);
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
