/**
 * Observing: running a function on instrumented copies of its inputs, evaluating its result in a
 * context, and recording the demand on each input.
 *
 * Imported from `strictcheck`, as everything else.
 * @module Observing
 */
export { entangle, observe, observe1, observeDetailed, observeDetailedAsync, whnf, normalize, toContext, type Context, type Observation, type DetailedObservation, type ObserveShapes } from '../demand/observe.ts';
export { NeverSettlesError } from '../demand/never-settles.ts';
