/**
 * Iterables in the exhaustive mode. A source is enumerated as a lazy list of its pulls: depth k
 * for k pulls answering elements of depth below k, then done or throwing (depth 0 each); one
 * without `return`, or whose `return` throws, is a level deeper. Its pulls are holes that the
 * enumeration refines only when the function pulls them (Lazy SmallCheck's pruning, as a list's
 * cells). A context consumes an iterable result pull by pull within its budget (pull k costs k
 * levels, as a list's cell k), choosing at each pull whether to go on, then whether to leave the
 * iteration open or close it with `return()`; before the first pull it may close it at once.
 *
 * An async source is enumerated as a sync one (a throwing pull rejects), and where its pulls have
 * a depth of at least 1 also with the pulls pending at once settling swapped: as an
 * {@link AsyncSource} with delays [1, 0, 1, …] (each even pull a turn late, so that the odd pull
 * made while it is pending settles first). That order is a hole too, refined only when a pull is made
 * while the one before it is pending: a function that never reads ahead never sees it. Orders
 * across sources, or against timers, are left to the random mode. A context consumes an async
 * result as a sync one, choosing also, once, to keep two pulls pending at once (each pair costing
 * two levels), and at the end to throw into it rather than leave it open.
 * @module
 */
import { now, type Lazy } from '../lazy/lazy.ts';
import { Cons, NIL, type List } from '../lazy/cell.ts';
import { lazyOf } from '../demand/lazy-positions.ts';
import { showPath, type Path } from '../demand/path.ts';
import { ShapeMismatchError } from '../demand/shape-errors.ts';
import type { Alternative, Ctor, Shape } from '../demand/shape-types.ts';
import { Hole, partial, withSeries, type OwnSeries, type Skel } from '../engine/series.ts';
import { boolean } from '../demand/primitives.ts';
import { currentAsyncWork, withAsyncWork } from '../demand/async-work.ts';
import { AsyncSource, CellReader, later, SeriesSource, seriesCells, Source, PULL_THROWS, THROWS, type AsyncAnswers, type SourcePlan } from './source.ts';
import { closedThrowing, returnFrom, returnFromAsync, throwIntoAsync } from './observe.ts';

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

/** Whether an async source's pulls pending at once settle swapped (true): from depth 1, where the false of depth 0 is all. */
const SWAPPED = withSeries(boolean, (d) => (d >= 1 ? [false, true] : [false])) as S;

/**
 * The series of an iterable shape (`oneShot`: of iterators, `async`: async ones) of elements
 * `elem`: a source whose pulls (and settling order) are all filled is a {@link Source} (an
 * {@link AsyncSource}), printed and rerun as a generated one.
 */
export function iterableSeries(elem: S, oneShot: boolean, async: boolean): OwnSeries {
  const ctors = CLOSINGS.map(({ closing }): Ctor => ({
    name: async ? 'asyncIter' : 'iter',
    keys: async ? ['pulls', 'swapped'] : ['pulls'],
    style: 'data',
    build: (f) => {
      const source = async ? asyncSourceOfCells(f[0] as Lazy<unknown>, f[1] as Lazy<boolean>, closing) : sourceOfCells(f[0] as Lazy<unknown>, closing);
      return oneShot ? source.iterator() : source;
    },
  }));
  return {
    partial(d, where) {
      const spine = cells(elem);
      return CLOSINGS.flatMap(({ levels }, i): Skel[] => {
        const b = d - levels;
        if (b < 0 || partial(spine, b, where).length === 0) return [];
        const fields = async ? [new Hole(spine, b, where), new Hole(SWAPPED, b, where)] : [new Hole(spine, b, where)];
        return [{ k: 'node', ctor: ctors[i]!, fields }];
      });
    },
    consume: async
      ? (value, budget, choose, later) => consumeAsyncByChoices(value as AsyncIterable<unknown>, elem, budget, choose, later)
      : (value, budget, choose) => consumeByChoices(value as Iterable<unknown>, elem, budget, choose),
  };
}

/** The plan of the pulls `cells` with `closing`, if every pull is filled. */
function planOfCells(pulls: Lazy<unknown>, closing: Pick<SourcePlan<unknown>, 'hasReturn' | 'returnThrows'>): SourcePlan<unknown> | undefined {
  const elements: unknown[] = [];
  for (const read = new CellReader(pulls); read.filled; ) {
    const answer = read.next();
    if (typeof answer === 'number') return { elements, infinite: false, throwAt: answer === THROWS ? elements.length : undefined, ...closing };
    elements.push(answer.value);
  }
  return undefined;
}

/** The source of the pulls `cells`: a {@link Source} of its plan where every pull is filled, else one that reads them as it is pulled. */
function sourceOfCells(pulls: Lazy<unknown>, closing: Pick<SourcePlan<unknown>, 'hasReturn' | 'returnThrows'>): Source<unknown> {
  const plan = planOfCells(pulls, closing);
  return plan ? new Source(plan) : new SeriesSource(pulls, closing);
}

/** The turns pull k of a source whose pulls pending at once settle swapped waits: a turn for an even pull. */
const swapTurns = (k: number): number => (k % 2 === 0 ? 1 : 0);

