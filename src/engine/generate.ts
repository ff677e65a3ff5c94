/**
 * Random values derived from shapes, and random *non-strict* functions: `Consume` turns an input
 * into a lazy tree of perturbations, `Produce` builds output lazily and, before each piece, `draws`
 * consumes a random part of the inputs (paper, section 6.2 and appendix B).
 * @module
 */
import fc from 'fast-check';
import { describeSafely } from '../demand/describe.ts';
import { Lazy, lazy, lazyWith, now } from '../lazy/lazy.ts';
import { Cons, NIL, type List } from '../lazy/cell.ts';
import { dynamic, lenient } from '../demand/dynamic.ts';
import { isListCell } from '../demand/lazy-positions.ts';
import { isOpaque } from '../demand/opaque.ts';
import { DESCRIBE } from '../demand/primitives.ts';
import type { Alternative, Collection, Ctor, Layer, Shape } from '../demand/shape-types.ts';
import { perShape, shapesInside, someShapeWithin } from '../demand/shape-walk.ts';
import { evaluatedPart } from '../demand/convert.ts';
import { demandHolder, unforced, type Demand } from '../demand/demand.ts';
import { forceAt, RecordSite } from '../demand/record-site.ts';
import { entangle } from '../demand/observe.ts';
import { prettyDemand } from '../demand/print.ts';
import { hashPrimitive, Seed, type Gen, type Random } from './random.ts';
import { keepHiddenClasses } from '../lazy/fast-class.ts';

type S = Shape<unknown>;


/** The error for a shape without a generator: dynamic, or opaque without an arbitrary. */
function noGenerator(shape: S): never {
  if (shape.kind === 'prim') throw new TypeError(`cannot generate values of the opaque shape ${shape.name}: give it a fast-check arbitrary (the option \`arbitrary\` of opaque(), or withArbitrary())`);
  throw new TypeError(`cannot generate values of shape ${shape.name}: give a shape, or a fast-check arbitrary with withArbitrary()`);
}

/**
 * Generates with a fast-check arbitrary, from a stream split off ours: fast-check's `Random`
 * draws from a clone of the generator it is given, so handing it ours would leave ours where it
 * was, and every value drawn next from it would be the same. The bias towards small values and
 * edge cases (0, the bounds) is fast-check's for its runs, here by size (which grows with the
 * trials): strong at first, weaker later. Without it, `fc.integer()` is uniform over 2^32 values.
 */
function fromArbitrary<T>(arb: fc.Arbitrary<T>, r: Random, size: number): T {
  return remember(arb, arb.generate(new fc.Random(r.split().stream().rng), 2 + Math.floor(Math.log10(1 + Math.max(0, size)))));
}
// fast-check's Random and Value, made for each value generated and dropped after the trial.
{
  const random = new fc.Random(Seed.of(0).stream().rng);
  keepHiddenClasses(random, fc.constant('').generate(random, 0));
}

/**
 * The fast-check contexts of the values an arbitrary made, for shrinking them: without its
 * context, a value of a mapped arbitrary (`fc.array(…).map(fromArray)`) cannot be shrunk. An
 * object's context is kept as long as the object lives (weakly: a run's inputs are not kept
 * alive); a primitive cannot be held weakly, so the contexts of the newest {@link PRIMITIVES}
 * primitives are kept, by value. A value whose context is gone is shrunk without, if it can be.
 */
interface Made {
  readonly objects: WeakMap<object, unknown>;
  readonly primitives: Map<unknown, unknown>;
}
const contexts = new WeakMap<fc.Arbitrary<unknown>, Made>();
const PRIMITIVES = 1024;
/** The key of -0 among the primitives: a Map takes -0 for 0. */
const NEGATIVE_ZERO = Symbol('-0');
const isObject = (v: unknown): v is object => (typeof v === 'object' && v !== null) || typeof v === 'function';
const primitiveKey = (v: unknown) => (Object.is(v, -0) ? NEGATIVE_ZERO : v);

