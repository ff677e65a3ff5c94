/**
 * What a check found: its result and counterexample, the failure thrown for it, and how a
 * result prints.
 * @module
 */
import { inspect, type InspectOptions } from 'node:util';
import type { Demand } from '../demand/demand.ts';
import type { Coverage } from './coverage.ts';
import { safeInstanceof } from '../lazy/thrown.ts';

/** A failing case, shrunk. */
export interface Counterexample {
  /** The inputs of the failing trial. */
  readonly inputs: readonly unknown[];
  /** The demand the context put on the function's result (`_` when unknown: a case stopped in a worker, whose error is a `TrialTimeoutError` or `WorkerCrashError`). */
  readonly resultDemand: Demand;
  /** The demand the function put on each input (observed; `_` when unknown, as for {@link resultDemand}). */
  readonly actual: readonly Demand[];
  /** The demand the spec predicted on each input. */
  readonly predicted: readonly Demand[];
  /** Present when the function (or its context) threw: what was thrown. */
  readonly error?: {
    /** The thrown value, whatever it is (wrapped so that a thrown `undefined` still shows). */
    readonly thrown: unknown;
    /** What the shapes say of a `force` called on what is not a Lazy, if they say something: the report prints it below the error. */
    readonly hint?: string;
    /**
     * Present where the `forceBudget` given ran out (a `ForceBudgetExceeded`) while the context
     * forced the function's result, after the function returned: the report then blames the budget,
     * not the function.
     */
    readonly forcingResult?: true;
  };
}

/** What a check found. */
export interface CheckResult {
  /** Whether every trial agreed with the spec. */
  readonly passed: boolean;
  /** How many trials ran (up to the failing one). */
  readonly trials: number;
  /** The seed of the run: pass it as `seed` to run the same trials again. */
  readonly seed: number;
  /** How many smaller counterexamples shrinking found after the first. */
  readonly shrinks: number;
  /** The smallest counterexample found, for a failure (none for a failure seen only in a worker, which passes in this thread: its message shows the worker's diagram). */
  readonly counterexample?: Counterexample;
  /** A report: a line of summary, and for a failure the diagram and how to reproduce it. */
  readonly message: string;
  /** How far the trials forced the result and each argument (a run in this thread; the failing trial is not counted). */
  readonly coverage?: Coverage;
}

/**
 * A check's failure, thrown by the asserting checks: its message is the report (the diagram and
 * how to reproduce it), and its {@link result} is for programs.
 */
export abstract class CheckFailure<
  R extends {
    /** The report, which is the failure's message. */
    readonly message: string;
  },
> extends Error {
  readonly #result: R;
  constructor(result: R) {
    super(result.message);
    this.#result = result;
  }
  /**
   * The failed check's result, with its counterexample. Not a property of the failure's own: a
   * test runner copies those (jest deeply, vitest to send them between processes), and a demand
   * as deep as the force budget overflowed its stack, losing the diagram; nor does an uncaught
   * failure print it, where Node would print its fields (a hundred lines for a diagram of fifteen).
   */
  get result(): R {
    return this.#result;
  }
  /** The failure as a runner sends it between processes: its name and message (the diagram), not its {@link result} (see there). */
  toJSON(): FailureJson {
    return { name: this.name, message: this.message };
  }
}

/** A check failure as JSON: its name and its message, the diagram. */
export interface FailureJson {
  /** The failure's class: `'StrictCheckFailure'` or `'ExhaustiveCheckFailure'`. */
  readonly name: string;
  /** The report: a line of summary, the diagram, and how to reproduce it. */
  readonly message: string;
}

/** Thrown by `assertSpec` and `strictCheckSpecExact` when the spec and the function disagree; its message holds the diagram. */
export class StrictCheckFailure extends CheckFailure<CheckResult> {
  /** Always `'StrictCheckFailure'`: the name a test runner prints before its report. */
  override name = 'StrictCheckFailure';
}

/**
 * @internal Makes a result (a check's, an inference's) print as its message: through `String` and
 * template literals, and through `console.log` as its fields (as `shownFields` gives them, if
 * given), then the message drawn on lines of its own (as one string, the diagram's lines showed
 * as `'…\n' +` pieces).
 */
export function printable<R extends { readonly message: string }>(result: R, shownFields?: (result: R) => object): R {
  Object.defineProperty(result, 'toString', {
    value(this: R) {
      return this.message;
    },
  });
  return Object.defineProperty(result, inspect.custom, {
    value(this: R, _depth: number, options: InspectOptions) {
      // The coverage figures are in the message's line: shown again, they would spread over ten lines.
      const { message, coverage: _, ...fields } = (shownFields ? { message: this.message, ...shownFields(this) } : this) as R & { coverage?: unknown };
      let shown: string;
      try {
        shown = inspect(fields, options);
      } catch {
        // What was thrown cannot be inspected (a getter of its message throws): the message names it safely.
        const { counterexample: _, ...rest } = fields as { counterexample?: unknown };
        shown = inspect({ ...rest, counterexample: '(in the message below)' }, options);
      }
      return `${shown}\n${message}`;
    },
  });
}

safeInstanceof(CheckFailure, StrictCheckFailure);
