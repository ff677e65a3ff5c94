/**
 * Series: every value of a shape up to a depth, SmallCheck style, and the *partial* values of
 * Lazy SmallCheck, whose lazy positions are holes refined only when something forces them.
 *
 * Depth (SmallCheck, section 3.1 of the paper):
 * - a constructor without fields has depth 0, any other one more than its deepest field;
 * - a tuple or a record has the depth of its deepest component (it adds no level);
 * - an integer `i` (number, bigint) has depth `|i|`; booleans and unit have depth 0;
 * - a string is a list of characters drawn from `'a'` and `'b'`: its depth is its length;
 * - a set or a map of depth d has at most d elements (entries), each of depth at most d − 1, as a
 *   list's; the empty one has depth 0;
 * - a lazy position holds an evaluated value (`now(x)`) of the inner series at the depth the
 *   field itself has (the `Lazy` adds no level);
 * - functions: see {@link functionSeries}.
 *
 * A shape carrying a fast-check `arbitrary` cannot be enumerated unless it is also given a
 * series with {@link withSeries}; a `dynamic` shape never can.
 * @module
 */
import { defer, Lazy, lazy, now } from '../lazy/lazy.ts';
import { mapCtor, setCtor } from '../demand/collections.ts';
import { DESCRIBE } from '../demand/primitives.ts';
import type { Collection, Ctor, Shape } from '../demand/shape-types.ts';
import { prettyValue } from '../demand/print.ts';
import { safeInstanceof } from '../lazy/thrown.ts';

type S = Shape<unknown>;

/** The property of a shape holding its user-given series (see {@link withSeries}). */
export const SERIES = Symbol('strictcheck.series');

/** A series: the values of depth at most `depth`, each once, smallest first. */
export type Series<T> = (depth: number) => Iterable<T>;

/**
 * Gives a shape an explicit series for exhaustive checking (needed for shapes built with
 * `withArbitrary`, whose values the shape alone cannot describe). An array means "these values,
 * at every depth". The values are used as they are, as atomic (strict) inputs: holes are never
 * put inside them.
 *
 * @example
 * ```ts
 * const even = withSeries(withArbitrary(fc.integer().map((i) => 2 * i), number), (d) => [0, 2, -2, 4, -4].slice(0, 2 * d + 1));
 * ```
 */
export function withSeries<T>(shape: Shape<T>, values: Series<T> | readonly T[]): Shape<T> {
  const fn: Series<T> = typeof values === 'function' ? values : () => values;
  const copy = Object.create(Object.getPrototypeOf(shape), Object.getOwnPropertyDescriptors(shape));
  Object.defineProperty(copy, SERIES, { value: fn, enumerable: true });
  return copy as Shape<T>;
}

/**
 * @internal The property of a shape whose values are enumerated its own way (iterables,
 * `src/iter`), whose values are not taken apart as data but consumed through a protocol.
 */
export const OWN_SERIES = Symbol('strictcheck.ownSeries');

/** @internal How the values of a shape are enumerated its own way (see {@link OWN_SERIES}). */
export interface OwnSeries {
  /** Its partial values of depth at most `d`, as {@link partial}'s. */
  partial(d: number, where: string): Skel[];
  /**
   * Consumes `value` as a context of the exhaustive mode does at depth budget `budget`, asking
   * `choose` (0, the default, or 1) at each choice it makes; returns the parts it reached that
   * the context walks on, each with its budget and shape, in order. A part reached later (an
   * async iterable's element, once its pull settles) is given to `later`, which walks it then.
   */
  consume(value: unknown, budget: number, choose: () => number, later: (part: [unknown, number, Shape<unknown>]) => void): [unknown, number, Shape<unknown>][];
}

/** @internal The own series of a shape, if it has one. */
export function ownSeries(shape: S): OwnSeries | undefined {
  return (shape as { [OWN_SERIES]?: OwnSeries })[OWN_SERIES];
}

