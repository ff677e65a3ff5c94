/**
 * Exhaustive strictness checking up to a depth (SmallCheck / Lazy SmallCheck): every input of
 * depth at most `d`, every non-strict function argument of the enumerated family, every demand
 * on the result up to `d`, by iterative deepening from depth 0; with demand-driven pruning of
 * the inputs. See `engine/series.ts` for the depth of values and functions, and
 * `engine/enumerate.ts` for contexts and pruning.
 * @module
 */
import { fitContext } from '../engine/context.ts';
import { enumerateCases, type EnumerationStats } from '../engine/enumerate.ts';
import { Refine } from '../engine/series.ts';
import { unicodeTerminal } from './diagram.ts';
import { comparisons, runCase, report, type AnySpec, type CheckOptions, type Counterexample, type Fn, type Trial } from './check.ts';
import { SpecError, type Spec } from './spec.ts';

/** Options of {@link strictCheckExhaustive}. */
export interface ExhaustiveOptions extends Pick<CheckOptions, 'compare' | 'forceBudget' | 'unicode'> {
  /** The largest depth checked; depths 0, 1, …, `depth` are checked in turn. */
  readonly depth: number;
  /** Lazy SmallCheck's demand-driven pruning of the inputs. Default true (the verdict is the same, in far fewer cases). */
  readonly prune?: boolean;
  /** Show `depth d, N cases` on standard error while a run takes more than a second. Default: when it is a terminal and not CI. */
  readonly progress?: boolean;
}

/** What an exhaustive check found. */
export interface ExhaustiveResult {
  readonly passed: boolean;
  /** The deepest depth checked: `options.depth` when passed, the depth of the counterexample otherwise. */
  readonly depth: number;
  /** Cases run at that depth (each finished run is a case; with pruning one case stands for every filling of the parts of the inputs it left unforced). */
  readonly cases: number;
  /** Cases run over all depths. */
  readonly totalCases: number;
  /** Runs over all depths, including those that stopped on an unfilled part of an input and refined it. */
  readonly runs: number;
  /** The first counterexample found (at the smallest failing depth), parts never forced filled with their smallest value. */
  readonly counterexample?: Counterexample;
  /** A report: a summary line, and for a failure the diagram. */
  readonly message: string;
}

/** Thrown by {@link strictCheckExhaustive} on a counterexample; its message holds the diagram. */
export class ExhaustiveCheckFailure extends Error {
  override name = 'ExhaustiveCheckFailure';
  constructor(readonly result: ExhaustiveResult) {
    super(result.message);
  }
}

/** Runs one case; a forced hole (in the function, the context, the spec or the comparison) becomes {@link Refine}. */
function runOrRefine(spec: AnySpec, fn: Fn, inputs: readonly unknown[], context: (v: unknown) => void, budget: number, compare: ReturnType<typeof comparisons>): Trial {
  let t: Trial;
  try {
    t = runCase(spec, fn, inputs, context, budget, compare);
  } catch (err) {
    for (let e: unknown = err; e instanceof SpecError || e instanceof Refine; e = (e as Error).cause) if (e instanceof Refine) throw e;
    throw err;
  }
  if (t.error?.thrown instanceof Refine) throw t.error.thrown;
  return t;
}

function progressLine(enabled: boolean | undefined): { update(text: string): void; done(): void } {
  const on = enabled ?? (process.stderr.isTTY === true && !process.env.CI);
  const start = Date.now();
  let shown = false;
  let last = 0;
  return {
    update(text) {
      if (!on) return;
      const now = Date.now();
      if (now - start < 1000 || now - last < 100) return;
      last = now;
      shown = true;
      process.stderr.write(`\r${text}\x1b[K`);
    },
    done() {
      if (shown) process.stderr.write('\r\x1b[K');
    },
  };
}

/**
 * Checks a spec against a function on every case up to `options.depth`, smallest depth first,
 * without throwing for a failure (a spec error, a shape mismatch, or a shape that cannot be
 * enumerated still throw). The first counterexample is reported with the same diagram as random
 * checking; no shrinking is needed, since the smallest depth fails first.
 *
 * @example
 * ```ts
 * strictCheckExhaustiveResult(takeSpec, take, { depth: 5 }).message; // '+++ OK, passed all 1234 cases up to depth 5 …'
 * ```
 */
