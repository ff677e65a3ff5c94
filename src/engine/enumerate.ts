/**
 * Exhaustive enumeration of test cases up to a depth: inputs from the series of their shapes
 * (see `series.ts`) and every evaluation context up to the depth, with Lazy SmallCheck's
 * demand-driven pruning.
 *
 * A case is a pair (inputs, context). With pruning, inputs start as partial values whose lazy
 * positions are holes; a run that forces a hole (in the function, its context, the spec or the
 * comparison) stops with {@link Refine}, and the case is replaced by one case per filling of
 * that hole. A run that finishes without forcing a hole decides every filling at once.
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
import { dynamic, type Shape } from '../demand/shape.ts';
import type { Context } from '../demand/observe.ts';
import { expand, fillings, firstHole, fillSmallest, Hole, materialize, partial, Refine, replaceHole, type Skel } from './series.ts';

type S = Shape<unknown>;

/**
 * The context of a choice sequence: forces the root, then, walking the result depth first
 * (fields in order), forces each lazy position within the budget whose choice is 1. Choices
 * beyond `prefix` are 0 (leave); every choice made is appended to `trace`.
 */
export function choiceContext(depth: number, prefix: readonly number[], trace: number[]): Context {
  return (value) => {
    const stack: [unknown, number][] = [[value, depth]];
    let root = true;
    while (stack.length > 0) {
      const [v0, budget] = stack.pop()!;
      let v = v0;
      if (v instanceof Lazy) {
        if (!root) {
          const c = trace.length < prefix.length ? prefix[trace.length]! : 0;
          trace.push(c);
          if (c === 0) continue;
        }
        while (v instanceof Lazy) v = v.force();
      }
      root = false;
      const layer = dynamic.project(v, null);
      const style = layer.ctor.style;
      const fb = style === 'tuple' || style === 'record' ? budget : budget - 1;
      if (fb < 0) {
        // No lazy field may be forced; strict fields are evaluated already and hold no choice
        // within budget either.
        continue;
      }
      for (let i = layer.fields.length - 1; i >= 0; i--) stack.push([layer.fields[i], fb]);
    }
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
  readonly outcome: T;
  /** The partial inputs, as run (unforced holes throw {@link Refine} when forced). */
  readonly skeleton: readonly Skel[];
  /** Total inputs standing for the partial ones: every hole filled with its smallest filling. */
  total(): unknown[];
}

/** Options of {@link enumerateCases}. */
export interface EnumerateOptions {
  /** Demand-driven pruning (Lazy SmallCheck). Default true; false enumerates every total input. */
  readonly prune?: boolean;
  /** Names of the arguments, for errors. */
  readonly names?: readonly string[];
  /** Counters, updated as the enumeration goes. */
  readonly stats?: EnumerationStats;
}

/**
 * Every case of depth at most `depth` for arguments of these shapes, depth first, as a lazy
 * sequence: `run(inputs, context)` runs one case and returns its outcome, or throws
 * {@link Refine} when it forced a hole (any other error propagates). Stop consuming the sequence
 * to stop the enumeration.
 */
export function* enumerateCases<T>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  args: readonly Shape<any>[],
  depth: number,
  run: (inputs: unknown[], context: Context) => T,
  options: EnumerateOptions = {},
): Generator<EnumeratedCase<T>, EnumerationStats> {
  const prune = options.prune ?? true;
  const stats = options.stats ?? { cases: 0, runs: 0, refinements: 0 };
  const names = args.map((_, i) => options.names?.[i] ?? `argument ${i + 1}`);
  // The top level of every argument, eagerly (a lazy argument is one hole).
  const tops = args.map((s, i) => partial(s, depth, names[i]!));
  type Node = { inputs: readonly Skel[]; prefix: readonly number[] };
  const stack: Node[] = [];
  const combos = productOf(tops);
  for (let i = combos.length - 1; i >= 0; i--) stack.push({ inputs: combos[i]!, prefix: [] });
  const refine = (node: Node, hole: Hole) => {
    stats.refinements++;
    const fs = fillings(hole);
    for (let i = fs.length - 1; i >= 0; i--) stack.push({ inputs: node.inputs.map((s) => replaceHole(s, hole, fs[i]!)), prefix: node.prefix });
  };
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!prune) {
      const h = node.inputs.map(firstHole).find((x) => x !== undefined);
      if (h) {
        refine(node, h);
        continue;
      }
    }
    const trace: number[] = [];
    let outcome: T;
    stats.runs++;
    try {
      outcome = run(node.inputs.map(materialize), choiceContext(depth, node.prefix, trace));
    } catch (err) {
      if (err instanceof Refine) {
        refine(node, err.hole);
        continue;
      }
      throw err;
    }
    stats.cases++;
    // The other branch of every choice made beyond the prefix; the last one is explored first.
    for (let i = node.prefix.length; i < trace.length; i++) {
      if (trace[i] === 0) stack.push({ inputs: node.inputs, prefix: [...trace.slice(0, i), 1] });
    }
    const inputs = node.inputs;
    yield { outcome, skeleton: inputs, total: () => inputs.map((s) => materialize(fillSmallest(s))) };
  }
  return stats;
}

function productOf(lists: readonly (readonly Skel[])[]): Skel[][] {
  let out: Skel[][] = [[]];
  for (const l of lists) out = out.flatMap((prefix) => l.map((x) => [...prefix, x]));
  return out;
}

/** The number of total inputs of depth at most `depth` for arguments of these shapes (functions count as listed). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function countInputs(args: readonly Shape<any>[], depth: number): number {
  return args.reduce((n, s, i) => n * partial(s, depth, `argument ${i + 1}`).flatMap(expand).length, 1);
}