/** @internal Keeps the context of a value an arbitrary made (generated, or a shrink), and returns the value. */
export function remember<T>(arb: fc.Arbitrary<T>, made: fc.Value<T>): T {
  let known = contexts.get(arb);
  if (!known) contexts.set(arb, (known = { objects: new WeakMap(), primitives: new Map() }));
  const v = made.value_;
  if (isObject(v)) known.objects.set(v, made.context);
  else {
    const key = primitiveKey(v);
    known.primitives.delete(key);
    known.primitives.set(key, made.context);
    if (known.primitives.size > PRIMITIVES) known.primitives.delete(known.primitives.keys().next().value);
  }
  return v;
}

/** @internal The context of a value `arb` made, if it is kept ({@link remember}). */
export function contextOf(arb: fc.Arbitrary<unknown>, value: unknown): { readonly context: unknown } | undefined {
  const known = contexts.get(arb);
  if (!known) return undefined;
  if (isObject(value)) return known.objects.has(value) ? { context: known.objects.get(value) } : undefined;
  const key = primitiveKey(value);
  return known.primitives.has(key) ? { context: known.primitives.get(key) } : undefined;
}

/**
 * Uses a fast-check arbitrary to generate and shrink values of a shape (default: read their structure at run time).
 *
 * @example
 * ```ts
 * // lists of at most four digits, generated and shrunk by fast-check
 * const digits = withArbitrary(fc.array(fc.nat(9), { maxLength: 4 }).map(fromArray), list(number));
 * const sumSpec = spec([digits], number, (predict, _d, xs) => predict(List.map(() => 0, xs)));
 * ```
 */
export function withArbitrary<T>(arb: fc.Arbitrary<T>, shape: Shape<T> = dynamic as Shape<T>): Shape<T> {
  return { ...shape, arbitrary: arb, name: shape.name };
}

function primitive(shape: S & { kind: 'prim' }, r: Random, size: number): unknown {
  switch (shape.prim) {
    case 'number':
      return r.int(-size, size);
    case 'boolean':
      return r.bool();
    case 'bigint':
      return BigInt(r.int(-size, size));
    case 'unit':
      return undefined;
    case 'string': {
      const n = r.int(0, Math.min(size, 6));
      let s = '';
      for (let i = 0; i < n; i++) s += String.fromCharCode(97 + r.int(0, 4));
      return s;
    }
    case 'opaque':
      return noGenerator(shape);
  }
}

/**
 * The random generator of a shape (QuickCheck's `arbitrary`): lists have a length up to the size;
 * recursive data shares the size among its recursive fields, one less at each level (so that a
 * list-like type has lengths up to the size, a tree about `size` nodes), and ends at size 0; lazy
 * positions hold evaluated values; function shapes give random non-strict functions.
 *
 * @example
 * ```ts
 * const gen = arbitrary(list(number));
 * prettyValue(gen(Seed.of(7).stream(), 5)); // a list of at most 5 numbers
 * ```
 */
export function arbitrary<T>(shape: Shape<T>): Gen<T> {
  checkGenerable(shape as S);
  return (r, size) => generate(shape as S, r, size, NO_ENCLOSING) as T;
}

/** Random inputs for a function with these argument shapes. */
export function generateInputs(shapes: readonly S[], r: Random, size: number): unknown[] {
  const inputs: unknown[] = [];
  for (let i = 0; i < shapes.length; i++) {
    const s = shapes[i]!;
    checkGenerable(s);
    try {
      inputs.push(topGenerator(s)(r, size));
    } catch (err) {
      // An arbitrary of the user's threw (fast-check's fc.constant of a revoked Proxy does): say which argument's.
      throw new TypeError(`generating argument ${i + 1} (shape ${s.name}) threw: ${describeSafely(err)}`, { cause: err });
    }
  }
  return inputs;
}

/**
 * The generator of a shape outside any recursive type, built once per shape: numbers, lazy
 * positions and built-in lists (a function's usual arguments) without {@link generate}'s dispatch
 * on every value; any other shape by {@link generate}, which draws the same values.
 */
