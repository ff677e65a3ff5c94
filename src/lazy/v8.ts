/**
 * What is specific to V8, in one module: keeping the optimised code of the hot paths across full
 * garbage collections (the samples kept are all made in one place, `src/spec/hidden-classes.ts`).
 *
 * Nothing here puts classes back into fast mode for `instanceof` under tsx (esbuild's `keepNames`
 * redefines every class's `name`, and V8 then calls the generic `instanceof`: 9.7 ns against 2.6
 * per element tested against two classes): the built package's classes are fast without it, and
 * runs under tsx gained 2 to 4% from it, within the noise (see the commit that removed it).
 * @module
 */

/** The instances {@link keepHiddenClasses} keeps alive. */
const kept: object[] = [];

/**
 * Keeps `samples` alive for the life of the process, and with them the hidden classes (V8's maps)
 * of their classes. A class whose instances live only while a walk runs (a recording, a spine)
 * has no instance left between walks; a full collection then frees its hidden classes, and V8
 * throws away the optimised code of every function that checked for them (`--trace-deopt`:
 * "weak objects"). Until recompiled, that code ran unoptimised: after each full collection,
 * recording the demand on a list of 10^5 cells took 13 ms instead of 3.5 for several runs.
 * A sample's fields should hold what its class's fields hold at their most general (a string
 * rather than a small integer, where doubles and strings come too): V8 moves the instances to
 * another hidden class when a field first given small integers gets a double.
 * @internal
 */
export function keepHiddenClasses(...samples: readonly object[]): void {
  kept.push(...samples);
}
