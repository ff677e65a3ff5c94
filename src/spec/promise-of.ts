/**
 * The promise of a call, for the functions that return one: a call that throws rejects it, as a
 * bad option or argument rejects the promise of an asynchronous check, where it would throw
 * before the caller holds a promise to await.
 * @module
 */

/** @internal A promise of what `call` returns, now: rejected with what it throws. */
export function promiseOf<T>(call: () => T | PromiseLike<T>): Promise<T> {
  return new Promise<T>((resolve) => resolve(call()));
}