/** The async source of the pulls `cells`: an {@link AsyncSource} of its plan where every pull and the order are filled, else one that reads them as it is pulled. */
function asyncSourceOfCells(pulls: Lazy<unknown>, swapped: Lazy<boolean>, closing: Pick<SourcePlan<unknown>, 'hasReturn' | 'returnThrows'>): AsyncSource<unknown> {
  const plan = swapped.isEvaluated ? planOfCells(pulls, closing) : undefined;
  if (plan === undefined) return new SeriesAsyncSource(pulls, swapped, closing);
  // Its delays cover its pulls up to the one that ends it.
  return new AsyncSource({ ...plan, delays: swapped.force() ? Array.from({ length: plan.elements.length + 1 }, (_, k) => swapTurns(k)) : [] });
}

/**
 * An async source of the exhaustive mode whose pulls are read off a lazy list of cells, and whose
 * settling order is read only when a pull is made while the one before it is pending (see the
 * module's comment); a case that finishes stands for an {@link AsyncSource} with all filled.
 */
class SeriesAsyncSource extends AsyncSource<unknown> {
  constructor(
    private readonly cells: Lazy<unknown>,
    private readonly swapped: Lazy<boolean>,
    closing: Pick<SourcePlan<unknown>, 'hasReturn' | 'returnThrows'>,
  ) {
    super({ elements: [], infinite: false, ...closing, delays: [] });
    seriesCells.set(this, cells);
  }

  protected override answers(): AsyncAnswers<unknown> {
    const { swapped } = this;
    const read = new CellReader(this.cells);
    // The even pull waiting to settle while the order is unknown (-1: none).
    let waiting = -1;
    return {
      at(k) {
        if (k % 2 === 1 && waiting === k - 1) swapped.force();
        return read.next();
      },
      deliver(k, answer) {
        if (swapped.isEvaluated) return later(swapped.force() ? swapTurns(k) : 0, answer);
        if (k % 2 === 1) return later(0, answer);
        // Settles a microtask later, so that a pull made at once after it finds it pending.
        waiting = k;
        return Promise.resolve().then(() => {
          if (waiting === k) waiting = -1;
          return answer();
        });
      },
    };
  }
}

/** Where a refusal of what the exhaustive mode's contexts consume says it is: in the result (they keep no paths, so an iterable nested in it is named as the result). */
const IN_RESULT: Path = 'result';

/**
 * Consumes one iteration of `iterable` as a context of the exhaustive mode at budget `budget`:
 * the first event is a pull, or (choice 1) `return()`; pull k (k ≥ 1, k ≤ budget) is made on
 * choice 1; once it stops, choice 1 closes the iteration. A source's failure passed on ends it.
 * The elements pulled are walked on, pull k's at `budget - k - 1`.
 */
function consumeByChoices(iterable: Iterable<unknown>, elem: S, budget: number, choose: () => number): [unknown, number, S][] {
  const it = iterable[Symbol.iterator]();
  const parts: [unknown, number, S][] = [];
  if (choose() === 1) return returnFrom(it, IN_RESULT, 0), parts;
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
  if (choose() === 1) returnFrom(it, IN_RESULT, 0);
  return parts;
}

/**
 * Consumes one iteration of async iterable `iterable` as a context of the exhaustive mode at
 * budget `budget`, in the work of the observation running (which awaits it): the first event is
 * a pull, or (choice 1) `return()`; then (choice 1, with a budget of 1 or more) its pulls are made
 * two at a time, pending at once; each pull (or pair) after the first is made on choice 1, up to
 * pull `budget`; once it stops, choice 1 closes the iteration with `return()`, else choice 1
 * throws into it with `throw()`. A source's failure passed on ends it. Each element pulled is
 * given to `walk` when it comes, pull k's at `budget - k - 1`.
 */
function consumeAsyncByChoices(iterable: AsyncIterable<unknown>, elem: S, budget: number, choose: () => number, walk: (part: [unknown, number, S]) => void): [] {
  const work = currentAsyncWork()!;
  const it = iterable[Symbol.asyncIterator]();
  const end = (how: 'return' | 'throw'): Promise<void> => (how === 'throw' ? throwIntoAsync(it, work) : returnFromAsync(it, work, IN_RESULT, 0));
  if (choose() === 1) {
    work.add(end('return'));
    return [];
  }
  const ahead = budget >= 1 && choose() === 1 ? 2 : 1;
  const pulls = async (): Promise<void> => {
    for (let k = 0; k === 0 || (k <= budget && choose() === 1); ) {
      const answers = await Promise.allSettled(Array.from({ length: ahead }, () => it.next()));
      for (const answer of answers) {
        if (answer.status === 'rejected') return withAsyncWork(work, () => closedThrowing(answer.reason));
        if (answer.value.done) return;
        if (budget - k - 1 >= 0) withAsyncWork(work, () => walk([answer.value.value, budget - k - 1, elem]));
        k++;
      }
    }
    if (choose() === 1) await end('return');
    else if (choose() === 1) await end('throw');
  };
  work.add(pulls());
  return [];
}
