/**
 * Exhaustive enumeration of test cases up to a depth: inputs from the series of their shapes
 * (see `series.ts`) and every evaluation context up to the depth, with Lazy SmallCheck's
 * demand-driven pruning.
 *
 * A case is a pair (inputs, context). With pruning, inputs start as partial values whose lazy
 * positions are holes; a run that forces a hole (in the function, its context, the spec or the
 * comparison) stops with `Refine`, and the case is replaced by one case per filling of
 * that hole, even if the run caught the `Refine` and went on (the hole notes that it was forced).
 * A run that finishes without forcing a hole decides every filling at once.
 *
 * Contexts are enumerated the same way, as a decision tree explored depth first: the context
 * forces the outermost layer of the result, then walks it; at every lazy position within the
 * depth budget it makes a choice, force or leave, taken from the case's prefix of choices
 * (default: leave). A finished run pushes, for every choice it made beyond the prefix, the
 * case that forces there instead. So each context (each demand on the result) is run once per
 * input, and the contexts depend on the result the inputs give.
 *
 * Depth budget of a context: the root layer is always forced; a lazy field of a layer at budget
 * `b` may be forced when its own budget (`b − 1`, or `b` inside a tuple or record) is at least 0.
 * @module
 */
import { Lazy } from '../lazy/lazy.ts';
import { dynamic } from '../demand/dynamic.ts';
import type { Shape } from '../demand/shape-types.ts';
import { argumentName, type Context } from '../demand/observe.ts';
import { checkKnownOptions } from '../demand/options.ts';
import type { CaseSteps } from './steps.ts';
import { expand, fillings, firstHole, fillSmallest, Hole, materialize, ownSeries, partial, product, Refine, replaceHole, type Skel } from './series.ts';

/**
 * The context of a choice sequence: forces the root, then, walking the result depth first
 * (fields in order), forces each lazy position within the budget whose choice is 1. Choices
 * beyond `prefix` are 0 (leave); `trace` holds the choices of the last call. Each call starts
 * afresh, so that running the context again (to report a case that threw) makes the same choices.
 */
export function choiceContext(depth: number, prefix: readonly number[], trace: number[], shape: Shape<unknown> = dynamic): Context {
  return (value) => {
    trace.length = 0;
    const choose = () => {
      const c = trace.length < prefix.length ? prefix[trace.length]! : 0;
      trace.push(c);
      return c;
    };
    // Walks parts depth first; an async iterable's elements, which come later, are walked as they come.
    const walk = (parts: [unknown, number, Shape<unknown>][], root = false) => {
      const stack = parts.reverse();
      while (stack.length > 0) {
        let [v, budget, s] = stack.pop()!;
        // A value consumed through a protocol (an iterable) makes its own choices as it goes.
        const own = v instanceof Lazy ? undefined : ownSeries(s);
        if (own !== undefined) {
          root = false;
          stack.push(...own.consume(v, budget, choose, (later) => walk([later])).reverse());
          continue;
        }
        if (v instanceof Lazy) {
          if (!root && choose() === 0) continue;
          while (v instanceof Lazy) {
            if (s.kind === 'lazy') s = s.inner();
            v = v.force();
          }
        }
        root = false;
        const layer = s.project(v, null);
        const style = layer.ctor.style;
        const fb = style === 'tuple' || style === 'record' ? budget : budget - 1;
        if (fb < 0) {
          // No lazy field may be forced; strict fields are evaluated already and hold no choice
          // within budget either.
          continue;
        }
        for (let i = layer.fields.length - 1; i >= 0; i--) stack.push([layer.fields[i], fb, layer.shapes[i]!]);
      }
    };
    walk([[value, depth, shape]], true);
  };
}

/** Counters of an enumeration. */
export interface EnumerationStats {
  /** Finished runs: each is one case, standing for every filling of the holes it left. */
  cases: number;
  /** All runs, including those that stopped on a hole and were refined. */
  runs: number;
  /** Holes refined. */
  refinements: number;
}

