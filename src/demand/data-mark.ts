/**
 * The mark of declared data values, apart from their declarations (`declared-data.ts`) so that
 * messages (`shape-errors.ts`, which those declarations use) can name a value by it.
 * @module
 */

/** Marks the prototypes of the objects made by a declared constructor, pointing at its `Ctor` and its shape. */
export const CTOR = Symbol('strictcheck.ctor');
