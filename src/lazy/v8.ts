/**
 * What is specific to V8, in one module: keeping the classes of the hot paths fast (`instanceof`
 * under tsx), and their optimised code across full garbage collections (the samples kept are all
 * made in one place, `src/spec/hidden-classes.ts`).
 *
 * tsx compiles with esbuild's `keepNames`, which redefines the `name` of every class it emits;
 * that turns the class object into a dictionary-mode object, and V8 then cannot inline
 * `x instanceof C` but calls the generic builtin (two checks per element: 19 ns against 2). The
 * walks over lazy data test thunks and cells with `instanceof` several times per cell.
 * @module
 */

/**
 * Puts each class back into fast mode: V8 optimises an object as a prototype when a class
 * extends it, and the subclass, made for that alone, is dropped. Harmless where names were kept
 * otherwise (plain `tsc` output, a bundler): the class was fast already.
 * @internal
 */
export function fastInstanceof(...classes: readonly (abstract new (...args: never[]) => object)[]): void {
  for (const c of classes) void class extends (c as new (...args: never[]) => object) {};
}

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
