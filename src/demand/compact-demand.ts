/**
 * The compact form of the demands that walks and instrumented copies record: a run of list cells
 * at lazy positions is one {@link Spine} (its heads in chunks, numbers in typed arrays), a primitive
 * a node of one field; writing into it, copying it, and finding the path of a position in it.
 *
 * Observation is dominated by the garbage collector copying what it allocates and what lives
 * until the observation ends, the demands among it, so demands are compact.
 * @module
 */
import { demandHolder, Forced, forcedNode, markShared, setField, unforced, type CellRun, type Demand } from './demand.ts';
import { fieldKeyOf } from './collections.ts';
import { CONS_CTOR } from './lazy-positions.ts';
import { child, type Path } from './path.ts';
import { primitiveCtor } from './primitives.ts';
import type { Layer } from './shape-types.ts';

// A spine keeps its heads in chunks of CHUNK (below V8's large-object size): one array grown
// cell by cell to 10^5 heads cost more in its reallocations, each a large object copied whole,
// than the rest of the recording of a list (1.8 ms against 0.2 for 10^5 cells).
const CHUNK_BITS = 12;
const CHUNK = 1 << CHUNK_BITS;
const IN_CHUNK = CHUNK - 1;

/**
 * A run of list cells at lazy positions, recorded as one sequence: the demand on each cell's head
 * (a primitive forced at a lazy position as itself, else a demand node), and the demand on the
 * tail of the last. A demand on a long list costs a few bytes per cell, not a node per cell.
 * @internal
 */
export class Spine {
  rest: Demand = unforced;
  /** How many cells. */
  length = 0;
  // The first chunk grows as cells come (most spines are short).
  private readonly first: unknown[] = [];
  // The others are made whole, off the collector's heap (see Heads); their array when the first comes (most spines have none).
  private chunks: Heads[] | undefined = undefined;

  /** What is recorded of cell `k`'s head. */
  head(k: number): unknown {
    if (k < CHUNK) return this.first[k];
    const c = this.chunks![(k >> CHUNK_BITS) - 1]!;
    const i = k & IN_CHUNK;
    const kind = c.kinds[i];
    return kind === UNFORCED_HEAD ? unforced : kind === NUMBER_HEAD ? c.numbers[i] : c.others![i];
  }

  setHead(k: number, h: unknown): void {
    if (k < CHUNK) {
      this.first[k] = h;
      return;
    }
    const c = this.chunks![(k >> CHUNK_BITS) - 1]!;
    const i = k & IN_CHUNK;
    if (typeof h === 'number') {
      c.numbers[i] = h;
      c.kinds[i] = NUMBER_HEAD;
    } else if (h === unforced) c.kinds[i] = UNFORCED_HEAD;
    else {
      (c.others ??= new Array(CHUNK))[i] = h;
      c.kinds[i] = OTHER_HEAD;
    }
  }

  /** Adds a cell, its head unforced so far; returns its index. */
  grow(): number {
    const k = this.length++;
    if (k < CHUNK) this.first[k] = unforced;
    else {
      const chunks = (this.chunks ??= []);
      if ((k & IN_CHUNK) === 0) chunks.push(new Heads());
      chunks[chunks.length - 1]!.kinds[k & IN_CHUNK] = UNFORCED_HEAD;
    }
    return k;
  }

  /** Adds a cell whose head is `h` (as {@link setHead} takes it): {@link grow} and `setHead` in one step, for a recording that has the head as it adds the cell. */
  push(h: unknown): void {
    const k = this.length++;
    if (k < CHUNK) this.first.push(h);
    else {
      const i = k & IN_CHUNK;
      const chunks = (this.chunks ??= []);
      if (i === 0) chunks.push(new Heads());
      // A new cell's kind is NUMBER_HEAD (zero): a number, the commonest head, is stored without it.
      if (typeof h === 'number') chunks[chunks.length - 1]!.numbers[i] = h;
      else this.setHead(k, h);
    }
  }
}

// NUMBER_HEAD is zero, what a chunk's kinds start as: see push.
const NUMBER_HEAD = 0;
const UNFORCED_HEAD = 1;
const OTHER_HEAD = 2;

/**
 * The heads of a chunk of a long spine: numbers, the commonest heads, in typed arrays, which the
 * collector does not copy (their memory is off its heap); others in an array made when one comes.
 */
export class Heads {
  readonly kinds = new Uint8Array(CHUNK);
  readonly numbers = new Float64Array(CHUNK);
  others: unknown[] | undefined = undefined;
}

/**
 * Where {@link put} sets a demand in a spine: negative indices, so that one comparison tells them
 * from the fields of a node. `REST` is the spine's rest; `HEAD - k` the head of its cell `k`.
 * @internal
 */
export const REST = -1;
/** @internal See {@link REST}. */
export const HEAD = -2;