function userSeries(shape: S): Series<unknown> | undefined {
  return (shape as { [SERIES]?: Series<unknown> })[SERIES];
}

/** Thrown when a shape cannot be enumerated; names the argument. */
export class NoSeriesError extends TypeError {
  /** Always `'NoSeriesError'`, so that logs and `err.name` checks tell it apart from other `TypeError`s. */
  override name = 'NoSeriesError';
}

// ---------------------------------------------------------------------------------------------
// Partial values

/** An unfilled lazy position of a partial input: forcing it throws {@link Refine}. */
export class Hole {
  constructor(
    /** The shape of the value the position holds (inside the `Lazy`). */
    readonly shape: S,
    /** The depth the value may have. */
    readonly budget: number,
    /** The argument it belongs to, for messages. */
    readonly where: string,
  ) {}
}

/** Thrown when a hole is forced: the enumeration refines that hole and runs the case again. Not an `Error` (cheap to throw). */
export class Refine {
  /** @internal The hole that was forced. */
  readonly hole: Hole;
  /** @internal */
  constructor(hole: Hole) {
    this.hole = hole;
  }
  /** Names the argument whose hole was forced: `Refine(a hole of args[0])`. */
  toString(): string {
    return `Refine(a hole of ${this.hole.where})`;
  }
}

/** A partial value: a hole, a filled lazy position, a layer with partial fields, or an atomic value. */
export type Skel =
  | Hole
  | { readonly k: 'lazy'; readonly inner: Skel }
  | { readonly k: 'node'; readonly ctor: Ctor; readonly fields: readonly Skel[] }
  | { readonly k: 'leaf'; readonly value: unknown };

/** @internal An atomic value in a partial value. */
export const leaf = (value: unknown): Skel => ({ k: 'leaf', value });

/** @internal Every combination of one element from each list, in order (the first list varies slowest). */
export function product<T>(lists: readonly (readonly T[])[]): T[][] {
  let out: T[][] = [[]];
  for (const l of lists) {
    if (l.length === 0) return [];
    const next: T[][] = [];
    for (const prefix of out) for (const x of l) next.push([...prefix, x]);
    out = next;
  }
  return out;
}

function isTupleLike(ctor: Ctor): boolean {
  return ctor.style === 'tuple' || ctor.style === 'record';
}

/** The subsets of `xs` of at most `most` elements, smallest first, each in the order of `xs`. */
function subsets<T>(xs: readonly T[], most: number): T[][] {
  const out: T[][] = [[]];
  let level: { items: T[]; next: number }[] = [{ items: [], next: 0 }];
  for (let size = 1; size <= most && level.length > 0; size++) {
    const longer: { items: T[]; next: number }[] = [];
    for (const { items, next } of level) for (let i = next; i < xs.length; i++) longer.push({ items: [...items, xs[i]!], next: i + 1 });
    for (const l of longer) out.push(l.items);
    level = longer;
  }
  return out;
}

/**
 * The partial sets or maps of depth `d`: at most `d` distinct elements (keys) of depth `d - 1`, and
 * for a map every choice of (partial) values of depth `d - 1`. The elements are total: a set has
 * no holes to refine, since the same hole could not stand for two different elements.
 */
function collections(c: Collection, d: number, where: string): Skel[] {
  const elements = d > 0 ? partial(c.kind === 'set' ? c.elem : c.key, d - 1, where).flatMap(expand) : [];
  const out: Skel[] = [];
  for (const chosen of subsets(elements, d)) {
    if (c.kind === 'set') {
      out.push({ k: 'node', ctor: setCtor(chosen.length), fields: chosen });
      continue;
    }
    for (const values of product(chosen.map(() => partial(c.value, d - 1, where)))) {
      out.push({ k: 'node', ctor: mapCtor(chosen.length), fields: chosen.flatMap((key, i) => [key, values[i]!]) });
    }
  }
  return out;
}

