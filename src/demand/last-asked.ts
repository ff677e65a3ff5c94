/**
 * A one-entry memo, for what a check asks with the same arguments on every trial.
 * @module
 */

/**
 * @internal `compute`, its last answer kept with its arguments (compared by identity), kept in
 * place: a miss allocates nothing. For a question asked once per trial whose answer a slower memo
 * (a WeakMap) or a small computation gives: the same arguments come back trial after trial.
 */
export function lastAsked<A, B, V>(compute: (a: A, b: B) => V): (a: A, b: B) => V {
  let asked = false;
  let lastA: A | undefined;
  let lastB: B | undefined;
  let last: V | undefined;
  return (a, b) => {
    if (asked && a === lastA && b === lastB) return last as V;
    last = compute(a, b);
    asked = true;
    lastA = a;
    lastB = b;
    return last;
  };
}