/** A finished case: the run's outcome, the inputs it ran on (partial), and their total stand-ins. */
export interface EnumeratedCase<T> {
  /** What `run` returned for the case. */
  readonly outcome: T;
  /** @internal The partial inputs, as run (unforced holes throw {@link Refine} when forced). */
  readonly skeleton: readonly Skel[];
  /** Total inputs standing for the partial ones: every hole filled with its smallest filling. */
  total(): unknown[];
  /** Where the case is in the enumeration tree: the choices that lead to it, the same in every run. */
  path(): number[];
}

/** Options of {@link enumerateCases}. */
export interface EnumerateOptions {
  /** Demand-driven pruning (Lazy SmallCheck). Default true; false enumerates every total input. */
  readonly prune?: boolean | undefined;
  /** Names of the arguments, for errors. */
  readonly names?: readonly string[] | undefined;
  /** The shape of the result, which the context walks (default: read from the result at run time, which an opaque value needs). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly result?: Shape<any> | undefined;
  /** Counters, updated as the enumeration goes. */
  readonly stats?: EnumerationStats | undefined;
}

/**
 * A node of the enumeration tree of one depth: partial inputs and a prefix of context choices.
 * Its path (see {@link pathOf}) names it independently of the run that made it.
 */
export interface CaseNode {
  readonly inputs: readonly Skel[];
  readonly prefix: readonly number[];
  /** The node whose run made this one (none for a root), and its place among that node's children (or among the roots). */
  readonly parent: CaseNode | undefined;
  readonly index: number;
}