/** Integers of depth at most `d`, SmallCheck's order: 0, 1, -1, 2, -2, … */
function integers(d: number): number[] {
  const out = [0];
  for (let i = 1; i <= d; i++) out.push(i, -i);
  return out;
}

/** Strings over {'a', 'b'} of length at most `d` (depth = length), shortest first. */
function strings(d: number): string[] {
  const out = [''];
  let level = [''];
  for (let n = 1; n <= d; n++) {
    level = level.flatMap((s) => [s + 'a', s + 'b']);
    out.push(...level);
  }
  return out;
}

function primSeries(shape: S & { kind: 'prim' }, d: number): unknown[] {
  switch (shape.prim) {
    case 'number':
      return integers(d);
    case 'bigint':
      return integers(d).map((i) => BigInt(i));
    case 'boolean':
      return [false, true];
    case 'unit':
      return [undefined];
    case 'string':
      return strings(d);
    case 'opaque':
      throw new NoSeriesError(`cannot enumerate values of the opaque shape ${shape.name}: give it a series with withSeries(shape, (depth) => values)`);
  }
}

const inhabitedMemo = new WeakMap<S, Map<number, boolean>>();

/** @internal Whether the shape has a value of depth at most `d` (a hole with no filling stands for no input). */
export function inhabited(shape: S, d: number, where: string): boolean {
  let m = inhabitedMemo.get(shape);
  if (!m) inhabitedMemo.set(shape, (m = new Map()));
  const known = m.get(d);
  if (known !== undefined) return known;
  m.set(d, false); // breaks cycles (a type that only contains itself at the same depth is empty)
  try {
    const r = partial(shape, d, where).length > 0;
    m.set(d, r);
    return r;
  } catch (err) {
    m.delete(d);
    throw err;
  }
}

/**
 * The partial values of a shape at depth `d`, one layer deep: strict positions are enumerated
 * eagerly, lazy positions become {@link Hole}s (only when they can be filled at their depth).
 * `where` names the argument, for errors.
 */
export function partial(shape: S, d: number, where: string): Skel[] {
  if (d < 0) return [];
  const given = userSeries(shape);
  if (given) return [...given(d)].map(leaf);
  if (shape.arbitrary) {
    throw new NoSeriesError(
      `cannot enumerate ${where} (shape ${shape.name}): it has a fast-check arbitrary but no series; ` +
        `give it one with withSeries(shape, (depth) => values)`,
    );
  }
  const own = ownSeries(shape);
  if (own) return own.partial(d, where);
  switch (shape.kind) {
    case 'prim':
      return primSeries(shape, d).map(leaf);
    case 'lazy': {
      const inner = shape.inner();
      return inhabited(inner, d, where) ? [new Hole(inner, d, where)] : [];
    }
    case 'fn':
      return functionSeries(shape, d, where).map(leaf);
    case 'dynamic':
      throw new NoSeriesError(`cannot enumerate ${where}: its shape is dynamic (unknown); give it a shape`);
    case 'data': {
      if (shape.collection) return collections(shape.collection, d, where);
      const out: Skel[] = [];
      for (const alt of shape.alternatives()) {
        if (alt.shapes.length === 0) {
          out.push({ k: 'node', ctor: alt.ctor, fields: [] });
          continue;
        }
        const fd = isTupleLike(alt.ctor) ? d : d - 1;
        for (const fields of product(alt.shapes.map((s) => partial(s, fd, where)))) out.push({ k: 'node', ctor: alt.ctor, fields });
      }
      return out;
    }
  }
}

/**
 * Builds the run-time value of a partial value; every hole becomes a fresh `Lazy` that throws
 * {@link Refine}. A forced hole first notes itself in `forced` (the first one stays there), since
 * the code that forced it may catch the throw.
 */
export function materialize(s: Skel, forced: { hole?: Hole } = {}): unknown {
  if (s instanceof Hole) {
    return lazy(() => {
      forced.hole ??= s;
      throw new Refine(s);
    });
  }
  switch (s.k) {
    case 'leaf':
      return s.value;
    case 'lazy':
      return now(materialize(s.inner, forced));
    case 'node':
      return s.ctor.build(s.fields.map((f) => materialize(f, forced)));
  }
}

