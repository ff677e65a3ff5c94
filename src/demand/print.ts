/**
 * Printing demands in the paper's notation: `_` for unevaluated, lists infix (`1 : _ : []`),
 * constructors applied to their fields (`Node _ (-3) Leaf`), tuples, records and `<function>`.
 * Printing walks with an explicit stack and elides long lists in the middle, so a demand on a
 * million cells prints in bounded width.
 * @module
 */
import { inspect } from 'node:util';
import { Lazy } from '../lazy/lazy.ts';
import { cellRun, checkDemand, Forced, Unforced, type Demand } from './demand.ts';
import { valuePrefix } from './convert.ts';
import { DATA_PROTO } from './declared-data.ts';
import { dynamic, lenient } from './dynamic.ts';
import { IDENTIFIER, keyText } from './key-text.ts';
import { DESCRIBE } from './primitives.ts';
import type { Shape } from './shape-types.ts';
import { readingRevoked } from './revoked-proxy.ts';

/** Options of the printers. */
export interface PrintOptions {
  /** Longest list printed in full; longer ones show their first and last elements around `…`. Default 40. */
  readonly maxItems?: number | undefined;
  /**
   * Longest output in characters, at least 20 (smaller values count as 20); longer output keeps
   * its beginning and end around `…`, cut between tokens, never inside a number, string or name.
   * Default 4000.
   */
  readonly maxWidth?: number | undefined;
}

const TOP = 0; // no parentheses needed
const LEFT = 1; // left operand of `:`: lists need parentheses
const ARG = 2; // argument of a constructor: lists and applied constructors need parentheses

type Task = string | { d: Demand; ctx: number };

/**
 * Renders a demand in the paper's notation. Demands that differ print differently: `-0` is not
 * `0`, a negative number or bigint is parenthesised as an argument (`Some (-5n)`), and so is a
 * set or a map (`Some (Set {1})`). Unit (`undefined`) prints `()`, as in Haskell; the tuples
 * Haskell lacks print `tuple()` (an empty array) and `(x,)` (an array of one element). A record
 * key that is not an identifier is quoted (`{ "a b": 1 }`); a constructor name that is not one,
 * or reads as something else, is single-quoted (`'1'`, `'_'`, `'true'`).
 *
 * @example
 * ```ts
 * prettyDemand(toDemand(cons(thunk, cons(2, thunk)))); // '_ : 2 : _'
 * ```
 */
export function prettyDemand(demand: Demand, options: PrintOptions = {}): string {
  checkDemand(demand, 'prettyDemand', 'demand');
  const maxItems = options.maxItems ?? 40;
  const maxWidth = options.maxWidth ?? 4000;
  const width = Math.max(maxWidth, MIN_WIDTH);
  // The tokens from the beginning until they fill twice the width; if there are more, those of the
  // end until they fill the width: what the output keeps of each end lies within them, so that a
  // demand that would print without end (one that shares its nodes, unfolded) costs its width.
  const head = tokens(demand, maxItems, false, 2 * width);
  if (head.complete) return elide(head.out, width);
  return elide([...head.out, ...tokens(demand, maxItems, true, width).out.reverse()], width);
}

/**
 * The tokens that print `demand`, from its beginning, or from its end (`fromEnd`, last first),
 * until they are `limit` characters long or more; `complete` if they are all of them.
 */
