/**
 * Keeping `instanceof` fast under tsx.
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