export function strictCheckExhaustiveResult<const A extends readonly unknown[], R>(s: Spec<A, R>, fn: (...args: A) => R, options: ExhaustiveOptions): ExhaustiveResult {
  const spec = s as unknown as AnySpec;
  const arity = spec.args.length;
  if (fn.length !== 0 && fn.length !== arity) {
    throw new SpecError(`the spec is for functions of ${arity} argument${arity === 1 ? '' : 's'}, but the function takes ${fn.length}`);
  }
  const maxDepth = options.depth;
  if (!Number.isInteger(maxDepth) || maxDepth < 0) throw new RangeError(`depth must be a non-negative integer, got ${maxDepth}`);
  const budget = options.forceBudget ?? 1_000_000;
  const compare = comparisons(options, arity);
  const unicode = options.unicode ?? unicodeTerminal();
  const progress = progressLine(options.progress);
  let totalCases = 0;
  let runs = 0;
  try {
    for (let depth = 0; depth <= maxDepth; depth++) {
      const stats: EnumerationStats = { cases: 0, runs: 0, refinements: 0 };
      const run = (inputs: unknown[], context: (v: unknown) => void) => runOrRefine(spec, fn as Fn, inputs, context, budget, compare);
      try {
        for (const c of enumerateCases(spec.args, depth, run, { prune: options.prune ?? true, names: spec.names, stats })) {
          if ((stats.cases & 255) === 0) progress.update(`depth ${depth}, ${stats.cases} cases`);
          if (!c.outcome.failed) continue;
          totalCases += stats.cases;
          runs += stats.runs;
          // Holes never forced do not matter: show the smallest total inputs, run again for the report.
          const again = runCase(spec, fn as Fn, c.total(), fitContext(c.outcome.resultDemand), budget, compare);
          const shown = again.failed ? again : c.outcome;
          const what = shown.error ? 'the function threw' : 'the spec does not match the function';
          const header = `Failed: ${what} (exhaustive, depth ${depth}, after ${totalCases} case${totalCases === 1 ? '' : 's'})`;
          const counterexample: Counterexample = {
            inputs: shown.inputs,
            resultDemand: shown.resultDemand,
            actual: shown.actual,
            predicted: shown.predicted,
            ...(shown.error ? { error: shown.error } : {}),
          };
          return { passed: false, depth, cases: stats.cases, totalCases, runs, counterexample, message: report(spec, shown, header, unicode) };
        }
      } catch (err) {
        if (err instanceof SpecError) err.message = `${err.message} (exhaustive, depth ${depth})`;
        throw err;
      }
      totalCases += stats.cases;
      runs += stats.runs;
      if (depth === maxDepth) {
        const message = `+++ OK, passed all ${stats.cases} case${stats.cases === 1 ? '' : 's'} up to depth ${depth} (${totalCases} cases and ${runs} runs over depths 0 to ${depth}).`;
        return { passed: true, depth, cases: stats.cases, totalCases, runs, message };
      }
    }
  } finally {
    progress.done();
  }
  throw new Error('unreachable');
}

/**
 * Checks that `fn` has exactly the strictness `spec` predicts (or as `compare` says) on every
 * case up to `options.depth`: every input of that depth (see `series`), every enumerated
 * non-strict function argument, every demand on the result of that depth, by iterative deepening
 * from depth 0, with Lazy SmallCheck's pruning. The sibling of `strictCheckSpecExact`: returns the
 * result (cases, depth) on success and throws {@link ExhaustiveCheckFailure}, whose message holds
 * the diagram of the first, smallest counterexample, on failure. Use
 * {@link strictCheckExhaustiveResult} not to throw.
 *
 * @example
 * ```ts
 * test('take, exhaustively', () => strictCheckExhaustive(takeSpec, take, { depth: 6 }));
 * ```
 */
export function strictCheckExhaustive<const A extends readonly unknown[], R>(s: Spec<A, R>, fn: (...args: A) => R, options: ExhaustiveOptions): ExhaustiveResult {
  const result = strictCheckExhaustiveResult(s, fn, options);
  if (!result.passed) throw new ExhaustiveCheckFailure(result);
  return result;
}