const topGenerator = perShape((shape): Gen<unknown> => {
  if (shape.arbitrary || shape.protocol) return (r, size) => generate(shape, r, size, NO_ENCLOSING);
  if (shape.kind === 'prim' && shape.prim === 'number') return (r, size) => r.int(-size, size);
  if (shape.kind === 'lazy') {
    const inner = topGenerator(shape.inner());
    return (r, size) => now(inner(r, size));
  }
  if (shape.kind === 'data' && !shape.collection && isListCell(shape)) {
    // A list's elements are generated outside any recursive type too, each at the list's size (see elementSize).
    const elem = topGenerator((shape.alternatives()[1]!.shapes[0] as S & { kind: 'lazy' }).inner());
    return (r, size) => {
      const n = r.int(0, Math.max(0, size));
      const items: unknown[] = [];
      for (let i = 0; i < n; i++) items.push(elem(r, size));
      return evaluatedList(items);
    };
  }
  return (r, size) => generate(shape, r, size, NO_ENCLOSING);
});

const generable = new WeakSet<S>();
/**
 * Throws, before any value is made, if a value of `shape` cannot be generated: it holds a shape
 * without a generator (dynamic, or opaque without an arbitrary), its own or a generated
 * function's result (which would throw only when called, blamed on the function under test), or
 * a type without a finite value (see {@link checkFinite}).
 */
function checkGenerable(shape: S): void {
  if (generable.has(shape)) return;
  // Through the results of functions too, and not inside shapes generated by an arbitrary.
  let missing: S | undefined;
  const lacksGenerator = (s: S) => {
    if (s.arbitrary || !(s.kind === 'dynamic' || isOpaque(s))) return false;
    missing = s;
    return true;
  };
  someShapeWithin(shape, lacksGenerator, (s) => !s.arbitrary, (s) => (s.kind === 'fn' ? [s.result] : shapesInside(s)));
  if (missing) noGenerator(missing);
  checkFinite(shape);
  generable.add(shape);
}

/**
 * Throws if a value of `shape` can hold a data type without a finite value (each of its
 * alternatives holds a value of it, or of another such type: a stream): generated eagerly, such a
 * value never ends, and overflowed the stack at whichever trial first drew it. Not through
 * functions, whose results are made lazily, nor through shapes generated by a fast-check arbitrary.
 */
function checkFinite(shape: S): void {
  // What each shape within needs for a finite value: all the shapes of one of these alternatives.
  // Read once per shape: a lazy shape's inner shape may be made anew at each call.
  const needs = new Map<S, readonly (readonly S[])[]>();
  for (const stack = [shape]; stack.length > 0; ) {
    const s = stack.pop()!;
    if (needs.has(s)) continue;
    // Nothing, for a primitive, a function, a set or a map (which may be empty), a shape generated by an arbitrary.
    let alts: readonly (readonly S[])[] = [[]];
    if (!s.arbitrary) {
      if (s.kind === 'lazy') alts = [[s.inner()]];
      else if (s.kind === 'data' && !s.collection) alts = s.alternatives().map((a) => a.shapes);
      else stack.push(...shapesInside(s)); // a set's or map's elements are generated too
    }
    needs.set(s, alts);
    for (const a of alts) stack.push(...a);
  }
  // The least fixed point: a shape has a finite value if all the shapes of one of its alternatives have.
  const finite = new Set<S>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const [s, alts] of needs) {
      if (!finite.has(s) && alts.some((a) => a.every((f) => finite.has(f)))) {
        finite.add(s);
        grew = true;
      }
    }
  }
  const infinite = [...needs.keys()].find((s) => !finite.has(s) && s.kind === 'data');
  if (infinite) {
    const t = infinite.name;
    throw new TypeError(
      `cannot generate values of ${shape.name}: ${t} has no finite value, as each of its alternatives holds a value of ${t}, or of another type without one, outside a function; give the argument a fast-check arbitrary with withArbitrary()`,
    );
  }
}