/** The fillings of a hole: its position filled with each partial value of its depth. */
export function fillings(h: Hole): Skel[] {
  return partial(h.shape, h.budget, h.where).map((inner) => ({ k: 'lazy', inner }));
}

/** Replaces `hole` (by identity) with `by` in `s`; parts without it are shared. */
export function replaceHole(s: Skel, hole: Hole, by: Skel): Skel {
  if (s === hole) return by;
  if (s instanceof Hole) return s;
  switch (s.k) {
    case 'leaf':
      return s;
    case 'lazy': {
      const inner = replaceHole(s.inner, hole, by);
      return inner === s.inner ? s : { k: 'lazy', inner };
    }
    case 'node': {
      let changed = false;
      const fields = s.fields.map((f) => {
        const g = replaceHole(f, hole, by);
        if (g !== f) changed = true;
        return g;
      });
      return changed ? { k: 'node', ctor: s.ctor, fields } : s;
    }
  }
}

/** The first hole of a partial value, depth first, or `undefined` if it is total. */
export function firstHole(s: Skel): Hole | undefined {
  if (s instanceof Hole) return s;
  if (s.k === 'lazy') return firstHole(s.inner);
  if (s.k === 'node') {
    for (const f of s.fields) {
      const h = firstHole(f);
      if (h) return h;
    }
  }
  return undefined;
}

/** Fills every hole with its first (smallest) filling: a total value standing for the partial one. */
export function fillSmallest(s: Skel): Skel {
  for (let h = firstHole(s); h; h = firstHole(s)) s = replaceHole(s, h, fillings(h)[0]!);
  return s;
}

/** Every total value (no holes) a partial value stands for. */
export function expand(s: Skel): Skel[] {
  const h = firstHole(s);
  if (!h) return [s];
  return fillings(h).flatMap((f) => expand(replaceHole(s, h, f)));
}

/**
 * Every value of `shape` of depth at most `depth`, each once, fully evaluated (lazy positions
 * hold `now(x)`), SmallCheck's series. `where` names the value in errors.
 *
 * @example
 * ```ts
 * [...series(list(boolean), 2)].length; // [], [b], [b, b'] for booleans b, b': 1 + 2 + 4 = 7
 * ```
 */
export function series<T>(shape: Shape<T>, depth: number, where = 'the value'): T[] {
  return partial(shape as S, depth, where)
    .flatMap(expand)
    .map((s) => materialize(s) as T);
}

// ---------------------------------------------------------------------------------------------
// Functions

const VAR_NAMES = ['x', 'y', 'z', 'u', 'v', 'w'];

function describeFn(f: (...a: unknown[]) => unknown, text: string): (...a: unknown[]) => unknown {
  Object.defineProperty(f, DESCRIBE, { value: { describe: () => text, reset: () => {} } });
  return f;
}

function patternText(ctor: Ctor): string {
  if (ctor.style === 'cons') return '_ : _';
  if (ctor.style === 'nil' || ctor.keys.length === 0) return ctor.name;
  if (ctor.style === 'tuple') return `(${ctor.keys.map(() => '_').join(', ')})`;
  if (ctor.style === 'record') return `{${ctor.keys.map((k) => `${String(k)}: _`).join(', ')}}`;
  return `${ctor.name} ${ctor.keys.map(() => '_').join(' ')}`;
}