/**
 * The demand on cell `k` of a spine: a `Forced` list-cell node. The spine's first cell is stored
 * in the demand; the others, and the nodes of primitive heads, are made when first read and kept
 * (a demand is compared and printed more than once, a demand on a huge list seldom read whole).
 */
export class SpineCell implements CellRun {
  private next: SpineCell | undefined = undefined;
  /** See `Forced.shared` (on the prototype, `Forced`'s). */
  declare readonly shared: boolean;

  constructor(
    readonly spine: Spine,
    readonly k: number,
  ) {}

  field(i: number): Demand {
    const { spine } = this;
    if (i === 0) {
      const h = spine.head(this.k);
      if (typeof h === 'object' && h !== null) return h as Demand;
      const node = new LazyPrimNode(h) as unknown as Forced;
      spine.setHead(this.k, node);
      return node;
    }
    return this.k + 1 < spine.length ? ((this.next ??= new SpineCell(this.spine, this.k + 1)) as unknown as Forced) : this.spine.rest;
  }

  get fields(): readonly Demand[] {
    return [this.field(0), this.field(1)];
  }

  /** Pushes on `stack` what a walk of the run's demands meets past its cells: its heads kept as demands (unforced ones too), then its rest. */
  pushParts(stack: Demand[]): void {
    const { spine } = this;
    for (let k = this.k; k < spine.length; k++) {
      const h = spine.head(k);
      if (typeof h === 'object' && h !== null) stack.push(h as Demand);
    }
    stack.push(spine.rest);
  }

  /** The run from cell `k` of the spine on (this one at its own index), or the spine's rest after its last cell. */
  cellAt(k: number): Demand {
    return k === this.k ? (this as unknown as Forced) : k < this.spine.length ? (new SpineCell(this.spine, k) as unknown as Forced) : this.spine.rest;
  }
}
Object.setPrototypeOf(SpineCell.prototype, Forced.prototype);
Object.defineProperties(SpineCell.prototype, { ctor: { value: CONS_CTOR }, value: { value: undefined }, lazy: { value: true }, arity: { value: 2 } });

/**
 * @internal A copy of demand `d` that recording further into `d` does not change: a reading of a
 * demand still being recorded (see `entangle`). Nodes without fields are shared; a shared node
 * is copied once, its copy shared alike.
 */
export function snapshot(d: Demand): Demand {
  const root = demandHolder();
  const stack: unknown[] = [d, root, 0];
  let copies: Map<Forced, Forced> | undefined;
  while (stack.length > 0) {
    const at = stack.pop() as number;
    const into = stack.pop() as Forced | SpineCell;
    const x = stack.pop() as Demand;
    const again = x.forced && x.shared ? copies?.get(x) : undefined;
    if (again !== undefined) {
      markShared(again);
      put(into, at, again);
    } else if (x instanceof SpineCell) {
      const cell = startSpine(into, at);
      if (x.shared) (copies ??= new Map()).set(x, cell as unknown as Forced);
      for (let j = x.k; j < x.spine.length; j++) {
        const h = x.spine.head(j);
        const k = cell.spine.grow();
        if (typeof h === 'object' && h !== null) stack.push(h, cell, HEAD - k);
        else cell.spine.setHead(k, h);
      }
      stack.push(x.spine.rest, cell, REST);
    } else if (x.forced && x.arity > 0) {
      const node = forcedNode(x.ctor, x.arity, x.value, x.lazy);
      put(into, at, node);
      if (x.shared) (copies ??= new Map()).set(x, node);
      for (let i = 0; i < x.arity; i++) stack.push(x.field(i), node, i);
    } else {
      put(into, at, x);
    }
  }
  return root.field(0);
}

/** @internal Sets the demand at `index` of a node being built, or of a spine (its heads, or {@link REST}). */
export function put(parent: Forced | SpineCell, index: number, d: Demand): void {
  if (index >= 0) setField(parent as Forced, index, d);
  else if (index === REST) (parent as SpineCell).spine.rest = d;
  else (parent as SpineCell).spine.setHead(HEAD - index, d);
}

/** @internal What is recorded so far at `index` of `parent` (see {@link put}): a demand, or a forced element of a spine as itself. */
export function recordedAt(parent: Forced | SpineCell, index: number): unknown {
  if (index >= 0) return (parent as Forced).field(index);
  const { spine } = parent as SpineCell;
  return index === REST ? spine.rest : spine.head(HEAD - index);
}

/**
 * @internal The path of position `index` of `parent` (see {@link put}) in the demand recorded at
 * field `at` of `root`, whose path is `path`; `null` if it is not there. Walks and copies keep no
 * paths under dynamic shapes, so as to build none on the way: a mismatch there finds its path so,
 * in what was recorded up to it (each layer is recorded before its fields).
 */
