/**
 * Recording for a context that forces a value one layer at a time (a random context): the sites
 * where it records each layer, and forcing the value at one.
 * @module
 */
import { Lazy } from '../lazy/lazy.ts';
import { Cons } from '../lazy/cell.ts';
import { bottom, threwBottom, type Forced } from './demand.ts';
import { fieldKey } from './collections.ts';
import { layerNode, newestHead, put, putPrimitive, REST, spineSlot, type SpineCell } from './compact-demand.ts';
import { CONS_CTOR } from './lazy-positions.ts';
import { NONE } from './guide.ts';
import { child, type Path } from './path.ts';
import { record } from './record.ts';
import { declaredConsShapes, insideLazy, insideLazyPosition, isPrimitive, primitiveFits } from './shape-fit.ts';
import type { Ctor, Layer, RandomConsumer, Shape } from './shape-types.ts';

/**
 * @internal Where a context that forces a value one layer at a time records a layer: its shape,
 * the field of a node it fills, and the value to force there until {@link forceAt} takes it. Its
 * path is found only for a message (a site per field of every layer a context forces: paths made
 * for them all cost more than the rest of the sites), from the site above it and its key there.
 */
export class RecordSite {
  constructor(
    /** The value to force here; taken out by {@link forceAt}, so that what a context has walked past can be collected. */
    public value: unknown,
    readonly shape: Shape<unknown>,
    /** Where its layer is recorded: a field of a node, or a place in a spine (see `put`). */
    readonly into: Forced | SpineCell,
    readonly at: number,
    /** The site of the layer this one is a field of, or none at the root. */
    private readonly above: RecordSite | undefined,
    /** The key of this field in that layer; at the root, the path. */
    private readonly key: PropertyKey | Path,
  ) {}

  /** The site of a value at the root of a walk, whose path is `path`. */
  static root(value: unknown, shape: Shape<unknown>, path: Path, into: Forced, at: number): RecordSite {
    return new RecordSite(value, shape, into, at, undefined, path);
  }

  /** The path of this site once found: a strict field's is found at once, and each of a long list's cells would otherwise walk to the root again. */
  private found: Path | undefined = undefined;

  /** The constructor of the layer {@link forceAt} found here; none before, or for a primitive or a function. */
  ctor: Ctor | undefined = undefined;

  /** The path of this site, for a message: from the nearest site that knows its own, iteratively (a site may be a long list's ten thousandth cell). */
  get path(): Path {
    if (this.found !== undefined) return this.found;
    const below: RecordSite[] = [];
    let site: RecordSite = this;
    for (; site.above !== undefined && site.found === undefined; site = site.above) below.push(site);
    let path = site.found ?? (site.key as Path);
    for (let i = below.length - 1; i >= 0; i--) path = below[i]!.found = child(path, below[i]!.key as PropertyKey);
    return path;
  }
}

/** @internal The pulls a random context of size `size` may make of the iterables it consumes, shared by them all (see {@link RandomConsumer}); also the lazy positions past the outer layer that one forcing the result in full forces at most. */
export function pullAllowance(size: number): number {
  return 1000 + 100 * size;
}

/**
 * @internal For a context that forces a value one layer at a time: forces the value at `site`
 * (taking it out) out of its Lazies (checking each against the site's shape first) and records
 * there the layer found, checked against the shape inside them: a primitive, a list cell at a lazy
 * position (in a spine), or a node whose strict fields are recorded at once (they were evaluated
 * with it). Returns the value, sets the site's `ctor` to its layer's constructor (none for a
 * primitive or a function), and pushes onto `fields` the sites of its fields, where the context
 * records them if it forces them (a strict field again, to the same demand): an object for these
 * and an array of sites per layer forced were a tenth of a check's allocation. A function is not
 * recorded: no context calls one. A value of a protocol's shape (an iterable) is consumed as
 * `random` consumes one, at any position: the same random consumer as a result that is one gets.
 */
export function forceAt(site: RecordSite, fields: RecordSite[], random: RandomConsumer): unknown {
  const { into, at } = site;
  const value = site.value;
  site.value = undefined;
  let v = value;
  let shape = site.shape;
  while (v instanceof Lazy) {
    shape = insideLazyPosition(shape) ?? insideLazy(shape, v, site.path);
    try {
      v = v.force();
    } catch (err) {
      // Forced and threw (an input's failure passed on, or the function's own error): the result is ⊥ here, and the context, which cannot go on past it, stops.
      if (threwBottom(err)) put(into, at, bottom);
      throw err;
    }
  }
  if (shape.protocol !== undefined) {
    shape.protocol.consumeRandomly(v, site.path, random, into, at);
    return opened(site, v, shape.project(v, null).ctor);
  }
  const atLazy = value instanceof Lazy;
  if (shape.kind === 'lazy' || (typeof v === 'function' && shape.kind !== 'dynamic')) shape.project(v, site.path); // throws the mismatch
  if (typeof v === 'function') return v;
  if (isPrimitive(v)) {
    if (!primitiveFits(v, shape)) shape.project(v, site.path); // throws the mismatch
    putPrimitive(into, at, v, atLazy);
    return v;
  }
  // A list cell at a lazy position of a declared list, the commonest layer a context forces: its fields read without a layer made.
  if (atLazy && v instanceof Cons && v.head instanceof Lazy && v.tail instanceof Lazy) {
    const shapes = declaredConsShapes(shape);
    if (shapes !== undefined) {
      spineSites(v.head, v.tail, shapes, into, at, site, fields);
      return opened(site, v, CONS_CTOR);
    }
  }
  let layer: Layer;
  try {
    layer = shape.project(v, null);
  } catch (err) {
    shape.project(v, site.path); // throws the mismatch, naming where
    throw err;
  }
  const { shapes } = layer;
  if (atLazy && layer.ctor === CONS_CTOR && layer.fields[0] instanceof Lazy && layer.fields[1] instanceof Lazy) {
    spineSites(layer.fields[0], layer.fields[1], shapes, into, at, site, fields);
    return opened(site, v, CONS_CTOR);
  }
  const node = layerNode(layer, atLazy);
  put(into, at, node);
  const n = layer.fields.length;
  for (let i = 0; i < n; i++) {
    const f = layer.fields[i];
    const fieldSite = new RecordSite(f, layer.shapes[i]!, node, i, site, fieldKey(layer, i));
    fields.push(fieldSite);
    if (!(f instanceof Lazy)) record(f, fieldSite.shape, fieldSite.path, NONE, node, i);
  }
  return opened(site, v, layer.ctor);
}

/** `value`, the layer of constructor `ctor` found at `site`, which keeps the constructor. */
function opened(site: RecordSite, value: unknown, ctor: Ctor): unknown {
  site.ctor = ctor;
  return value;
}

/** Pushes onto `fields` the sites of the head and tail of a list cell at a lazy position, recorded in a spine as a walk records one (see `spineSlot`), at field `at` of `into`. */
function spineSites(head: Lazy<unknown>, tail: Lazy<unknown>, shapes: readonly Shape<unknown>[], into: Forced | SpineCell, at: number, above: RecordSite, fields: RecordSite[]): void {
  const cell = spineSlot(into, at);
  // The keys read by index: a destructuring took the iteration protocol at every cell a context forces.
  const keys = CONS_CTOR.keys;
  fields.push(new RecordSite(head, shapes[0]!, cell, newestHead(cell), above, keys[0]!), new RecordSite(tail, shapes[1]!, cell, REST, above, keys[1]!));
}
