/**
 * A spec that changes its inputs. The function is given copies that refuse a change (see
 * `input-copy.ts`); the spec is given the inputs themselves, which a slip (a `sort` in place, an
 * assignment, `set.add`) changes under the check: its prediction is then of other inputs than the
 * function read, the case fails, and run again it is another case (the function now reads the
 * changed inputs), which the report took for a function that behaves differently, showing inputs
 * the function was never given. So a failed case whose inputs no longer hold what the function
 * read is refused as the spec's mistake. Asked of a failed case only: reading the inputs costs
 * what they hold.
 * @module
 */
import { evaluatedPart } from '../demand/convert.ts';
import type { Demand } from '../demand/demand.ts';
import { lub } from '../demand/lattice.ts';
import { argumentName } from '../demand/observe.ts';
import { someShapeWithin } from '../demand/shape-walk.ts';
import { showDemand } from './report.ts';
import { SpecError, type Spec } from './spec.ts';

/** @internal Throws a SpecError naming the first of `inputs` of spec `s` that holds, where the function read `read`, a value other than it read. */
export function refuseChangedInputs(s: Spec<readonly unknown[], unknown>, inputs: readonly unknown[], read: readonly Demand[]): void {
  for (let i = 0; i < read.length; i++) {
    const now = readNow(inputs[i], s, i);
    // No common upper bound: a position the function read holds another value now.
    if (now === undefined || lub(read[i]!, now) !== undefined) continue;
    throw new SpecError(
      `the spec changed its input ${argumentName(s.names, i)}: the function read ${showDemand(read[i]!)}, and after the spec it is ${showDemand(now)}. ` +
        'A spec must not change its inputs: its prediction is then of other inputs than the function read, and the case run again is another case. ' +
        'Read them and build new values instead ([...array], { ...object }, new Set(set), new Map(map))',
    );
  }
}

/**
 * What input `i` of `s`, `value`, holds evaluated now, if it is data that can be read and compared:
 * not where it holds a source (whose demand is the pulls a run made, not what the source holds) or
 * a function (the calls made of it), which are read anew by each run.
 */
function readNow(value: unknown, s: Spec<readonly unknown[], unknown>, i: number): Demand | undefined {
  const shape = s.args[i];
  if (shape === undefined || someShapeWithin(shape, (x) => x.protocol !== undefined || x.kind === 'fn')) return undefined;
  try {
    return evaluatedPart(value, shape);
  } catch {
    return undefined;
  }
}