export function pathTo(root: Forced, at: number, path: Path, parent: Forced | SpineCell, index: number): Path {
  if (parent === root && index === at) return path;
  const stack: unknown[] = [root.field(at), path];
  // A shared node is searched once: what is below it is found by the first path to it.
  let seen: Set<Demand> | undefined;
  while (stack.length > 0) {
    const p = stack.pop() as Path;
    const d = stack.pop() as Demand;
    if (d.forced && d.shared) {
      if ((seen ??= new Set()).has(d)) continue;
      seen.add(d);
    }
    if (d instanceof SpineCell) {
      const { spine } = d;
      for (let k = d.k; k < spine.length; k++) {
        const head = child(child(p, 'tail', k - d.k), 'head');
        if (parent === d && index === HEAD - k) return head;
        stack.push(spine.head(k), head);
      }
      const rest = child(p, 'tail', spine.length - d.k);
      if (parent === d && index === REST) return rest;
      stack.push(spine.rest, rest);
    } else if (d instanceof Forced) {
      const order = ownOrders.get(d);
      for (let i = 0; i < d.arity; i++) {
        const field = child(p, fieldKeyOf(d.ctor, i, order, i % 2 === 1 ? keyOf(d.field(i - 1)) : undefined));
        if (parent === d && index === i) return field;
        stack.push(d.field(i), field);
      }
    }
  }
  return null;
}

/**
 * The orders of the nodes of sets and maps whose layers list their elements in another order than
 * their values (see `Layer.order`), so that {@link pathTo} names an element by where it is in its
 * value, as a walk that keeps paths does (see `fieldKey`).
 */
const ownOrders = new WeakMap<Forced, readonly number[]>();

/** @internal The node that records `layer`, at a lazy position if `atLazy` (a set's or a map's with its order, see {@link ownOrders}). */
export function layerNode(layer: Layer, atLazy: boolean): Forced {
  const node = forcedNode(layer.ctor, layer.fields.length, layer.value, atLazy);
  if (layer.order !== undefined) ownOrders.set(node, layer.order);
  return node;
}

/** What names a map's value in a path (see `fieldKeyOf`), from the demand on its key: the key if it is a primitive (any other value names none). */
function keyOf(d: Demand): unknown {
  return d.forced && d.ctor.style === 'prim' ? d.value : d;
}

/** @internal Records at `index` of `parent` a list cell at a lazy position, as the first cell of a new spine; returns that cell, where the spine's heads and rest are put. */
export function startSpine(parent: Forced | SpineCell, index: number): SpineCell {
  const cell = new SpineCell(new Spine(), 0);
  put(parent, index, cell as unknown as Forced);
  return cell;
}

/**
 * @internal Records at `index` of `parent` a list cell at a lazy position, in a spine (as every
 * walk records one): a cell at the rest of a spine (`index` is {@link REST}, `parent` the spine's
 * cell) grows it, any other starts one. Returns the spine's cell; the new cell's head is put at
 * {@link newestHead}.
 */
export function spineSlot(parent: Forced | SpineCell, index: number): SpineCell {
  const cell = index === REST ? (parent as SpineCell) : startSpine(parent, index);
  cell.spine.grow();
  return cell;
}

/** @internal Where the head of the newest cell of `cell`'s spine is put (see {@link spineSlot}). */
export function newestHead(cell: SpineCell): number {
  return HEAD - (cell.spine.length - 1);
}

/** @internal Records primitive `v` at `index` of `parent`: a forced element of a spine as itself (no node per element), else a node. */
export function putPrimitive(parent: Forced | SpineCell, index: number, v: unknown, atLazy: boolean): void {
  if (atLazy && index < REST) (parent as SpineCell).spine.setHead(HEAD - index, v);
  else put(parent, index, primitiveNode(v, atLazy));
}

/** @internal The node of primitive `v`, at a lazy position if `atLazy`. */
export function primitiveNode(v: unknown, atLazy: boolean): Forced {
  return (atLazy ? new LazyPrimNode(v) : new StrictPrimNode(v)) as unknown as Forced;
}


// Primitive nodes: `Forced` nodes whose constructor and laziness sit on their prototypes (32 bytes instead of 64).
/** @internal */
export class LazyPrimNode {
  constructor(readonly value: unknown) {}
}
/** @internal */
export class StrictPrimNode {
  constructor(readonly value: unknown) {}
}
for (const [node, lazy] of [[LazyPrimNode, true], [StrictPrimNode, false]] as const) {
  Object.setPrototypeOf(node.prototype, Forced.prototype);
  Object.defineProperties(node.prototype, {
    ctor: {
      get(this: LazyPrimNode) {
        return primitiveCtor(typeof this.value);
      },
    },
    lazy: { value: lazy },
    f0: { value: undefined },
    f1: { value: undefined },
  });
}
