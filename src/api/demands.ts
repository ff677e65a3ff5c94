/**
 * Demands: how much of a value was evaluated, in value form (with `thunk`) or explicit;
 * converting, comparing (`lessDefined`, the lattice of `lub` and `glb`) and printing them in the
 * paper's notation.
 *
 * Imported from `strictcheck`, as everything else.
 * @module Demands
 */
export { Unforced, Forced, unforced, isForced, demandEquals, lessDefined, demandSize, type Demand } from '../demand/demand.ts';
export { lub, glb } from '../demand/lattice.ts';
export { toDemand, fromDemand, evaluatedPart } from '../demand/convert.ts';
export { prettyDemand, printDemand, prettyValue, type PrintOptions } from '../demand/print.ts';

