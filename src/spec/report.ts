/**
 * The report of a failed case: its inputs and demands shown bounded (side by side where they
 * differ alike), drawn as the counterexample diagram, with what was thrown.
 * @module
 */
import { ForceBudgetExceeded, Lazy, overBudget, peek } from '../lazy/lazy.ts';
import { demandEquals, Forced, forcedNode, type Demand } from '../demand/demand.ts';
import { prettyDemand } from '../demand/print.ts';
import { valuePrefix } from '../demand/convert.ts';
import { describeSafely } from '../demand/describe.ts';
import { insideLazy } from '../demand/shape-fit.ts';
import { lenient } from '../demand/dynamic.ts';
import type { Shape } from '../demand/shape-types.ts';
import { perShape, someShapeWithin } from '../demand/shape-walk.ts';
import { resetCalls } from '../engine/random-function.ts';
import { drawDiagram } from './diagram.ts';
import { argumentName } from '../demand/observe.ts';
import { UnhandledRejectionError } from './unhandled-rejections.ts';
import { NeverSettlesError } from '../demand/never-settles.ts';
import { sourceOf } from '../iter/source.ts';
import type { AnySpec, Trial } from './run-case.ts';

/** What the error of `t` says, after the label of a report's line (or the force budget's, {@link BUDGET_RAN_OUT}, where the context forced the result). */
function describeError({ error, resultDemand }: Trial): string {
  const { thrown, forcingResult } = error!;
  if (thrown instanceof ForceBudgetExceeded) {
    return forcingResult
      ? `the context forced the result to ${showDemand(resultDemand)}, which ${overBudget(thrown.budget)}: raise forceBudget if the case needs more (if it runs out still, forcing the function's result diverges)`
      : `it ${overBudget(thrown.budget)}: it probably diverges`;
  }
  if (thrown instanceof NeverSettlesError) return NeverSettlesError.why;
  return describeSafely(thrown instanceof UnhandledRejectionError ? thrown.reason : thrown);
}

/**
 * @internal Where case `t` diverged (its function ran out of the force budget) and an input is a
 * generated infinite source: the hint that names the option making its sources finite, the fix
 * for a function meant to pull them to the end (it diverges on an infinite one).
 */
export function infiniteSourceHint(s: Pick<AnySpec, 'args' | 'names'>, t: Trial): string | undefined {
  if (!(t.error?.thrown instanceof ForceBudgetExceeded) || t.error.forcingResult) return undefined;
  for (let i = 0; i < t.inputs.length; i++) {
    const plan = sourceOf(t.inputs[i])?.plan;
    const protocol = (s.args[i] as Shape<unknown> | undefined)?.protocol;
    if (plan === undefined || !plan.infinite || plan.elements.length === 0 || protocol === undefined) continue;
    const maker = `${protocol.async ? 'asyncI' : 'i'}${protocol.oneShot ? 'terator' : 'terable'}`;
    return `${argumentName(s.names, i)} is an infinite source (${maker}(…) makes finite and infinite ones): if the function is meant to pull it to its end, declare it ${maker}(…, { finite: true }) (docs/iterators.md)`;
  }
  return undefined;
}

/** How a report introduces a force budget that ran out while the context forced the result. */
const BUDGET_RAN_OUT = 'The force budget ran out';

/**
 * @internal Input `i` of a case as a report shows it: bounded, so that a huge or infinite input
 * prints elided, and a part whose evaluation throws prints `⊥`: a report must not fail with the
 * error of a partial input (the function may have thrown it, or never forced it).
 */
export function showInput(s: Pick<AnySpec, 'args'>, v: unknown, i: number): string {
  // An input that does not fit its shape (the mismatch a message reports) shows as it is, and one
  // that cannot be read at all (a revoked Proxy) as util.inspect shows it.
  for (const shape of [s.args[i] as Shape<unknown>, lenient]) {
    try {
      return prettyDemand(valuePrefix(v, shape, 60, true, true), SHOWN);
    } catch {
      continue;
    }
  }
  return describeSafely(v, SHOWN.maxWidth);
}

/** @internal A case's inputs as a message names them: each as {@link showInput} shows it, joined by commas. */
export function showInputs(s: Pick<AnySpec, 'args'>, inputs: readonly unknown[]): string {
  return inputs.map((v, i) => showInput(s, v, i)).join(', ');
}