/** `enclosing`: the recursive data types being generated around this value (see {@link dataLayer}). */
function generate(shape: S, r: Random, size: number, enclosing: Enclosing): unknown {
  if (shape.arbitrary) return fromArbitrary(shape.arbitrary, r, size);
  if (shape.protocol) return shape.protocol.generate(r, size, (s, n) => generate(s, r, n, enclosing));
  switch (shape.kind) {
    case 'prim':
      return primitive(shape, r, size);
    case 'lazy':
      return now(generate(shape.inner(), r, size, enclosing));
    case 'fn':
      return makeFunction(shape, r.split(), size, []);
    case 'dynamic':
      return noGenerator(shape);
    case 'data': {
      if (shape.collection) return collection(shape.collection, r, size, enclosing, (s, n) => generate(s, r, n, enclosing));
      if (isListCell(shape)) {
        const elem = (shape.alternatives()[1]!.shapes[0] as S & { kind: 'lazy' }).inner();
        const n = r.int(0, Math.max(0, size));
        const each = elementSize(elem, size, n, enclosing);
        const items: unknown[] = [];
        for (let i = 0; i < n; i++) items.push(generate(elem, r, each, enclosing));
        return evaluatedList(items);
      }
      const layer = dataLayer(shape, r, size, enclosing, MOST_EAGER);
      return layer.alt.ctor.build(layer.alt.shapes.map((s, i) => generate(s, r, layer.sizes[i]!, layer.around[i]!)));
    }
  }
}

/** The first cell of a list of `items`, evaluated throughout. */
function evaluatedList(items: readonly unknown[]): unknown {
  let cell: unknown = NIL;
  for (let i = items.length - 1; i >= 0; i--) cell = new Cons(now(items[i]), now(cell) as List<unknown>);
  return cell;
}

/** A random set or map of up to `size` elements, each made by `element` at its size (equal keys collapse, so it may be smaller). */
function collection(c: Collection, r: Random, size: number, enclosing: Enclosing, element: (s: S, size: number) => unknown): unknown {
  const n = r.int(0, Math.max(0, size));
  const sized = (s: S) => [s, elementSize(s, size, n, enclosing)] as const;
  if (c.kind === 'set') {
    const [elem, each] = sized(c.elem);
    return new Set(Array.from({ length: n }, () => element(elem, each)));
  }
  const [[key, keySize], [value, valueSize]] = [sized(c.key), sized(c.value)];
  return new Map(Array.from({ length: n }, () => [element(key, keySize), element(value, valueSize)] as const));
}

// ---------------------------------------------------------------------------------------------
// Sizes of recursive data

/**
 * The recursive data types around a value being generated: all of them (`types`: a field that can
 * hold one shares the size), and those met since the size was last made one less (`since`).
 */
export interface Enclosing {
  /** The recursive types around, each once. */
  readonly types: readonly Shape<unknown>[];
  /** The recursive types met, in order, since the size was last made one less. */
  readonly since: readonly Shape<unknown>[];
}
const NO_ENCLOSING: Enclosing = { types: [], since: [] };
/** The most size a recursive type shares when generated eagerly, a call level per layer: beyond it (a declared list-like type at `maxSize: 5000`), the stack overflowed. */
const MOST_EAGER = 500;

/** `compute`, computed once for each pair of keys (held weakly). */
function memo2<A extends object, B extends object, V extends {} | null>(compute: (a: A, b: B) => V): (a: A, b: B) => V {
  const cache = new WeakMap<A, WeakMap<B, V>>();
  return (a, b) => {
    let known = cache.get(a);
    if (!known) cache.set(a, (known = new WeakMap()));
    let v = known.get(b);
    if (v === undefined) known.set(b, (v = compute(a, b)));
    return v;
  };
}

/**
 * Whether a value of shape `from` can hold a value of shape `target` (through lazy positions and
 * the fields of data, sets and maps; not through functions, which make their results lazily, nor
 * through shapes generated by a fast-check arbitrary).
 */
const canReach = memo2((from: S, target: S) => someShapeWithin(from, (s) => s === target, (s) => !s.arbitrary));

