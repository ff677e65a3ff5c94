/**
 * Queue rotation (paper, section 5): Okasaki's incremental `rot` and the naive `fs ++ reverse bs`,
 * with the two specifications of figure 5.
 *
 * Both rotations compute the same list. They differ only in *when* they look at `bs`:
 * - `rotNaive fs bs = fs ++ reverse bs` does not touch `bs` until `fs` is used up, and then
 *   reverses all of it at once (an O(n) pause);
 * - `rot fs bs = rotate fs bs []` walks `fs` and `bs` in step, one cell of each per cell of the
 *   result, so that by the time `fs` is used up, `bs` is already reversed (O(1) per cell).
 *
 * Figure 5's text is garbled in our copy of the paper; the specs below are reconstructed from its
 * fragments and the tables of section 5, and checked against the functions (okasaki.test.ts),
 * randomly and exhaustively on small inputs. One fragment, the comment "Only needed when length
 * bs > length fs", could not be placed: checked exhaustively, no case of `rot_spec` is needed only
 * then, and the middle case (the one the text's first attempt lacks) is needed exactly when
 * length bs < length fs, inside the queue invariant.
 * @module
 */
import { defer, now, thunk } from '../../src/lazy/lazy.ts';
import { Cons, nil, type List } from '../../src/lazy/cell.ts';
import * as L from '../../src/lazy/list.ts';
import { cap, isCapped, numCtrForced } from '../../src/lazy/list.ts';
import { list } from '../../src/demand/lazy-positions.ts';
import { number } from '../../src/demand/primitives.ts';
import { spec } from '../../src/spec/spec.ts';

/**
 * The paper's `rotate`, clause by clause. Every clause matches `fs` first, then `bs`, so every
 * step forces one cell of each:
 * ```haskell
 * rotate [] [] as = as
 * rotate [] (b : bs) as = rotate [] bs (b : as)
 * rotate (f : fs) [] as = f : rotate fs [] as
 * rotate (f : fs) (b : bs) as = f : rotate fs bs (b : as)
 * ```
 * Built with `defer`, so the `rotate [] (b : bs)` loop runs in Lazy's loop, not on the stack.
 */
export function rotate<T>(fs: List<T>, bs: List<T>, as: List<T>): List<T> {
  return defer((): List<T> => {
    const f = fs.force();
    const b = bs.force();
    if (f.tag === 'Nil') return b.tag === 'Nil' ? as : rotate(nil, b.tail, L.lazyCons(b.head, as));
    const rest = b.tag === 'Nil' ? rotate(f.tail, nil, as) : rotate(f.tail, b.tail, L.lazyCons(b.head, as));
    return now(new Cons(f.head, rest));
  });
}

/** Okasaki's rotation: `rot fs bs = rotate fs bs []`, equal to `fs ++ reverse bs`, but incremental. */
export function rot<T>(fs: List<T>, bs: List<T>): List<T> {
  return rotate(fs, bs, nil);
}

/** The naive rotation, `rot_naive fs bs = fs ++ reverse bs`: lazy in `bs` until `fs` runs out, then reverses it at once. */
export function rotNaive<T>(fs: List<T>, bs: List<T>): List<T> {
  return L.append(fs, L.reverse(bs));
}

const args = [list(number), list(number)] as const;

/**
 * The spec of `rot_naive` (paper, section 5.1 and the left half of figure 5).
 * - `fs` is demanded as far as the result is, and entirely (up to its `[]`) once the result is
 *   demanded beyond it;
 * - `bs` is untouched until the result is demanded beyond `fs` (or up to its final `[]`, which
 *   only happens when `bs` is empty); then its whole spine is forced (that is `reverse`), with
 *   the elements the result demand reached, in reverse order, and `_` for the others.
 * ```haskell
 * rot_simple_spec = Spec $ \predict resultDemand fs bs ->
 *   let demandOnFs
 *         | length (cap resultDemand) > length fs = take (length fs) resultDemand
 *         | otherwise = resultDemand
 *       demandOnBs
 *         | length (cap resultDemand) > length fs || null bs && isCapped resultDemand =
 *             reverse $ take (length bs) $ drop (length fs) (cap resultDemand) ++ repeat thunk
 *         | otherwise = thunk
 *   in predict demandOnFs demandOnBs
 * ```
 */