/** Longest list a report prints in full. */
const MAX_ITEMS = 12;
/** How a report prints inputs and demands: lists of up to {@link MAX_ITEMS} items in full, lines of up to 100 characters. */
const SHOWN = { maxItems: MAX_ITEMS, maxWidth: 100 } as const;

/** @internal A demand as a report shows it (bounded). */
export function showDemand(d: Demand): string {
  return prettyDemand(d, SHOWN);
}

/**
 * @internal The actual and the predicted demand on an input as a report shows them side by side:
 * as {@link showDemand}, unless that prints two demands that differ alike (they differ in the
 * elided middle of a long list or of a long text). Then each list on the way to their first
 * difference is cut around it instead, and if the texts are still too long to show it, they are
 * printed in full width.
 */
export function showDemandPair(actual: Demand, predicted: Demand): [string, string] {
  const a = showDemand(actual);
  const p = showDemand(predicted);
  const path = a === p ? firstDifference(actual, predicted) : undefined;
  if (path === undefined) return [a, p];
  const [fa, fp] = [focus(actual, path), focus(predicted, path)];
  const [a2, p2] = [showDemand(fa), showDemand(fp)];
  if (a2 !== p2) return [a2, p2];
  return [prettyDemand(fa, { ...SHOWN, maxWidth: Infinity }), prettyDemand(fp, { ...SHOWN, maxWidth: Infinity })];
}

/**
 * The top layer of `d` alone, its fields unforced: two layers differ as {@link demandEquals}
 * compares them (forced or not, constructor, primitive, arity) exactly when theirs are unequal.
 */
function layerOf(d: Demand): Demand {
  return d.forced ? forcedNode(d.ctor, d.arity, d.value, d.lazy) : d;
}

/** The path (field indices from the root) to the first node where `a` and `b` differ, in preorder; `undefined` if they are equal. Iterative: a list may be long. */
function firstDifference(a: Demand, b: Demand): number[] | undefined {
  const path: number[] = [];
  const stack: [Demand, Demand, number, number][] = [[a, b, 0, -1]]; // the two nodes, their depth, their index in their parent
  while (stack.length > 0) {
    const [x, y, depth, index] = stack.pop()!;
    path.length = depth;
    if (depth > 0) path[depth - 1] = index;
    if (!demandEquals(layerOf(x), layerOf(y))) return path;
    if (!x.forced) continue;
    for (let i = x.arity - 1; i >= 0; i--) stack.push([x.field(i), (y as Forced).field(i), depth + 1, i]);
  }
  return undefined;
}

/** An item of a list that stands for `count` items left out, printed as `prettyDemand` prints those it leaves out. */
function leftOut(count: number): Forced {
  return new Forced({ name: `… (${count} more) …`, keys: [], style: 'atom', build: () => undefined }, [], undefined, false);
}

/**
 * `d` with every list that `path` goes through cut to at most {@link MAX_ITEMS} items around the
 * item the path goes on to (or its end): its first two and last two items, and the five around
 * it. Other parts are kept (printing elides them as usual). Iterative: the path may be long.
 */
