/**
 * Same strictness as a reference (the paper's section 8: "StrictCheck can be used to test whether
 * a function has the same strictness as a reference implementation"): a {@link Spec} whose
 * prediction is the demand the reference itself puts on the inputs under the same demand on its
 * result. No spec to write, any arity, and every check mode takes it, as it takes any spec.
 * @module
 */
import { inValueForm, toDemand } from '../demand/convert.ts';
import { NeverSettlesError } from '../demand/never-settles.ts';
import { observeDetailed, observeDetailedAsync, toContext, type DetailedObservation } from '../demand/observe.ts';
import { describeSafely } from '../demand/describe.ts';
import type { Shape } from '../demand/shape-types.ts';
import type { Demand } from '../demand/demand.ts';
import { spec, SpecError, type ShapesOf, type Spec, type SpecBody } from './spec.ts';

/**
 * The spec "forces exactly what `reference` forces": for a demand on the result, it predicts the
 * demand `reference` puts on the same inputs when its result is evaluated as far. Check a function
 * against it with any check (`checkSpec`, `checkSpecExhaustive`, `defineCheck` for workers); the
 * diagram of a counterexample labels the predicted column "Reference's input demands".
 * `compare: 'noStricter'` asks for a function that forces no more than the reference,
 * `'noLazier'` no less. A reference that throws, or whose result the function's demand does not
 * fit (the two compute different values), is a {@link SpecError}: strictness is compared on equal
 * values only. Over async iterables, or with a reference that returns a Promise, check against it
 * with `checkSpecAsync` (or `checkSameStrictnessAsync`): each case awaits the reference too.
 *
 * @example
 * ```ts
 * const sameAsTake = sameStrictnessAs([lazyOf(number), list(number)], list(number), take);
 * checkSpec(sameAsTake, takePrime, { seed: 1 }).passed; // false: take' looks at the list first
 * checkSpecExhaustive(sameAsTake, take, { depth: 4 }).passed; // true
 * ```
 */
export function sameStrictnessAs<const A extends readonly unknown[], R>(args: ShapesOf<A>, result: Shape<R>, reference: NoInfer<(...args: A) => R | Promise<R>>, names?: readonly string[]): Spec<A, R> {
  const shapes = { inputs: args, result, ...(names ? { names } : {}) };
  const body = (predict: (...demands: A) => void, d: R, ...inputs: A) => predictAs<A, R>(observeDetailed(toContext(toDemand(d, result)), reference, inputs, shapes), args)(predict, d, ...inputs);
  // An asynchronous check awaits the reference's observation (over async iterables, or a Promise it returns) before it predicts.
  const bodyAsync = async (d: Demand, inputs: A, budget: number): Promise<SpecBody<A, R>> => predictAs<A, R>(await observeDetailedAsync(toContext(d), reference, inputs, shapes, budget), args);
  return { ...spec(args, result, body, names), predictor: 'Reference', bodyAsync };
}

/** The body that predicts what the reference was observed to force (`obs`), or that throws the {@link SpecError} of a reference that threw. */
function predictAs<A extends readonly unknown[], R>(obs: DetailedObservation, args: ShapesOf<A>): SpecBody<A, R> {
  return (predict, _d, ..._inputs) => {
    if (obs.error) throw new SpecError(`the reference ${obs.error.thrown instanceof NeverSettlesError ? `never settles: ${NeverSettlesError.why}` : `threw ${describeSafely(obs.error.thrown)}`} (on inputs where the function returned: both must compute the same values)`, { cause: obs.error.thrown });
    // As embedded, not as a spec receives a demand: what the reference was observed to do, its reading ahead too, is predicted.
    predict(...(obs.inputs.map((x, i) => inValueForm(x, args[i] as Shape<unknown>, false)) as unknown as A));
  };
}
