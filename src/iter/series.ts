/**
 * Iterables in the exhaustive mode. A source is enumerated as a lazy list of its pulls: depth k
 * for k pulls answering elements of depth below k, then done or throwing (depth 0 each); one
 * without `return`, or whose `return` throws, is a level deeper. Its pulls are holes that the
 * enumeration refines only when the function pulls them (Lazy SmallCheck's pruning, as a list's
 * cells). A context consumes an iterable result pull by pull within its budget (pull k costs k
 * levels, as a list's cell k), choosing at each pull whether to go on, then whether to leave the
 * iteration open or close it with `return()`; before the first pull it may close it at once.
 * @module
 */
import { now, type Lazy } from '../lazy/lazy.ts';
import { Cons, NIL, type List } from '../lazy/cell.ts';
import { lazyOf } from '../demand/lazy-positions.ts';
import { showPath } from '../demand/path.ts';
import { ShapeMismatchError } from '../demand/shape-errors.ts';
import type { Alternative, Ctor, Shape } from '../demand/shape-types.ts';
import { Hole, partial, type OwnSeries, type Skel } from '../engine/series.ts';
import { SeriesSource, Source, PULL_THROWS, type SourcePlan } from './source.ts';
import { closedThrowing } from './observe.ts';

type S = Shape<unknown>;

/** The ways a source closes, and the levels each costs. */
const CLOSINGS: readonly { readonly closing: Pick<SourcePlan<unknown>, 'hasReturn' | 'returnThrows'>; readonly levels: number }[] = [
  { closing: { hasReturn: true }, levels: 0 },
  { closing: { hasReturn: false }, levels: 1 },
  { closing: { hasReturn: true, returnThrows: true }, levels: 1 },
];

const cellsMemo = new WeakMap<S, S>();

/** The shape of a source's pulls, a lazy list of elements `elem` ending in `[]` or `throw`. */
function cells(elem: S): S {
  let s = cellsMemo.get(elem);
  if (s !== undefined) return s;
  const atom = (name: string, value: unknown): Ctor => ({ name, keys: [], style: 'atom', build: () => value });
  const cons: Ctor = { name: ':', keys: ['head', 'tail'], style: 'cons', build: (f) => new Cons(now(f[0]), f[1] as List<unknown>) };
  const shape: S = {
    kind: 'data',
    name: `Pulls<${elem.name}>`,
    alternatives: () => alternatives,
    project(value, path) {
      throw new ShapeMismatchError(showPath(path), 'the pulls of a source being enumerated, which are not taken apart', value);
    },
  };
  // An element is strict: a pull delivers it.
  const alternatives: Alternative[] = [
    { ctor: atom('[]', NIL), shapes: [] },
    { ctor: atom('throw', PULL_THROWS), shapes: [] },
    { ctor: cons, shapes: [elem, lazyOf(shape) as S] },
  ];
  cellsMemo.set(elem, (s = shape));
  return s;
}

/**
 * The series of a synchronous iterable shape (`oneShot`: of iterators) of elements `elem`: a
 * source whose pulls are all filled is a {@link Source}, printed and rerun as a generated one.
 */
export function iterableSeries(elem: S, oneShot: boolean): OwnSeries {
  const ctors = CLOSINGS.map(({ closing }): Ctor => ({
    name: 'iter',
    keys: ['pulls'],
    style: 'data',
    build: (f) => {
      const source = sourceOfCells(f[0] as Lazy<unknown>, closing);
      return oneShot ? source.iterator() : source;
    },
  }));
  return {
    partial(d, where) {
      const spine = cells(elem);
      return CLOSINGS.flatMap(({ levels }, i): Skel[] => (d - levels >= 0 && partial(spine, d - levels, where).length > 0 ? [{ k: 'node', ctor: ctors[i]!, fields: [new Hole(spine, d - levels, where)] }] : []));
    },
    consume: (value, budget, choose) => consumeByChoices(value as Iterable<unknown>, elem, budget, choose),
  };
}

/** The source of the pulls `cells`: a {@link Source} of its plan where every pull is filled, else one that reads them as it is pulled. */
function sourceOfCells(pulls: Lazy<unknown>, closing: Pick<SourcePlan<unknown>, 'hasReturn' | 'returnThrows'>): Source<unknown> {
  const elements: unknown[] = [];
  for (let c = pulls; c.isEvaluated; ) {
    const cell = c.force();
    if (cell instanceof Cons) {
      elements.push(cell.head.force());
      c = cell.tail;
    } else return new Source({ elements, infinite: false, throwAt: cell === PULL_THROWS ? elements.length : undefined, ...closing });
  }
  return new SeriesSource(pulls, closing);
}

/**
 * Consumes one iteration of `iterable` as a context of the exhaustive mode at budget `budget`:
 * the first event is a pull, or (choice 1) `return()`; pull k (k ≥ 1, k ≤ budget) is made on
 * choice 1; once it stops, choice 1 closes the iteration. A source's failure passed on ends it.
 * The elements pulled are walked on, pull k's at `budget - k - 1`.
 */
function consumeByChoices(iterable: Iterable<unknown>, elem: S, budget: number, choose: () => number): [unknown, number, S][] {
  const it = iterable[Symbol.iterator]();
  const parts: [unknown, number, S][] = [];
  if (choose() === 1) return close(it), parts;
  for (let k = 0; k === 0 || (k <= budget && choose() === 1); k++) {
    let r: IteratorResult<unknown>;
    try {
      r = it.next();
    } catch (err) {
      closedThrowing(err);
      return parts;
    }
    if (r.done) return parts;
    if (budget - k - 1 >= 0) parts.push([r.value, budget - k - 1, elem]);
  }
  if (choose() === 1) close(it);
  return parts;
}

/** `return()` on `it` if it has one. */
function close(it: Iterator<unknown>): void {
  try {
    it.return?.();
  } catch (err) {
    closedThrowing(err);
  }
}