/** Preorder of the enumeration tree: a node's path comes before its descendants' and its later siblings'. */
export function comparePaths(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** The path of a node: the index of its root, then the index of each child taken from there. */
export function pathOf(node: CaseNode): number[] {
  const path: number[] = [];
  for (let n: CaseNode | undefined = node; n; n = n.parent) path.push(n.index);
  return path.reverse();
}

/** Total inputs standing for a node's partial ones: every hole filled with its smallest filling. */
export function totalInputs(node: CaseNode): unknown[] {
  return node.inputs.map((s) => materialize(fillSmallest(s)));
}

/** What a walk of the tree does with the cases it meets (see {@link CaseTree.cases}). */
export interface Visit<T> {
  /** Told of each case, in order; `true` ends the walk there. */
  readonly found?: ((c: EnumeratedCase<T>) => boolean) | undefined;
  /** Asked before each run (with how many subtrees wait after it): `true` ends the walk there, returning the subtrees not enumerated. */
  readonly stop?: ((waiting: number) => boolean) | undefined;
}

/**
 * The enumeration tree of the cases of one depth. Running a node either stops on a hole (its
 * children: one node per filling of that hole) or finishes (a case; its children: the other
 * branch of every context choice it made beyond its prefix, the last choice first). The
 * enumeration is the preorder of this tree, so any subtree can be enumerated on its own, and
 * the cases of the whole tree are those of its subtrees in order. Its walks are steps (see
 * {@link CaseSteps}): whoever drives them runs the cases, synchronously or not.
 */
export class CaseTree<T> {
  private readonly prune: boolean;
  private readonly tops: readonly (readonly Skel[])[];
  private readonly blame: ((err: unknown, inputs: unknown[]) => void) | undefined;
  private readonly result: Shape<unknown>;

  /** `blame` is told of an error a run threw without forcing a hole, and the total inputs of its case, before the error propagates (to name the case in it). */
  constructor(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    args: readonly Shape<any>[],
    readonly depth: number,
    options: Pick<EnumerateOptions, 'prune' | 'names' | 'result'> & { readonly blame?: (err: unknown, inputs: unknown[]) => void } = {},
  ) {
    this.prune = options.prune ?? true;
    this.blame = options.blame;
    this.result = options.result ?? dynamic;
    // The top level of every argument, eagerly (a lazy argument is one hole).
    this.tops = args.map((s, i) => partial(s, depth, argumentName(options.names, i)));
  }

  /** The roots, in order: every combination of the arguments' top levels. */
  roots(): CaseNode[] {
    return product(this.tops).map((inputs, index) => ({ inputs, prefix: [], parent: undefined, index }));
  }

  /** The hole {@link expand} refines without running the node: without pruning, its first; with pruning none (a run finds the holes that matter). */
  private holeToRefine(node: CaseNode): Hole | undefined {
    if (this.prune) return undefined;
    for (const s of node.inputs) {
      const hole = firstHole(s);
      if (hole !== undefined) return hole;
    }
    return undefined;
  }

  /**
   * Runs a node (counted in `stats`): the case, if it finished, and its children in enumeration
   * order. A run that forced a hole is refined, whatever it returned or threw; the errors of
   * other runs propagate.
   */
  *expand(node: CaseNode, stats: EnumerationStats): CaseSteps<{ case?: EnumeratedCase<T>; children: CaseNode[] }, T> {
    const hole = this.holeToRefine(node);
    if (hole !== undefined) return { children: refined(node, hole, stats) };
    const trace: number[] = [];
    // Noted by the hole itself: the function (or the spec) may catch its Refine and finish.
    const forced: { hole?: Hole } = {};
    let outcome: T | undefined;
    stats.runs++;
    try {
      outcome = yield { inputs: node.inputs.map((s) => materialize(s, forced)), context: choiceContext(this.depth, node.prefix, trace, this.result), total: () => totalInputs(node) };
    } catch (err) {
      if (forced.hole === undefined) {
        this.blame?.(err, totalInputs(node));
        throw err;
      }
    }
    if (forced.hole !== undefined) return { children: refined(node, forced.hole, stats) };
    stats.cases++;
    // The other branch of every choice made beyond the prefix; the last one is explored first.
    const children: CaseNode[] = [];
    for (let i = trace.length - 1; i >= node.prefix.length; i--) {
      if (trace[i] === 0) children.push({ inputs: node.inputs, prefix: [...trace.slice(0, i), 1], parent: node, index: children.length });
    }
    return { case: new Case(outcome as T, node), children };
  }

  /** The node at `path`, found by running its ancestors again (not counted). */
  *nodeAt(path: readonly number[]): CaseSteps<CaseNode, T> {
    const scratch = { cases: 0, runs: 0, refinements: 0 };
    let node = this.roots()[path[0]!]!;
    for (let i = 1; i < path.length; i++) node = (yield* this.expand(node, scratch)).children[path[i]!]!;
    return node;
  }

  /**
   * Part `i` (0-based) of `n` of the tree, for a shard: the tree is expanded breadth first from
   * its roots until `1024·n` subtrees wait (or after `8192·n` expansions, or when none is left); the part
   * is every n-th of the cases met on the way and every n-th of the subtrees left, each numbered in
   * the order met, from `i`. Every part makes the same expansion (its runs are counted in `stats`,
   * its own cases too), so the n parts partition the cases of the tree. The subtrees are in order.
   * Subtrees of one level differ in size by orders of magnitude: with 256·n of them, take's spec at
   * depth 6 put 1.83 times the mean in one of 4 parts; with 1024·n, 1.20, for 40 ms of expansion.
   */
  *part(i: number, n: number, stats: EnumerationStats): CaseSteps<{ cases: EnumeratedCase<T>[]; subtrees: CaseNode[] }, T> {
    const queue = this.roots(); // waiting from `head` on
    const cases: EnumeratedCase<T>[] = [];
    const scratch = { cases: 0, runs: 0, refinements: 0 };
    let head = 0;
    for (let met = 0; head < queue.length && queue.length - head < 1024 * n && head < 8192 * n; head++) {
      const step = yield* this.expand(queue[head]!, scratch);
      queue.push(...step.children);
      if (step.case && met++ % n === i) cases.push(step.case);
    }
    stats.runs += scratch.runs;
    stats.refinements += scratch.refinements;
    stats.cases += cases.length;
    const subtrees = queue
      .slice(head)
      .filter((_, j) => j % n === i)
      .map((node) => ({ node, path: pathOf(node) }))
      .sort((a, b) => comparePaths(a.path, b.path))
      .map(({ node }) => node);
    return { cases, subtrees };
  }

  /**
   * Enumerates the subtrees at `start`, in order (depth first), counted in `stats`, telling
   * `visit.found` of each case. When `visit.stop` says yes before a run, the enumeration stops
   * there and returns the subtrees it has not enumerated (that node's first), in order;
   * otherwise it returns none.
   */
  *cases(start: readonly CaseNode[], stats: EnumerationStats, visit: Visit<T>): CaseSteps<CaseNode[], T> {
    const stack = start.slice().reverse();
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (visit.stop && this.holeToRefine(node) === undefined && visit.stop(stack.length)) return [node, ...stack.reverse()];
      const step = yield* this.expand(node, stats);
      for (let i = step.children.length - 1; i >= 0; i--) stack.push(step.children[i]!);
      if (step.case && visit.found?.(step.case)) return [];
    }
    return [];
  }
}

