/**
 * The failures of an observation's inputs: errors that a generated source raised from a pull or
 * from its `return` (the input holds ⊥ there). A function that passes one on, or a context that
 * meets one while it forces the result, is ⊥ at that point, as the input is: the result's demand
 * records `⊥` there, and the function is not said to have thrown. Known by identity, per
 * observation, so that an error the function made itself (a `SourceError` too) or got from
 * elsewhere stays its own throw. The sources' protocols (`src/iter`) add the failures; the
 * walks that force a result ask {@link isInputFailure} while an observation runs.
 * @module
 */

/** The failures the inputs of one observation raised. */
export class InputFailures {
  private errors: Set<unknown> | undefined;

  /** `err` was raised by an input. */
  add(err: unknown): void {
    (this.errors ??= new Set()).add(err);
  }

  /** Whether `err` is one an input raised. */
  has(err: unknown): boolean {
    return this.errors !== undefined && this.errors.has(err);
  }
}

let current: InputFailures | undefined;

/** Runs `body` with `failures` as those of the observation running now. */
export function withInputFailures<R, T = undefined>(failures: InputFailures | undefined, body: (this: T) => R, self?: T): R {
  const saved = current;
  current = failures;
  try {
    return body.call(self as T);
  } finally {
    current = saved;
  }
}

/** Whether `err` is a failure raised by an input of the observation running now (synchronously). */
export function isInputFailure(err: unknown): boolean {
  return current !== undefined && current.has(err);
}