/**
 * The functions of a function shape up to depth `d` (SmallCheck's rule: the depth of nested case
 * analysis of an argument plus the depth of the result), all total and *non-strict* where they can be:
 * - depth ≥ 0, constant functions `λx. r` for every result `r` of depth ≤ d: they never force
 *   any argument;
 * - depth ≥ 1, one-level case functions on argument `i` with results of depth ≤ d − 1:
 *   when the result is demanded (at once for a strict result, when its `Lazy` is forced for a lazy
 *   one) they force argument `i` to weak head normal form (through its lazy positions, one layer)
 *   and pick the result by what they find:
 *   - for a data type (lists, user types, options, tuples…), one result per constructor, every
 *     table of results (`λx. case x of { [] ↦ r1; _ : _ ↦ r2 }`);
 *   - for a boolean, every table `false ↦ r1; true ↦ r2`;
 *   - for a number, bigint, string or unit, `λx. case x of { k ↦ r1; _ ↦ r2 }` for every key `k`
 *     of depth ≤ d − 1 and results `r1`, `r2`.
 *   Arguments that are functions, sets, maps or have a user series are never inspected.
 * Nested case analysis (inspecting fields of the argument) is not enumerated. The results are
 * total values (`now(x)` in lazy positions). Functions print as these λ-terms in reports.
 *
 * @example
 * ```ts
 * functionSeries(fn([number], number), 1).length; // 4 functions of depth 1
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function functionSeries(fnShape: Shape<any>, d: number, where = 'the function'): ((...a: unknown[]) => unknown)[] {
  const shape = fnShape as S;
  if (shape.kind !== 'fn') throw new TypeError(`functionSeries: ${where} has shape ${shape.name}, not a function shape`);
  const resultShape = shape.result;
  const show = (r: unknown) => prettyValue(r, resultShape, { maxNodes: 30, maxItems: 8, maxWidth: 60 });
  const vars = shape.args.map((_, i) => VAR_NAMES[i] ?? `x${i + 1}`);
  const lambda = `λ${vars.length ? vars.join(' ') : '()'}.`;
  const out: ((...a: unknown[]) => unknown)[] = [];
  for (const r of series(resultShape, d, `${where} (a result)`)) out.push(describeFn(() => r, `${lambda} ${show(r)}`));
  if (d < 1) return out;
  const results = series(resultShape, d - 1, `${where} (a result)`);
  const resultIsLazy = resultShape.kind === 'lazy';
  shape.args.forEach((argShape, i) => {
    let inner = argShape;
    while (inner.kind === 'lazy') inner = inner.inner();
    if (userSeries(inner) || inner.arbitrary || inner.kind === 'fn' || inner.kind === 'dynamic' || (inner.kind === 'data' && inner.collection)) return;
    // `key(v)`: which branch the forced argument takes.
    const make = (key: (v: unknown) => number, branches: readonly unknown[], text: string) => {
      const pick = (args: unknown[]): unknown => {
        let v = args[i];
        while (v instanceof Lazy) v = v.force();
        return branches[key(v)];
      };
      const f = resultIsLazy ? (...args: unknown[]) => defer(() => pick(args) as Lazy<unknown>) : (...args: unknown[]) => pick(args);
      out.push(describeFn(f, `${lambda} case ${vars[i]} of { ${text} }`));
    };
    if (inner.kind === 'data') {
      const ctors = inner.alternatives().map((a) => a.ctor);
      const s = inner;
      const key = (v: unknown) => ctors.indexOf(s.project(v, null).ctor);
      for (const table of product(ctors.map(() => results))) {
        make(key, table, ctors.map((c, j) => `${patternText(c)} ↦ ${show(table[j])}`).join('; '));
      }
    } else if (inner.kind === 'prim' && inner.prim === 'boolean') {
      for (const table of product([results, results])) make((v) => (v ? 1 : 0), table, `false ↦ ${show(table[0])}; true ↦ ${show(table[1])}`);
    } else {
      for (const k of series(inner, d - 1, where)) {
        for (const r1 of results) {
          for (const r2 of results) {
            make((v) => (v === k ? 0 : 1), [r1, r2], `${prettyValue(k, inner)} ↦ ${show(r1)}; _ ↦ ${show(r2)}`);
          }
        }
      }
    }
  });
  return out;
}

safeInstanceof(NoSeriesError, Refine);