export const rotSimpleSpec = spec(
  args,
  list(number),
  (predict, d, fs, bs) => {
    const lenFs = L.length(fs);
    const lenBs = L.length(bs);
    const demanded = L.length(cap(d));
    const demandOnFs = demanded > lenFs ? L.take(lenFs, d) : d;
    const demandOnBs =
      demanded > lenFs || (lenBs === 0 && isCapped(d))
        ? L.reverse(L.take(lenBs, L.append(L.drop(lenFs, cap(d)), L.repeat(thunk))))
        : thunk;
    predict(demandOnFs, demandOnBs);
  },
  ['fs', 'bs'],
);

/**
 * The spec of Okasaki's `rot` (right half of figure 5).
 * - `fs`: exactly as for `rot_naive`;
 * - `bs`, when the result is demanded past `fs` (counting the final `[]`, hence `numCtrForced`):
 *   its whole spine, with the demanded elements, as for `rot_naive`;
 * - otherwise `bs` is forced one cell per cell of the result, *even though none of its elements
 *   is demanded* (this is the incremental reversal): all of its spine (ending in `[]`) if the
 *   result demand has more cells than `bs`, else as many `_ :` cells as the result demand has,
 *   ending in `_`. (The `drop (length fs)` in these two cases is always `[]` here, as in the paper.)
 * The second case is the one the paper's first attempt (section 5.2.1) lacks.
 * ```haskell
 * rot_spec = Spec $ \predict resultDemand fs bs ->
 *   let demandOnFs
 *         | length (cap resultDemand) > length fs = take (length fs) (cap resultDemand)
 *         | otherwise = resultDemand
 *       demandOnBs
 *         | numCtrForced resultDemand > length fs =
 *             reverse $ take (length bs) $ drop (length fs) (cap resultDemand) ++ repeat thunk
 *         | length (cap resultDemand) > length bs =
 *             reverse $ drop (length fs) (cap resultDemand) ++ replicate (length bs) thunk
 *         | otherwise =   -- force part of bs even if not demanded
 *             (reverse $ drop (length fs) (cap resultDemand)
 *                        ++ replicate (length (cap resultDemand)) thunk) ++ thunk
 *   in predict demandOnFs demandOnBs
 * ```
 */
export const rotSpec = spec(
  args,
  list(number),
  (predict, d, fs, bs) => {
    const lenFs = L.length(fs);
    const lenBs = L.length(bs);
    const demanded = L.length(cap(d));
    const pastFs = L.drop(lenFs, cap(d));
    const demandOnFs = demanded > lenFs ? L.take(lenFs, cap(d)) : d;
    let demandOnBs: List<number>;
    if (numCtrForced(d) > lenFs) {
      demandOnBs = L.reverse(L.take(lenBs, L.append(pastFs, L.repeat(thunk))));
    } else if (demanded > lenBs) {
      demandOnBs = L.reverse(L.append(pastFs, L.replicate(lenBs, thunk)));
    } else {
      demandOnBs = L.append(L.reverse(L.append(pastFs, L.replicate(demanded, thunk))), thunk);
    }
    predict(demandOnFs, demandOnBs);
  },
  ['fs', 'bs'],
);

/**
 * The first attempt at `rot_spec` in the text of section 5.2.1 (without the middle case). Kept to
 * show what it misses: it predicts a cons of `bs` per cell of the result even when `bs` has fewer
 * cells (`_ : _` for `bs = []` under `_ : _`). The paper says its counterexamples all have
 * length bs > length fs; in fact they all have length bs < length fs (okasaki.test.ts).
 */
export const rotSpecFirstAttempt = spec(
  args,
  list(number),
  (predict, d, fs, bs) => {
    const lenFs = L.length(fs);
    const lenBs = L.length(bs);
    const demanded = L.length(cap(d));
    const pastFs = L.drop(lenFs, cap(d));
    const demandOnFs = demanded > lenFs ? L.take(lenFs, cap(d)) : d;
    const demandOnBs =
      numCtrForced(d) > lenFs
        ? L.reverse(L.take(lenBs, L.append(pastFs, L.repeat(thunk))))
        : L.append(L.reverse(L.append(pastFs, L.replicate(demanded, thunk))), thunk);
    predict(demandOnFs, demandOnBs);
  },
  ['fs', 'bs'],
);