function focus(d: Demand, path: readonly number[]): Demand {
  const rebuild: ((child: Demand) => Demand)[] = []; // from the root down, each node on the path given its rebuilt child
  let node = d;
  let k = 0;
  while (k < path.length && node.forced) {
    const here = node;
    if (here.ctor.style !== 'cons') {
      const i = path[k++]!;
      rebuild.push((child) => new Forced(here.ctor, here.fields.map((f, j) => (j === i ? child : f)), here.value, here.lazy));
      node = here.field(i);
      continue;
    }
    // A list: its cells, and cell j, which the path reaches by following tails (j = cells.length: the list's end).
    const cells: Forced[] = [];
    for (let c: Demand = here; c.forced && c.ctor.style === 'cons'; c = c.field(1)) cells.push(c);
    let j = 0;
    for (; j < cells.length && k < path.length && path[k] === 1; k++) j++;
    const end = cells[cells.length - 1]!.field(1);
    // The path goes on into the head of cell j, or to the list's end, or stops at cell j (the difference).
    const intoHead = j < cells.length && k < path.length;
    if (intoHead) k++;
    node = intoHead ? cells[j]!.field(0) : j < cells.length ? cells[j]! : end;
    const keep = Math.floor(MAX_ITEMS / 2);
    const cut = cells.length > MAX_ITEMS && j >= keep && j < cells.length - keep;
    // The items kept, as [index of a cell, or a count left out]; the one at j is the path's.
    const items: (number | Forced)[] = cut
      ? [0, 1, leftOut(j - 4), j - 2, j - 1, j, j + 1, j + 2, leftOut(cells.length - j - 5), cells.length - 2, cells.length - 1]
      : cells.map((_, i) => i);
    rebuild.push((child) => {
      let list = j < cells.length ? end : child;
      for (let i = items.length - 1; i >= 0; i--) {
        const item = items[i]!;
        const cell = cells[typeof item === 'number' ? item : j]!;
        const head = typeof item !== 'number' ? item : item === j && intoHead ? child : cell.field(0);
        list = new Forced(cell.ctor, [head, list], cell.value, cell.lazy);
      }
      return list;
    });
  }
  let built = node;
  for (let i = rebuild.length - 1; i >= 0; i--) built = rebuild[i]!(built);
  return built;
}

/**
 * Calls `visit` with each function in the evaluated part of `value`, of shape `shape`, forcing
 * nothing, once each (a cyclic value is fine). Iterative, so that a long list is fine.
 */
function forEachFunction(value: unknown, shape: Shape<unknown>, visit: (f: unknown) => void): void {
  const seen = new Set<unknown>();
  const stack: [unknown, Shape<unknown>][] = [[value, shape]];
  walk: while (stack.length > 0) {
    let [v, s] = stack.pop()!;
    while (v instanceof Lazy) {
      if (!v.isEvaluated) continue walk;
      s = insideLazy(s, v, 'value');
      v = peek(v);
    }
    if (typeof v === 'function' || (typeof v === 'object' && v !== null)) {
      if (seen.has(v)) continue;
      seen.add(v);
    }
    if (typeof v === 'function') {
      visit(v);
      continue;
    }
    const layer = s.project(v, 'value');
    for (let i = layer.fields.length - 1; i >= 0; i--) stack.push([layer.fields[i], layer.shapes[i]!]);
  }
}

/** @internal Forgets the calls of every generated function in `inputs`, at any depth, so that a report shows only those of the next run. */
export function resetInputCalls(s: AnySpec, inputs: readonly unknown[]): void {
  inputs.forEach((v, i) => {
    const shape = s.args[i] as Shape<unknown>;
    if (mayHoldFunctions(shape)) forEachFunction(v, shape, resetCalls);
  });
}

/** Whether a value of a shape can hold a generated function: only then is it walked for one (a property runs this per case). */
const mayHoldFunctions = perShape((shape) => someShapeWithin(shape, (x) => x.kind === 'fn' || x.kind === 'dynamic' || x.arbitrary !== undefined));

/**
 * @internal The report of a failed case; `errorLabel` introduces its error, if it has one. A case
 * stopped in a worker (`stopped`: what happened) recorded no demands: they show as unknown, not
 * as `_`, which would say that nothing was evaluated.
 */
export function report(s: AnySpec, t: Trial, header: string, unicode: boolean, errorLabel = 'The function threw', stopped?: { readonly unknown: string; readonly what: string }): string {
  const unknown = stopped && `(unknown: ${stopped.unknown})`;
  const left = t.error?.thrown instanceof UnhandledRejectionError;
  const thrown = t.error?.thrown;
  const label = left
    ? 'The function left a rejection unhandled'
    : t.error?.forcingResult
      ? BUDGET_RAN_OUT
      : thrown instanceof NeverSettlesError
        ? 'The function never settled'
        : thrown instanceof ForceBudgetExceeded && !stopped
          ? 'The function diverged'
          : errorLabel;
  const pairs = t.error ? undefined : t.actual.map((d, i) => showDemandPair(d, t.predicted[i]!));
  const parts = {
    inputs: t.inputs.map((v, i) => showInput(s, v, i)),
    resultDemand: unknown ?? showDemand(t.resultDemand),
    actual: pairs ? pairs.map(([a]) => a) : t.actual.map((d) => unknown ?? showDemand(d)),
    predicted: pairs ? pairs.map(([, p]) => p) : t.actual.map(() => `(not asked: ${stopped?.what ?? (label === errorLabel ? 'the function threw' : label.toLowerCase())})`),
    predictor: s.predictor,
  };
  const lines = [header, drawDiagram(parts, unicode)];
  if (t.error) lines.push(`${label}: ${describeError(t)}`);
  if (t.error?.hint !== undefined) lines.push(t.error.hint);
  const infinite = infiniteSourceHint(s, t);
  if (infinite !== undefined) lines.push(infinite);
  return lines.join('\n');
}