/**
 * Whether a value of data shape `shape` can hold one of it outside lazy positions (a strict
 * recursive field, `S { pred: Nat }`): {@link produce} builds those layers at once, by recursion.
 * Lazy ones are built as they are forced, so their sizes need no cap.
 */
const strictlyRecursive = perShape((shape) => shapesInside(shape).some((f) => someShapeWithin(f, (s) => s === shape, (s) => !s.arbitrary && s.kind !== 'lazy')));

/** Whether a field of shape `field` can hold one of the recursive `types` around it: it shares their size. */
const recursiveIn = (field: S, types: readonly S[]) => types.some((t) => canReach(field, t));

/**
 * The size of each of the `n` elements of a list, set or map of size `size`: its own, unless the
 * element can hold a type being generated around it (a rose tree's children), which would then
 * grow without end: the elements share the size.
 */
function elementSize(elem: S, size: number, n: number, enclosing: Enclosing): number {
  return enclosing.types.length > 0 && n > 0 && recursiveIn(elem, enclosing.types) ? Math.floor(size / n) : size;
}

/** One layer of data to generate: its alternative, and the size of each of its fields and the recursive types around it. */
interface DataLayer {
  readonly alt: Alternative;
  readonly sizes: readonly number[];
  readonly around: readonly Enclosing[];
}

/**
 * What every layer of data of shape `shape` among the recursive types `around` has in common, worked
 * out once for the pair: its alternatives, the recursive types around its fields, which fields of
 * each alternative share the size ({@link recursiveIn}), and how many.
 */
interface Plan {
  readonly alts: readonly Alternative[];
  /** Whether a field can hold this type again. */
  readonly recursive: boolean;
  /** The recursive types around its fields: `around`, with the shape if it is recursive. */
  readonly types: readonly S[];
  readonly shares: readonly (readonly boolean[])[];
  readonly counts: readonly number[];
  /** The alternatives without fields that share the size, and with. */
  readonly base: readonly Alternative[];
  readonly grow: readonly Alternative[];
  /** The alternatives with the fewest fields that share the size. */
  readonly fewest: readonly Alternative[];
  /** The recursive types around a field that does not share the size: it starts a count of its own. */
  readonly apart: Enclosing;
}

const planOf = memo2((around: readonly S[], shape: S & { kind: 'data' }): Plan => {
  const alts = shape.alternatives();
  const recursive = alts.some((a) => a.shapes.some((f) => canReach(f, shape)));
  const types = recursive && !around.includes(shape) ? [...around, shape] : around;
  const shares = alts.map((a) => a.shapes.map((f) => recursiveIn(f, types)));
  const counts = shares.map((fields) => fields.filter(Boolean).length);
  const least = Math.min(...counts);
  return {
    alts,
    recursive,
    types,
    shares,
    counts,
    base: alts.filter((_, j) => counts[j] === 0),
    grow: alts.filter((_, j) => counts[j]! > 0),
    fewest: alts.filter((_, j) => counts[j] === least),
    apart: { types, since: [] },
  };
});

/**
 * Picks a layer of data of shape `shape` at size `size`. The fields that can hold this type again
 * or a type around it (its recursive fields, counted through other types: a rose tree's list of
 * children) share the size, split at random (so that trees come in every shape, not only
 * balanced), less one once per turn: at the first recursive layer, and then whenever a type met
 * since the last such layer comes again (a `Node` holding `option(Node)` loses one per node, not
 * two; a `Stmt` that holds a `Stmt` loses one at each, inside an `Expr` or not). The other fields
 * have the size whole. At size 0 only alternatives without recursive fields are picked, so
 * generation ends; at size `s`, one of them with probability 1 / (s + 1), which makes the lengths
 * of a list-like type uniform up to the size, as the built-in list's are. `most` caps the size a
 * recursive type shares: a value built eagerly is built by recursion, a level per layer.
 */
