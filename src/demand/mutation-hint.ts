/**
 * A hint for a function that changes its input. Observation gives a function frozen copies of its
 * inputs (see `instrument.ts`): strictness is observed on immutable data, as Haskell's values are,
 * and a change to a copy would be lost where the copy is made anew (an argument's Lazy copies its
 * layer at each force), so that the result observed would not be the one the function returns.
 * A copy refuses a change with an error of its own (see `input-copy.ts`); a value frozen already
 * (an empty one, given as it is) throws V8's TypeError in strict-mode code, as in a plain run: the
 * hint says why, and what to do.
 * @module
 */
import { types } from 'node:util';

/** V8's messages for a change to a frozen object: an assignment, a new or deleted property, a definition, a prototype set. */
const FROZEN_WRITE = /^(?:Cannot (?:assign to read only property|add property|delete property|redefine property|define property)\b|.* is not extensible$)/;

/** @internal A hint for `thrown`, thrown by an observed function, if it is V8's TypeError for a change to a frozen object; else `undefined`. */
export function mutationHint(thrown: unknown): string | undefined {
  if (types.isProxy(thrown) || !(thrown instanceof TypeError) || !FROZEN_WRITE.test(thrown.message)) return undefined;
  return (
    'Hint: the function changed a frozen object. If it is part of an input, the function changed its input, which strictcheck refuses: ' +
    'strictness is observed on immutable data (a Haskell value never changes), so a function is given frozen copies of its inputs, ' +
    'and a change would not be seen where the input is read again. Build new values instead of changing the input: ' +
    'copy what changes (new Cons(now(x), cell.tail) for a list cell, [...array] or { ...object } for others).'
  );
}