/** What failed in `t`, as a report's first line says it. */
function failureWhat(t: Trial, s?: AnySpec): string {
  return !t.error
    ? s?.predictor
      ? `the function's demands differ from the ${s.predictor.toLowerCase()}'s`
      : 'the spec does not match the function'
    : t.error.thrown instanceof ForceBudgetExceeded
      ? t.error.forcingResult ? 'the force budget ran out while the context forced the result' : 'the function probably diverges'
      : t.error.thrown instanceof UnhandledRejectionError
        ? 'the function left a rejection unhandled'
        : t.error.thrown instanceof NeverSettlesError
          ? 'the function never settles'
          : 'the function threw';
}

/** @internal The first line of a failure's report: what failed, and `where` (how it was found) in parentheses. */
export function failureHeader(t: Trial, where?: string, s?: AnySpec): string {
  const what = failureWhat(t, s);
  return where === undefined ? `Failed: ${what}` : `Failed: ${what} (${where})`;
}

/**
 * @internal What the failing case `found` did when it was run again (`again`, for the report), if
 * that differs from what it did when found: it passed, failed otherwise, or put other demands. Its
 * failure then depends on more than its inputs and context (timing, state kept between calls),
 * which the report says beside the failure as it was found.
 */
export function behavedDifferently(s: AnySpec, found: Trial, again: Trial): string | undefined {
  const thrown = (t: Trial) => (t.error ? describeError(t) : undefined);
  let what: string;
  if (!again.failed) what = 'it passed';
  else if (failureWhat(again, s) !== failureWhat(found, s) || thrown(again) !== thrown(found)) {
    what = `${found.error && !again.error ? 'it did not throw, and ' : ''}${failureWhat(again, s)}${again.error ? ` (${thrown(again)})` : ''}`;
  } else {
    // Its demands are comparable only on the same inputs (not a total form of them) under the same demand on the result (a context may force more than a demand it was made from).
    if (again.inputs !== found.inputs || !demandEquals(found.resultDemand, again.resultDemand)) return undefined;
    const differ = found.actual.flatMap((d, i) => (demandEquals(d, again.actual[i]!) ? [] : [`on ${argumentName(s.names, i)} ${showDemand(again.actual[i]!)}, where it was ${showDemand(d)}`]));
    if (differ.length === 0) return undefined;
    what = `it made other demands: ${differ.join('; ')}`;
  }
  return `The function behaved differently when its case was run again: ${what}. Its failure depends on more than its inputs and the demand on its result (on timing, or on state kept between calls), so this counterexample may not reproduce; the report shows the failure as it was found.`;
}

/**
 * @internal The case a failure's report shows, and the report, the one place a check chooses them:
 * the case as run again for the report (`again`) where it failed as when it was found, else as it
 * was found (`found`, shown on `inputs`, its own unless given), saying what differed (see
 * {@link behavedDifferently}); `where` tells how it was found, and `reproduce`, after the
 * diagram, how to run it again.
 */
export function failureReport(s: AnySpec, found: Trial, again: Trial | undefined, where: string, reproduce: string, unicode: boolean, inputs = found.inputs): { shown: Trial; message: string } {
  const differed = again && behavedDifferently(s, found, again);
  const shown = again?.failed && differed === undefined ? again : inputs === found.inputs ? found : { ...found, inputs };
  return { shown, message: `${report(s, shown, withNote(failureHeader(shown, where, s), differed), unicode)}\n${reproduce}` };
}

/** @internal A report's first line, with `note` (see {@link behavedDifferently}) on the line after it, if any. */
export function withNote(header: string, note: string | undefined): string {
  return note === undefined ? header : `${header}\n${note}`;
}