function dataLayer(shape: S & { kind: 'data' }, r: Random, size: number, around: Enclosing, most = Infinity): DataLayer {
  const { alts, recursive, types, shares, counts, base, grow, fewest, apart } = planOf(around.types, shape);
  const turn = recursive && (around.since.length === 0 || around.since.includes(shape));
  const enclosing: Enclosing = recursive ? { types, since: turn ? [shape] : [...around.since, shape] } : around;
  const budget = grow.length > 0 ? Math.min(size, most) : size;
  let alt: Alternative;
  if (base.length === 0 || grow.length === 0) {
    // No choice between ending and growing: any alternative (for a type without a finite value, the fewest recursive fields at size 0).
    alt = r.pick(budget > 0 ? alts : fewest);
  } else {
    // One draw for the choice, and one for the alternative only if there are several: lists draw once a cell.
    const from = r.int(0, Math.max(0, budget)) === 0 ? base : grow;
    alt = from.length === 1 ? from[0]! : r.pick(from);
  }
  const at = alts.indexOf(alt);
  const shared = shares[at]!;
  const parts = split(Math.max(0, budget - (turn ? 1 : 0)), counts[at]!, r);
  return { alt, sizes: shared.map((isS) => (isS ? parts.pop()! : size)), around: shared.map((isS) => (isS ? enclosing : apart)) };
}

/** `total` split at random into `k` sizes that sum to it (no draw for `k` ≤ 1). */
function split(total: number, k: number, r: Random): number[] {
  if (k <= 1) return [total];
  const cuts = Array.from({ length: k - 1 }, () => r.int(0, total)).sort((a, b) => a - b);
  return [...cuts, total].map((c, i) => c - (i === 0 ? 0 : cuts[i - 1]!));
}

// ---------------------------------------------------------------------------------------------
// Consume: a value as a lazy tree of perturbations

/** One consumed layer: the perturbation it contributes and its fields, each consumed when forced. */
export interface Input {
  /** The perturbation this layer contributes (from its constructor, or its value for a primitive). */
  readonly variant: number;
  /** Its fields, each consumed when forced. */
  readonly fields: readonly Lazy<Input>[];
}

/**
 * Consumes a value (paper, `Consume`): forcing the returned `Lazy` forces the value's outermost
 * layer and nothing more; forcing a field's `Input` forces that field.
 */
export function consume(value: unknown, shape: Shape<unknown> = dynamic): Lazy<Input> {
  return consumeWith(value, shape);
}

/**
 * @internal {@link consume}, recording what is forced at `site` as it is forced (a random context
 * observed without a copy of the result; see `forceAt`): the value there is read as `dynamic`, as
 * the copy it replaces was, and the site is the thunk's own argument.
 */
export function consumeRecorded(site: RecordSite): Lazy<Input> {
  return lazyWith(consumeSite, site);
}

function consumeWith(value: unknown, shape: S): Lazy<Input> {
  // The value and its shape sit in the thunk's own field: one allocation per field consumed.
  return lazyWith(consumeAt, { value, shape });
}

function consumeAt({ value, shape }: { readonly value: unknown; readonly shape: S }): Input {
  let v = value;
  let s = shape;
  while (v instanceof Lazy) {
    if (s.kind === 'lazy') s = s.inner();
    v = v.force();
  }
  // A shape generated by an arbitrary may not hold what its declaration says: it is read as it is, and what cannot be taken apart (a Date) as an atom.
  const layer = (s.arbitrary && !isOpaque(s) ? lenient : s).project(v, null);
  const n = layer.fields.length;
  const fields: Lazy<Input>[] = new Array(n);
  for (let i = 0; i < n; i++) fields[i] = consumeWith(layer.fields[i], layer.shapes[i]!);
  return { variant: variantOf(layer), fields };
}

function consumeSite(site: RecordSite): Input {
  // Read by the site's shape as it is recorded (an opaque value has no other reading); a primitive or a function, as it is.
  const forced = forceAt(site);
  const layer = forced.layer ?? lenient.project(forced.value, null);
  const { sites } = forced;
  const n = sites.length;
  const fields: Lazy<Input>[] = new Array(n);
  for (let i = 0; i < n; i++) fields[i] = lazyWith(consumeSite, sites[i]!);
  return { variant: variantOf(layer), fields };
}

