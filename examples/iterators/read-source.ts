/**
 * What a spec reads of a source to predict a function's demand on it: its first elements, and
 * how it went on (`sourcePrefix`, src/iter/read.ts). Specs run on the inputs themselves, not on
 * instrumented copies, so this reading is not recorded.
 * @module
 */
import { pulls, type IterDemand, type SourcePrefix } from '../../src/iter/index.ts';

/** The first `max` elements of a source (generated or re-iterable) and how it goes on: the library's `sourcePrefix`, by the names these specs use. */
export { sourcePrefix as readSource, sourcePrefix as readAsyncSource, type SourcePrefix } from '../../src/iter/index.ts';

/** The demand of an iteration that read `read` and then its source's end: `[]`, or `⊥` where it threw. */
export function toItsEnd<T>(read: SourcePrefix<T>): IterDemand<T> {
  return pulls(read.values, read.then === 'threw' ? 'threw' : 'done');
}