function tokens(demand: Demand, maxItems: number, fromEnd: boolean, limit: number): { out: string[]; complete: boolean } {
  const out: string[] = [];
  let width = 0;
  const stack: Task[] = [{ d: demand, ctx: TOP }];
  // Takes an array, not arguments: a list printed in full has millions of tasks, too many to spread.
  const push = (tasks: Task[]) => {
    if (fromEnd) for (const t of tasks) stack.push(t);
    else for (let i = tasks.length - 1; i >= 0; i--) stack.push(tasks[i]!);
  };
  while (stack.length > 0 && width < limit) {
    const t = stack.pop()!;
    if (typeof t === 'string') {
      out.push(t);
      width += t.length;
      continue;
    }
    const { d, ctx } = t;
    if (!d.forced) {
      stack.push('_');
      continue;
    }
    switch (d.ctor.style) {
      case 'prim':
        stack.push(d.ctor.show ? opaqueText(d.ctor.show(d.value), ctx) : primText(d.value, ctx));
        break;
      case 'fn': {
        const described = (d.value as { [DESCRIBE]?: { describe(): string } } | undefined)?.[DESCRIBE];
        stack.push(described ? described.describe() : '<function>');
        break;
      }
      case 'atom':
      case 'nil':
        stack.push(d.ctor.name);
        break;
      case 'cons': {
        const list = listOf(d);
        const tasks: Task[] = [];
        const keep = list.length > maxItems ? Math.floor(maxItems / 2) : list.length;
        for (let i = 0; i < keep; i++) tasks.push({ d: list.item(i), ctx: LEFT }, ' : ');
        if (keep < list.length) {
          tasks.push(`… (${list.length - 2 * keep} more) … : `);
          for (let i = list.length - keep; i < list.length; i++) tasks.push({ d: list.item(i), ctx: LEFT }, ' : ');
        }
        tasks.push({ d: list.rest, ctx: LEFT });
        push(parenthesised(ctx >= LEFT, tasks));
        break;
      }
      case 'tuple':
        // Unit prints `()`, as in Haskell, and `(-1)` is an argument -1: the tuples Haskell lacks print otherwise.
        if (d.arity === 0) stack.push('tuple()');
        else push(['(', ...commaSeparated(d.fields.map((f) => ({ d: f, ctx: TOP }))), d.arity === 1 ? ',)' : ')']);
        break;
      case 'set':
        // `Set {1}` reads as a constructor applied to its elements: an argument needs parentheses.
        push(parenthesised(ctx === ARG, ['Set {', ...commaSeparated(d.fields.map((f) => ({ d: f, ctx: TOP }))), '}']));
        break;
      case 'map': {
        const entries: Task[][] = [];
        for (let i = 0; i + 1 < d.arity; i += 2) entries.push([{ d: d.field(i), ctx: TOP }, ' => ', { d: d.field(i + 1), ctx: TOP }]);
        push(parenthesised(ctx === ARG, ['Map {', ...commaSeparated(entries), '}']));
        break;
      }
      case 'record':
        push(['{ ', ...commaSeparated(d.fields.map((f, i) => [`${keyText(d.ctor.keys[i]!)}: `, { d: f, ctx: TOP }])), ' }']);
        break;
      case 'data': {
        // A re-iterable source's demand of one iteration begun is that iteration.
        if (d.ctor.iterations !== undefined && d.arity === 1 && d.field(0).forced) {
          stack.push({ d: d.field(0), ctx });
          break;
        }
        const name = ctorText(d.ctor.name);
        if (d.arity === 0) {
          stack.push(name);
          break;
        }
        const tasks: Task[] = [name];
        for (const f of d.fields) tasks.push(' ', { d: f, ctx: ARG });
        push(parenthesised(ctx === ARG, tasks));
        break;
      }
    }
  }
  return { out, complete: stack.length === 0 };
}

/**
 * The list whose first cell is `d`: how many elements, the demand on element `i`, and what follows
 * its last cell. A run of cells kept compactly (the spine of a long list) is counted, not walked:
 * its cells, and the nodes of their primitive heads, are made only for the elements printed, where
 * a demand on a million cells made two million nodes (a divergent case's report prints one).
 */
function listOf(d: Demand): { length: number; item(i: number): Demand; rest: Demand } {
  // A piece is a cell, or a run of cells from its first; starts[p] is the index of piece p's first element.
  const pieces: Forced[] = [];
  const starts: number[] = [];
  let length = 0;
  let rest = d;
  while (rest.forced && rest.ctor.style === 'cons') {
    pieces.push(rest);
    starts.push(length);
    const run = cellRun(rest);
    if (run !== undefined) {
      length += run.spine.length - run.k;
      rest = run.spine.rest;
    } else {
      length++;
      rest = rest.field(1);
    }
  }
  const item = (i: number): Demand => {
    // The last piece starting at or before element i.
    let [lo, hi] = [0, pieces.length - 1];
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    const [piece, offset] = [pieces[lo]!, i - starts[lo]!];
    const run = cellRun(piece);
    return (offset === 0 || run === undefined ? piece : (run.cellAt(run.k + offset) as Forced)).field(0);
  };
  return { length, item, rest };
}

function parenthesised(needed: boolean, tasks: Task[]): Task[] {
  return needed ? ['(', ...tasks, ')'] : tasks;
}

function commaSeparated(items: (Task | Task[])[]): Task[] {
  const out: Task[] = [];
  items.forEach((item, i) => {
    if (i > 0) out.push(', ');
    if (Array.isArray(item)) out.push(...item);
    else out.push(item);
  });
  return out;
}

// Identifiers that print as something else: the unevaluated `_`, booleans and numbers.
const READ_OTHERWISE = new Set(['_', 'true', 'false', 'NaN', 'Infinity']);

/**
 * A constructor name, single-quoted (as `util.inspect` shows a tag) if it is not an identifier
 * or reads as something else: a tag `'1'` is not the number `1` nor the string `"1"`.
 */