/** The children of a node that stopped on `hole`: one per filling. */
function refined(node: CaseNode, hole: Hole, stats: EnumerationStats): CaseNode[] {
  stats.refinements++;
  return fillings(hole).map((f, index) => ({ inputs: node.inputs.map((s) => replaceHole(s, hole, f)), prefix: node.prefix, parent: node, index }));
}

/** @internal */
export class Case<T> implements EnumeratedCase<T> {
  constructor(readonly outcome: T, private readonly node: CaseNode) {}
  get skeleton(): readonly Skel[] {
    return this.node.inputs;
  }
  total(): unknown[] {
    return totalInputs(this.node);
  }
  path(): number[] {
    return pathOf(this.node);
  }
}

/**
 * Every case of depth at most `depth` for arguments of these shapes, depth first, as a lazy
 * sequence: `run(inputs, context)` runs one case and returns its outcome. Forcing a hole throws
 * `Refine`; a run that forced one is refined whether it lets the `Refine` out or not (any
 * other error of a run that forced no hole propagates). Stop consuming the sequence to stop the
 * enumeration.
 *
 * @example
 * ```ts
 * // length never forces an element: elements stay holes, and each list length is one case
 * for (const c of enumerateCases([list(number)], 2, (inputs) => List.length(inputs[0] as List.List<number>))) {
 *   console.log(c.outcome, prettyValue(c.total()[0])); // 0 [], then 1 0 : [], then 2 0 : 0 : []
 * }
 * ```
 */
export function* enumerateCases<T>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  args: readonly Shape<any>[],
  depth: number,
  run: (inputs: unknown[], context: Context) => T,
  options: EnumerateOptions = {},
): Generator<EnumeratedCase<T>, EnumerationStats> {
  checkKnownOptions(options, ['prune', 'names', 'result', 'stats']);
  const stats = options.stats ?? { cases: 0, runs: 0, refinements: 0 };
  const tree = new CaseTree<T>(args, depth, options);
  let found: EnumeratedCase<T> | undefined;
  const steps = tree.cases(tree.roots(), stats, { found: (c) => ((found = c), false) });
  // Each case is given as soon as its run is over: the caller may stop the enumeration there. A
  // step finds at most one case, its run's (a node that yields no run makes none: see expand).
  for (let step = steps.next(); ; ) {
    if (found !== undefined) {
      const c: EnumeratedCase<T> = found;
      found = undefined;
      yield c;
    }
    if (step.done) return stats;
    let outcome: T;
    try {
      outcome = run(step.value.inputs as unknown[], step.value.context);
    } catch (err) {
      step = steps.throw(err);
      continue;
    }
    step = steps.next(outcome);
  }
}

/** The number of total inputs of depth at most `depth` for arguments of these shapes (functions count as listed). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function countInputs(args: readonly Shape<any>[], depth: number): number {
  return args.reduce((n, s, i) => n * partial(s, depth, argumentName(undefined, i)).flatMap(expand).length, 1);
}
