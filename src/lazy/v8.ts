/**
 * What is specific to V8, in one module: keeping the optimised code of the hot paths across full
 * garbage collections (the samples kept are all made in one place, `src/spec/hidden-classes.ts`),
 * and putting back into fast mode the functions that a compiler keeping names leaves in
 * dictionary mode.
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

/**
 * Puts each constructor back into fast mode: esbuild's `keepNames` (tsx's, which the bench and
 * many test runners use) redefines the `name` of every class and named function it emits, which
 * leaves it in dictionary mode, and V8's optimised code then calls the generic `instanceof` for
 * it, and the generic property load for an object that is one (`thunk`, a function, where a
 * Lazy's fields are read). V8 makes an object fast when a class extends it; the subclass, made
 * for that alone, is dropped. The built package's are fast already (it keeps names otherwise).
 * Under tsx, a check of take spent 1.8% in the generic `instanceof` (GetProperty,
 * FunctionPrototypeHasInstance) in a perf profile.
 * @internal
 */
export function fastMode(...constructors: readonly object[]): void {
  for (const c of constructors) void class extends (c as new () => object) {};
}
