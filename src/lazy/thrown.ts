/**
 * What a thrown value may be: anything, a Proxy too, whose traps `instanceof` runs (a revoked
 * one's all throw). Telling strictcheck's own errors apart from what a function or a spec threw
 * must not throw in its turn, or the check fails with the Proxy's error and loses its report.
 * @module
 */
import { types } from 'node:util';

/**
 * @internal Makes `x instanceof C` safe for any `x`, for each error class `C` (and its
 * subclasses): a Proxy is no instance, as none of strictcheck's errors is one. Only for classes
 * off the hot paths: V8 does not inline an `instanceof` with a `Symbol.hasInstance` of its own.
 */
export function safeInstanceof(...classes: readonly (abstract new (...args: never[]) => object)[]): void {
  for (const c of classes) {
    Object.defineProperty(c, Symbol.hasInstance, {
      value(this: abstract new (...args: never[]) => object, v: unknown): boolean {
        return !types.isProxy(v) && Function.prototype[Symbol.hasInstance].call(this, v);
      },
    });
  }
}

/** @internal Whether `v` is an instance of `C`, a built-in error class (a TypeError, a RangeError): never for a Proxy, whose traps `instanceof` would run. */
export function isInstance(v: unknown, C: abstract new (...args: never[]) => object): boolean {
  return !types.isProxy(v) && v instanceof C;
}