/** The perturbation a consumed layer contributes. An opaque value is told apart by its text: random functions map equal values alike. */
function variantOf(layer: Layer): number {
  return layer.ctor.style !== 'prim' ? ctorHash(layer.ctor) : layer.ctor.show ? hashPrimitive(layer.ctor.show(layer.value)) : hashPrimitive(layer.value);
}

// A context's sites live only while it runs (a check's random context makes one per field it forces).
keepHiddenClasses(RecordSite.root(undefined, dynamic, 'value', demandHolder(), 0));

const ctorHashes = new WeakMap<Ctor, number>();
/**
 * The perturbation of a constructor: a hash of its name, computed once; with the size for sets
 * and maps, whose constructors (one per size) share a name.
 */
function ctorHash(ctor: Ctor): number {
  let h = ctorHashes.get(ctor);
  if (h === undefined) ctorHashes.set(ctor, (h = hashPrimitive(ctor.style === 'set' || ctor.style === 'map' ? `${ctor.name} ${ctor.keys.length}` : ctor.name)));
  return h;
}

/**
 * Consumes a random part of the inputs (paper, appendix B): a random depth-first walk that stops
 * with probability ½ before each step, forcing the inputs it walks into. Returns the inputs not
 * consumed, and pushes the perturbations collected on `entropy` if given; `random` is perturbed in
 * place by the values met on the way, so what is drawn from it next depends on them.
 */
export function draws(inputs: readonly Lazy<Input>[], random: Random, entropy?: number[]): readonly Lazy<Input>[] {
  if (random.bool() || inputs.length === 0) return inputs;
  const pending = inputs.slice();
  walkInputs(pending, random, entropy);
  return pending;
}

/**
 * @internal {@link draws} on inputs that no one else holds (a random context's, round after
 * round): what is left is `pending` itself, changed in place, without a copy per round.
 */
export function drawsInPlace(pending: Lazy<Input>[], random: Random): void {
  if (random.bool() || pending.length === 0) return;
  walkInputs(pending, random, undefined);
}

/** The walk of {@link draws}, its first step decided: consumes from `pending`, in place. */
function walkInputs(pending: Lazy<Input>[], random: Random, entropy: number[] | undefined): void {
  // The levels of the walk, one after another in one array (the inputs, then the fields of each
  // node picked), where they begin in `starts`: no copy per level, and what is left is `pending` as it is.
  const starts = [0];
  do {
    while (starts.length > 0 && starts[starts.length - 1] === pending.length) starts.pop();
    if (starts.length === 0) break;
    const start = starts[starts.length - 1]!;
    const k = start + random.int(0, pending.length - 1 - start);
    const node = pending[k]!.force();
    pending.copyWithin(k, k + 1);
    pending.length--;
    entropy?.push(node.variant);
    random.perturb(node.variant);
    if (node.fields.length > 0) {
      starts.push(pending.length);
      for (const field of node.fields) pending.push(field);
    }
  } while (!random.bool());
}

/** Consumes a random part of the inputs, then produces a value whose randomness depends on what was consumed. */
export function recur(shape: Shape<unknown>, inputs: readonly Lazy<Input>[], random: Random, size: number, enclosing: Enclosing = NO_ENCLOSING): unknown {
  const entropy: number[] = [];
  const rest = draws(inputs, random, entropy);
  let seed = random.split();
  for (const v of entropy) seed = seed.variant(v);
  return produce(shape, rest, seed.stream(), size, enclosing);
}

/**
 * Produces a random value of a shape from the leaves of the inputs (paper, `Produce`): every
 * lazy field is produced only when forced, after drawing from the inputs again. Sizes go down
 * as {@link arbitrary}'s do (`enclosing`: the recursive types being produced around the value).
 */