function ctorText(name: string): string {
  if (IDENTIFIER.test(name) && !READ_OTHERWISE.has(name)) return name;
  return `'${JSON.stringify(name).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

function primText(v: unknown, ctx: number): string {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'undefined':
      return '()';
    case 'bigint':
    case 'number': {
      // `-0` is not `0` (demands compare numbers with Object.is), and a negative argument is parenthesised: `Some (-5n)`.
      const text = typeof v === 'bigint' ? `${v}n` : Object.is(v, -0) ? '-0' : String(v);
      return ctx === ARG && text.startsWith('-') ? `(${text})` : text;
    }
    default:
      return String(v);
  }
}

/** An opaque value's text, parenthesised where a space in it would read as an application. */
function opaqueText(text: string, ctx: number): string {
  return ctx !== TOP && /\s/.test(text) ? `(${text})` : text;
}

/** Below this width the elided output could keep little of either end. */
const MIN_WIDTH = 20;

/**
 * Joins the printed tokens, or if they are longer than `maxWidth`, keeps as many whole tokens of
 * the beginning and the end as fit around `…`: a cut inside a token would print another number
 * (`123456 … 1`) or join two strings into one, and a cut between two halves of an emoji breaks it.
 */
function elide(tokens: readonly string[], maxWidth: number): string {
  const width = Math.max(maxWidth, MIN_WIDTH);
  let total = 0;
  for (const t of tokens) total += t.length;
  if (total <= width) return tokens.join('');
  const budget = width - 3; // for ` … `
  let head = 0; // tokens[0, head) are kept, headWidth characters
  let headWidth = 0;
  let tail = tokens.length; // tokens[tail, length) are kept, tailWidth characters
  let tailWidth = 0;
  const growHead = (limit: number) => {
    while (head < tail && headWidth + tokens[head]!.length <= limit) headWidth += tokens[head++]!.length;
  };
  // Half for the beginning, the rest for the end, then what the end left to the beginning.
  growHead(Math.floor(budget / 2));
  while (tail > head && tailWidth + tokens[tail - 1]!.length <= budget - headWidth) tailWidth += tokens[--tail]!.length;
  growHead(budget - tailWidth);
  const kept = [tokens.slice(0, head).join('').trimEnd(), '…', tokens.slice(tail).join('').trimStart()];
  return kept.filter((part) => part !== '').join(' ');
}

/**
 * Prints a demand to standard output in the paper's notation (Haskell's `printDemand`).
 *
 * @example
 * ```ts
 * printDemand(toDemand(cons(thunk, cons(2, thunk)))); // prints _ : 2 : _
 * ```
 */
export function printDemand(demand: Demand, options?: PrintOptions): void {
  checkDemand(demand, 'printDemand', 'demand');
  console.log(prettyDemand(demand, options));
}

/**
 * Renders a value in the same notation, forcing at most `maxNodes` layers of it (default 200),
 * so huge and infinite values print elided; an error thrown by evaluating a part propagates.
 *
 * @example
 * ```ts
 * prettyValue(fromArray([1, 2, 3])); // '1 : 2 : 3 : []'
 * prettyValue(cons(1, thunk));        // '1 : _'
 * prettyValue(List.repeat(0));        // '0 : 0 : … : 0 : …', elided
 * ```
 */
// `any`: a shape's phantom type is invariant, so `Shape<List<number>>` is not a `Shape<unknown>`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function prettyValue(value: unknown, shape: Shape<any> = dynamic, options: PrintOptions & { maxNodes?: number } = {}): string {
  return prettyDemand(readingRevoked(value, 'value', () => valuePrefix(value, shape, options.maxNodes ?? 200)), options);
}

// Demands print in demand notation in the REPL and through console.log; lazy and declared data
// values print as far as they are evaluated, without forcing anything, up to 2·10^4 layers (then
// elided as demands are): a value can be evaluated without end, since a forced `repeat(1)` is a
// cell whose tail is itself, while a finite list of fewer than 10^4 elements (a cell and its
// element are two layers, the end one) prints with its true end. (10^5 layers made printing a
// cyclic tree take 270 ms.)
// What the dynamic shape cannot take apart (a Date, a class instance) prints as Node prints it, so that printing never throws.
const evaluatedPrefix = (value: unknown) => prettyDemand(valuePrefix(value, lenient, 2 * 10_000, false));
const custom = inspect.custom;
Object.defineProperty(Forced.prototype, custom, { value: function (this: Forced) { return prettyDemand(this); } });
Object.defineProperty(Unforced.prototype, custom, { value: () => '_' });
Object.defineProperty(Forced.prototype, 'toString', { value: function (this: Forced) { return prettyDemand(this); } });
Object.defineProperty(Unforced.prototype, 'toString', { value: () => '_' });
Object.defineProperty(DATA_PROTO, custom, { value: function (this: unknown) { return evaluatedPrefix(this); } });
Object.defineProperty(Lazy.prototype, custom, { value: function (this: Lazy<unknown>) { return `Lazy(${evaluatedPrefix(this)})`; } });
