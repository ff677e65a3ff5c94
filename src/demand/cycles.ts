/**
 * Cycle detection along the path of a depth-first walk (Brent's), and the error for a value that
 * holds itself where a walk or a copy would never end.
 * @module
 */
import type { Forced } from './demand.ts';
import { pathTo, type SpineCell } from './compact-demand.ts';
import type { Guide } from './guide.ts';
import { showPath, type Path } from './path.ts';
import { ShapeMismatchError } from './shape-errors.ts';
import type { Shape } from './shape-types.ts';

/** The mark of a {@link PathMark} when there is none. */
const NO_MARK = Symbol('no mark');

/**
 * @internal Brent's cycle detection along the path of a depth-first walk (`record`, and the copy
 * of strict fields in `instrument.ts`): `visit` compares each layer walked with a mark, a layer
 * above it; the mark moves down to the layer visited whenever the walk is `span` layers below it,
 * and `span` doubles, so that on an endless path the mark is on the cycle, and `span` longer than
 * it, before long. A layer is met again only as (value, shape, guide): a value may be walked under
 * another shape or guide below itself, and end (a declared record that reads fewer of its fields;
 * a demand's guide is a new one at every layer). Where the walk goes back up past the mark (`up`),
 * the next layer visited becomes the mark. A comparison a layer, where a set of the layers above
 * would cost an insertion and a removal.
 */
export class PathMark {
  protected value: unknown = NO_MARK;
  private shape: Shape<unknown> | undefined;
  private guide: Guide | undefined;
  private depth = 0;
  private span = 1;

  /**
   * Visits layer `v`, at shape `s` under guide `g` (`undefined` for a walk without guides),
   * `depth` layers down: 0, or {@link MOVED} if it is the mark now, or {@link MET} if it was.
   */
  visit(v: unknown, s: Shape<unknown>, g: Guide | undefined, depth: number): number {
    if (v === this.value && s === this.shape && g === this.guide) return MET;
    if (this.value !== NO_MARK) {
      if (depth - this.depth < this.span) return 0;
      this.span *= 2;
    }
    this.value = v;
    this.shape = s;
    this.guide = g;
    this.depth = depth;
    return MOVED;
  }

  /**
   * The walk goes back up to a layer `depth` layers down: a mark as deep is no longer above the
   * walk, and is dropped. Returns whether it was.
   */
  up(depth: number): boolean {
    if (depth > this.depth) return false;
    this.value = NO_MARK;
    return true;
  }
}
/** See {@link PathMark.visit}. */
const MOVED = 1;
/** @internal See {@link PathMark.visit}. */
export const MET = 2;

/** @internal A {@link PathMark} for `record`, which names where the mark is recorded in its error. */
export class PathCycle extends PathMark {
  // Where the mark is recorded (see `place`), for the message.
  private from: Forced | SpineCell | undefined;
  private at = 0;
  private cell = false;
  private path: Path = null;
  private readonly unmarkedDepth = cellMarks.unmarkedDepth;

  /** `into`, `at`, `path`: where the walk records its root, and the root's path. */
  constructor(
    private readonly root: Forced,
    private readonly rootAt: number,
    private readonly rootPath: Path,
  ) {
    super();
  }

  /** {@link PathMark.visit} for a list cell at a lazy position: one is marked only {@link cellMarks}' `unmarkedDepth` layers down or deeper. */
  visitCell(v: unknown, s: Shape<unknown>, g: Guide, depth: number): number {
    return depth < this.unmarkedDepth ? 0 : this.visit(v, s, g, depth);
  }

  /**
   * After a visit that returned `met`: keeps where the mark is recorded, position `at` of `from`
   * (`cell`: cell `HEAD - at` of a spine), `path` if the walk keeps paths; or, if the layer visited
   * was the mark, throws the error naming both.
   */
  place(met: number, from: Forced | SpineCell, at: number, cell: boolean, path: Path): void {
    if (met === MOVED) {
      this.from = from;
      this.at = at;
      this.cell = cell;
      this.path = path;
      return;
    }
    const first = this.pathOf(this.from!, this.at, this.cell, this.path);
    throw cyclicValue(this.pathOf(from, at, cell, path), first, this.value, 'so its demand would never end');
  }

  /** The path of a position (see `place`): `path`, or if the walk keeps none, the path found in the demand recorded. */
  private pathOf(from: Forced | SpineCell, at: number, cell: boolean, path: Path): Path {
    if (path !== null) return path;
    const found = pathTo(this.root, this.rootAt, this.rootPath, from, at);
    // A spine cell's position is that of its head.
    return cell && found !== null && typeof found === 'object' ? found.parent : found;
  }
}
/**
 * @internal How deep a walk goes before it marks a list cell (`unmarkedDepth`, read as a walk
 * starts): a mark keeps the cells after it alive, where a walk of a long result lets go of the
 * cells it has passed (observing `append` at 10^5 cells took 1.7 times as long with cells marked
 * from the start). A cycle of list cells (`repeat`) is found past this depth, after a few
 * milliseconds; other layers are marked from the start. Tests lower it, to meet such cycles in a
 * few steps rather than 2^20.
 */
export const cellMarks = { unmarkedDepth: 1 << 20 };

/**
 * @internal The error for a value that holds itself (`first` holds itself at `where`), which a
 * walk or a copy cannot go through to the end: `why` says what would never end.
 */
export function cyclicValue(where: Path, first: Path, value: unknown, why: string): ShapeMismatchError {
  return new ShapeMismatchError(showPath(where), `a value that does not hold itself (a cyclic value: ${showPath(first)} holds itself here, ${why})`, value);
}
