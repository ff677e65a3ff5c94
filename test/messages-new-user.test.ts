import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkSpec,
  checkSpecExhaustive,
  Cons,
  data,
  iterable,
  lazy,
  lazyOf,
  list,
  number,
  spec,
  SpecError,
  specOf,
  type Lazy,
  type LazyList,
} from '../src/index.ts';

const numbers = iterable(number);
const passOn = specOf([numbers], numbers, ({ pulledAsResult }) => [pulledAsResult()]);

/** `take 3`, a generator that ends its result by itself however long its source is. */
function* take3(xs: Iterable<number>) {
  let n = 3;
  for (const x of xs) {
    yield x;
    if (--n <= 0) return;
  }
}

test('pulledAsResult, for a result that ended over an infinite source, fails as over a finite one, the random check agreeing with the exhaustive one for each comparison, and shrinks to a finite source', () => {
  // A pass-through that ends after its first element: it stops before the end pulledAsResult waits for.
  function* firstOnly(xs: Iterable<number>): Generator<number, void, undefined> {
    for (const x of xs) return yield x;
  }
  for (const compare of ['exact', 'noLazier', 'noStricter'] as const) {
    const fails = compare !== 'noStricter';
    assert.equal(checkSpecExhaustive(passOn, firstOnly, { depth: 2, compare }).passed, !fails, `exhaustively, ${compare}`);
    for (const seed of [1, 2, 3, 4]) {
      const r = checkSpec(passOn, firstOnly, { seed, compare });
      assert.equal(r.passed, !fails, `seed ${seed}, ${compare}: ${r.message}`);
      if (fails) assert.match(r.message, /Inputs[^]*• iter \[0\] /, `seed ${seed}, ${compare}: shrunk to a finite source`);
    }
  }
});

test('pulledAsResult predicts an infinite source that a result ended over pulled as far as it reads one, left open: more than the function pulled', () => {
  const r = checkSpec(passOn, take3, { seed: 1, maxShrinkAttempts: 0 });
  assert.equal(r.passed, false);
  assert.match(r.message, /Spec's input demands[^]*\(9988 more\) …( : -?\d+)+ : _ │/);
});

test('an iterable combinator\'s error names the argument as the spec names it', () => {
  const named = specOf([number], number, ({ pulledAsResult }) => [pulledAsResult() as never], ['source']);
  assert.throws(
    () => checkSpec(named, (n: number) => n, { seed: 1 }),
    (e: Error) => /pulledAsResult predicts the demand on an iterable argument, but source is not an iterable \(got number/.test(e.message),
  );
});

/** `map (* 2)` as a generator, which tallies how each of its calls ended. */
function mapCounting() {
  const ends: string[] = [];
  function* map2(xs: Iterable<number>) {
    let end = 'open';
    try {
      for (const x of xs) yield x * 2;
      end = 'done';
    } catch (e) {
      end = 'threw';
      throw e;
    } finally {
      ends.push(end === 'open' ? 'closed' : end);
    }
  }
  return { ends, map2 };
}

test('coverage counts an iteration as fully forced only where it was pulled to its end, not where it was closed or its source threw', () => {
  const { ends, map2 } = mapCounting();
  const r = checkSpec(passOn, map2, { seed: 11, trials: 200 });
  assert.equal(r.passed, true);
  const done = ends.filter((e) => e === 'done').length;
  assert.ok(done < ends.length - 20, `most iterations end otherwise (${ends.length} calls, ${done} done)`);
  assert.equal(r.coverage!.result.full, done);
  assert.equal(r.coverage!.inputs[0]!.full, done);
  assert.equal(r.coverage!.result.none + r.coverage!.result.partial + r.coverage!.result.full, 200);
});

test('exhaustive coverage counts an iteration as fully forced only where it was pulled to its end', () => {
  // The cases of depth 3 are those a walk to depth 3 runs past a walk to depth 2 (unpruned, each case runs once).
  const doneUpTo = (depth: number) => {
    const { ends, map2 } = mapCounting();
    const r = checkSpecExhaustive(passOn, map2, { depth, prune: false });
    assert.equal(r.passed, true);
    return { r, done: ends.filter((e) => e === 'done').length, calls: ends.length };
  };
  const two = doneUpTo(2);
  const three = doneUpTo(3);
  const done = three.done - two.done;
  assert.ok(done < three.calls - two.calls, `some iterations end otherwise (${three.calls - two.calls} calls, ${done} done)`);
  assert.equal(three.r.coverage!.result.full, done);
  assert.equal(three.r.coverage!.inputs[0]!.full, done);
});

const numberList = list(number);

test('a function that changes its input is told so naming the argument args[0], as coverage names it', () => {
  const idSpec = spec([numberList], numberList, (predict, d) => predict(d));
  const mutates = (xs: LazyList<number>) => {
    const c = xs.force();
    if (c instanceof Cons) (c as { head: Lazy<number> }).head = lazy(() => 99);
    return xs;
  };
  const r = checkSpec(idSpec, mutates, { seed: 1 });
  assert.equal(r.passed, false);
  assert.match(r.message, /changed its input args\[0\]/);
  assert.doesNotMatch(r.message, /argument 1/);
});

test("a prediction that does not fit its argument names it args[0] in the error's path", () => {
  const wrong = spec([numberList], numberList, (predict) => predict(42 as never));
  assert.throws(
    () => checkSpec(wrong, (xs: LazyList<number>) => xs, { seed: 1 }),
    (e: Error) => e instanceof SpecError && /prediction for args\[0\]/.test(e.message) && !/argument 1/.test(e.message),
  );
});

type Tree = { tag: 'Leaf' } | { tag: 'Node'; left: Lazy<Tree>; value: number; right: Lazy<Tree> };
const Tree = data<Tree>('Tree', (Tree) => ({ Leaf: {}, Node: { left: lazyOf(Tree), value: number, right: lazyOf(Tree) } }));

test("a declared data value where it does not fit is described by its data declaration's name and constructor", () => {
  const wrongResult = spec([number], number, (predict, _d, n) => predict(n));
  assert.throws(
    () => checkSpec(wrongResult, (_n: number) => Tree.make.Leaf() as never, { seed: 1 }),
    (e: Error) => /got Tree's Leaf/.test(e.message) && !/without a name/.test(e.message),
  );
});

test('a lazy-list result whose forcing threw shows ⊥ in its demand, as an iterable result does', () => {
  const idSpec = spec([numberList], numberList, (predict, d) => predict(d));
  const r = checkSpec(idSpec, (_xs: LazyList<number>): LazyList<number> => lazy((): never => { throw null; }), { seed: 1 });
  assert.equal(r.passed, false);
  const resultLine = r.message.split('\n').find((l) => l.startsWith('│ • '))!;
  assert.match(resultLine, /│ ⊥ +│$/);
});
