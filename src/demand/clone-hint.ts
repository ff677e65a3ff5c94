/**
 * A hint for a function that gives an input to `structuredClone` (or `postMessage`): an array, a
 * record, a tuple or a value of a declared type reaches an observed function as a frozen copy
 * behind a Proxy (see `input-copy.ts`), which the structured clone algorithm refuses, where it
 * clones the plain value of a run outside strictcheck. The DataCloneError is then the
 * observation's doing, not the function's: the hint says so, and how to copy instead.
 * @module
 */
import { types } from 'node:util';

/** V8's message where the value it could not clone is a Proxy: of an array, or of any other object. */
const PROXY_NOT_CLONED = /^(?:\[object Array\]|#<Object>) could not be cloned\.$/;

/** @internal A hint for `thrown`, thrown by an observed function, if it is the DataCloneError of a Proxy; else `undefined`. */
export function cloneHint(thrown: unknown): string | undefined {
  if (types.isProxy(thrown) || !(thrown instanceof DOMException) || thrown.name !== 'DataCloneError' || !PROXY_NOT_CLONED.test(thrown.message)) return undefined;
  return (
    'Hint: structuredClone (or postMessage) refused a Proxy: if it is part of an input, the function was given an array, record, tuple or ' +
    'value of a declared type as strictcheck gives it, a frozen copy behind a Proxy that records what is read, which the structured clone ' +
    'algorithm refuses (a plain run clones it). Copy it another way ([...array] or { ...object }, or a copy of your own), or declare the input opaque.'
  );
}
