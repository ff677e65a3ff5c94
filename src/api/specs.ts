/**
 * Specs: the curried specifications of strictness of the paper, the helpers specs use on demands
 * in value form, a declarative spec language (`specOf`), specs inferred from observations
 * (`inferSpec`), and the spec of a reference implementation (`sameStrictnessAs`).
 *
 * Imported from `strictcheck`, as everything else.
 * @module Specs
 */
export { spec, specify, specify1, predictDemands, SpecError, type Spec, type SpecBody, type ShapesOf } from '../spec/spec.ts';
export { cap, isCapped, numCtrForced, spineForced, elementAt, anyElementDemanded } from '../lazy/list.ts';
export { lazySome, lazyNone, lazyTuple, fieldDemand, isBottom } from '../demand/value-form.ts';
export { sameStrictnessAs } from '../spec/reference.ts';
export { inferSpec, inferSpecAsync, type InferOptions, type Inference, type SpecProposal } from '../spec/infer.ts';
export { specOf, type SpecLanguage, type ArgumentDemand, type ArgumentDemands, type AsResultOptions, type ElementOf } from '../spec/combinators.ts';
export { pulls, pullsOf, pullCount, endOf, closedAfter, thrownInto, iterations, untouched, taken, IterEnd, Iterations, RETURNED, THROWN, THREW, type IterationEnd } from '../iter/index.ts';
export { Ahead, aheadOf, readAhead, pulledElements, sourcePrefix, type SourcePrefix } from '../iter/index.ts';
export type { IterSpecLanguage, PulledAsResultOptions, ClosingOptions, IterElementOf } from '../spec/iter-combinators.ts';
