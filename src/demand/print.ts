/**
 * Printing demands in the paper's notation: `_` for unevaluated, lists infix (`1 : _ : []`),
 * constructors applied to their fields (`Node _ (-3) Leaf`), tuples, records and `<function>`.
 * Printing walks with an explicit stack and elides long lists in the middle, so a demand on a
 * million cells prints in bounded width.
 * @module
 */
import { inspect } from 'node:util';
import { Lazy } from '../lazy/lazy.ts';
import { Forced, Unforced, type Demand } from './demand.ts';
import { valuePrefix } from './convert.ts';
import { DATA_PROTO, DESCRIBE, dynamic, type Shape } from './shape.ts';

/** Options of the printers. */
export interface PrintOptions {
  /** Longest list printed in full; longer ones show their first and last elements around `…`. Default 40. */
  readonly maxItems?: number;
  /** Longest output in characters; longer output keeps its beginning and end around `…`. Default 4000. */
  readonly maxWidth?: number;
}

const TOP = 0; // no parentheses needed
const LEFT = 1; // left operand of `:`: lists need parentheses
const ARG = 2; // argument of a constructor: lists and applied constructors need parentheses

type Task = string | { d: Demand; ctx: number };

/**
 * Renders a demand in the paper's notation. Demands that differ print differently: `-0` is not
 * `0`, a negative number or bigint is parenthesised as an argument (`Some (-5n)`), and so is a
 * set or a map (`Some (Set {1})`). Unit (`undefined`) prints `()`, as in Haskell; the tuples
 * Haskell lacks print `tuple()` (an empty array) and `(x,)` (an array of one element).
 *
 * @example
 * ```ts
 * prettyDemand(toDemand(cons(thunk, cons(2, thunk)))); // '_ : 2 : _'
 * ```
 */
export function prettyDemand(demand: Demand, options: PrintOptions = {}): string {
  const maxItems = options.maxItems ?? 40;
  const maxWidth = options.maxWidth ?? 4000;
  const out: string[] = [];
  const stack: Task[] = [{ d: demand, ctx: TOP }];
  const push = (...tasks: Task[]) => {
    for (let i = tasks.length - 1; i >= 0; i--) stack.push(tasks[i]!);
  };
  while (stack.length > 0) {
    const t = stack.pop()!;
    if (typeof t === 'string') {
      out.push(t);
      continue;
    }
    const { d, ctx } = t;
    if (!d.forced) {
      out.push('_');
      continue;
    }
    switch (d.ctor.style) {
      case 'prim':
        out.push(primText(d.value, ctx));
        break;
      case 'fn': {
        const described = (d.value as { [DESCRIBE]?: { describe(): string } } | undefined)?.[DESCRIBE];
        out.push(described ? described.describe() : '<function>');
        break;
      }
      case 'atom':
      case 'nil':
        out.push(d.ctor.name);
        break;
      case 'cons': {
        const items: Demand[] = [];
        let rest: Demand = d;
        while (rest.forced && rest.ctor.style === 'cons') {
          items.push(rest.field(0));
          rest = rest.field(1);
        }
        const tasks: Task[] = [];
        const keep = items.length > maxItems ? Math.floor(maxItems / 2) : items.length;
        for (let i = 0; i < keep; i++) tasks.push({ d: items[i]!, ctx: LEFT }, ' : ');
        if (keep < items.length) {
          tasks.push(`… (${items.length - 2 * keep} more) … : `);
          for (let i = items.length - keep; i < items.length; i++) tasks.push({ d: items[i]!, ctx: LEFT }, ' : ');
        }
        tasks.push({ d: rest, ctx: LEFT });
        push(...parenthesised(ctx >= LEFT, tasks));
        break;
      }
      case 'tuple':
        // Unit prints `()`, as in Haskell, and `(-1)` is an argument -1: the tuples Haskell lacks print otherwise.
        if (d.arity === 0) out.push('tuple()');
        else push('(', ...commaSeparated(d.fields.map((f) => ({ d: f, ctx: TOP }))), d.arity === 1 ? ',)' : ')');
        break;
      case 'set':
        // `Set {1}` reads as a constructor applied to its elements: an argument needs parentheses.
        push(...parenthesised(ctx === ARG, ['Set {', ...commaSeparated(d.fields.map((f) => ({ d: f, ctx: TOP }))), '}']));
        break;
      case 'map': {
        const entries: Task[][] = [];
        for (let i = 0; i + 1 < d.arity; i += 2) entries.push([{ d: d.field(i), ctx: TOP }, ' => ', { d: d.field(i + 1), ctx: TOP }]);
        push(...parenthesised(ctx === ARG, ['Map {', ...commaSeparated(entries), '}']));
        break;
      }
      case 'record':
        push('{ ', ...commaSeparated(d.fields.map((f, i) => [`${String(d.ctor.keys[i])}: `, { d: f, ctx: TOP }])), ' }');
        break;
      case 'data': {
        if (d.arity === 0) {
          out.push(d.ctor.name);
          break;
        }
        const tasks: Task[] = [d.ctor.name];
        for (const f of d.fields) tasks.push(' ', { d: f, ctx: ARG });
        push(...parenthesised(ctx === ARG, tasks));
        break;
      }
    }
  }
  return elide(out.join(''), maxWidth);
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

function elide(s: string, maxWidth: number): string {
  if (s.length <= maxWidth) return s;
  const half = Math.floor((maxWidth - 3) / 2);
  // Cut between characters, not inside one written as a surrogate pair (an emoji).
  const head = s.slice(0, half).replace(/[\uD800-\uDBFF]$/, '');
  const tail = s.slice(s.length - half).replace(/^[\uDC00-\uDFFF]/, '');
  return `${head} … ${tail}`;
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
export function prettyValue(value: unknown, shape: Shape<unknown> = dynamic, options: PrintOptions & { maxNodes?: number } = {}): string {
  return prettyDemand(valuePrefix(value, shape, options.maxNodes ?? 200), options);
}

// Demands print in demand notation in the REPL and through console.log; lazy and declared data
// values print as far as they are evaluated, without forcing anything, up to 2·10^4 layers (then
// elided as demands are): a value can be evaluated without end, since a forced `repeat(1)` is a
// cell whose tail is itself, while a finite list of fewer than 10^4 elements (a cell and its
// element are two layers, the end one) prints with its true end. (10^5 layers made printing a
// cyclic tree take 270 ms.)
const evaluatedPrefix = (value: unknown) => prettyDemand(valuePrefix(value, dynamic, 2 * 10_000, false));
const custom = inspect.custom;
Object.defineProperty(Forced.prototype, custom, { value: function (this: Forced) { return prettyDemand(this); } });
Object.defineProperty(Unforced.prototype, custom, { value: () => '_' });
Object.defineProperty(Forced.prototype, 'toString', { value: function (this: Forced) { return prettyDemand(this); } });
Object.defineProperty(Unforced.prototype, 'toString', { value: () => '_' });
Object.defineProperty(DATA_PROTO, custom, { value: function (this: unknown) { return evaluatedPrefix(this); } });
Object.defineProperty(Lazy.prototype, custom, { value: function (this: Lazy<unknown>) { return `Lazy(${evaluatedPrefix(this)})`; } });