export function produce(shape: Shape<unknown>, inputs: readonly Lazy<Input>[], r: Random, size: number, enclosing: Enclosing = NO_ENCLOSING): unknown {
  if (shape.arbitrary) return fromArbitrary(shape.arbitrary, r, size);
  if (shape.protocol) return shape.protocol.generate(r, size, (s, n) => produce(s, inputs, r, n, enclosing));
  switch (shape.kind) {
    case 'prim':
      return primitive(shape, r, size);
    case 'dynamic':
      return noGenerator(shape);
    case 'lazy': {
      const seed = r.split();
      const inner = shape.inner();
      return lazy(() => recur(inner, inputs, seed.stream(), size, enclosing));
    }
    case 'fn': {
      const seed = r.split();
      return makeFunction(shape, seed, size, inputs);
    }
    case 'data': {
      if (shape.collection) return collection(shape.collection, r, size, enclosing, (s, n) => recur(s, inputs, r.split().stream(), n, enclosing));
      // Strict fields are produced now, a call level per layer: capped as generate's are.
      const layer = dataLayer(shape, r, size, enclosing, strictlyRecursive(shape) ? MOST_EAGER : Infinity);
      return layer.alt.ctor.build(layer.alt.shapes.map((s, i) => recur(s, inputs, r.split().stream(), layer.sizes[i]!, layer.around[i]!)));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Random functions

interface Call {
  /** What the function itself evaluated of each argument (read when the function is shown). */
  readonly args: readonly (() => Demand)[];
  readonly result: unknown;
}

function makeFunction(shape: S & { kind: 'fn' }, seed: Seed, size: number, outer: readonly Lazy<Input>[]): (...args: unknown[]) => unknown {
  const calls: Call[] = [];
  const f = (...args: unknown[]) => {
    // The function consumes entangled copies of its arguments, so that it is shown by what *it*
    // evaluated of them, not by what its caller evaluated of them elsewhere.
    const logged = calls.length < 64;
    const entangled = args.map((a, i) => (logged ? entangle(a, shape.args[i] ?? dynamic) : ([a, () => unforced] as const)));
    const inputs = [...outer, ...entangled.map(([a], i) => consume(a, shape.args[i] ?? dynamic))];
    const result = recur(shape.result, inputs, seed.stream(), size);
    if (logged) calls.push({ args: entangled.map(([, demand]) => demand), result });
    return result;
  };
  Object.defineProperty(f, DESCRIBE, {
    value: {
      describe: () => describeCalls(calls, shape.result),
      reset: () => (calls.length = 0),
    },
  });
  return f;
}

/**
 * Shows a generated function by the calls it answered, each argument as far as the function
 * evaluated it and each result as far as it was evaluated: `λ{_ ↦ 3; 1 : _ ↦ 4}`; `λ{}` if never called.
 */
function describeCalls(calls: readonly Call[], result: S): string {
  const show = (d: Demand) => prettyDemand(d, { maxItems: 6, maxWidth: 60 });
  const shown = new Set<string>();
  for (const c of calls) {
    shown.add(`${c.args.map((demand) => show(demand())).join(', ')} ↦ ${show(evaluatedPart(c.result, result))}`);
    if (shown.size === 6) break;
  }
  return `λ{${[...shown].join('; ')}${calls.length > shown.size && shown.size === 6 ? '; …' : ''}}`;
}

/**
 * A random non-strict function of this shape, fixed by `seed` (QuickCheck's `promote`).
 *
 * @example
 * ```ts
 * const f = randomFunction(fn([number], number), Seed.of(2), 5);
 * f(1); // a number, the same for the same argument; it may or may not have evaluated its argument
 * ```
 *
 * @typeParam F The type of the functions `shape` describes, which the generated one has.
 */
export function randomFunction<F extends (...args: never[]) => unknown>(shape: Shape<F>, seed: Seed, size: number): F {
  const s = shape as S;
  if (s.kind !== 'fn') throw new TypeError(`randomFunction: expected a function shape, fn(args, result), got ${s.name}`);
  return makeFunction(s, seed, size, []) as unknown as F;
}

/** Forgets the calls a generated function has answered, so that a report shows only the last run's. */
export function resetCalls(f: unknown): void {
  (f as { [DESCRIBE]?: { reset(): void } } | undefined)?.[DESCRIBE]?.reset();
}
