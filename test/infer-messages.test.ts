/**
 * What the reports of a function that diverges or leaves a rejection unhandled say, in a check and
 * in an inference, and how an inference's result prints: each says what happened, not that the
 * function threw, and a divergence over a generated infinite source names the option that makes
 * its sources finite.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { asyncIterable, checkSpec, inferSpec, inferSpecAsync, iterable, number, specOf, type CheckResult } from '../src/index.ts';

const numbers = iterable(number);
const reverseSpec = specOf([numbers], numbers, ({ pulledAsResult }) => [pulledAsResult()]);

/** Pulls its source to the end: over an infinite source, for ever. */
function* reversed(xs: Iterable<number>) {
  const a = [...xs];
  for (let i = a.length - 1; i >= 0; i--) yield a[i]!;
}

/**
 * The check of `reversed`, which diverges on an infinite source: made once, as two tests read its
 * report; not shrunk, as each candidate diverges again (the inference below reports a shrunk one).
 */
let reversedCheck: CheckResult | undefined;
const reversedChecked = () => (reversedCheck ??= checkSpec(reverseSpec, reversed, { seed: 2, maxShrinkAttempts: 0 }));

test('the report of a function that pulls an infinite iterable for ever says, in the spec column too, that it diverged, not that it threw', () => {
  const r = reversedChecked();
  assert.match(r.message, /^Failed: the function probably diverges/, r.message);
  assert.match(r.message, /\(not asked: the function diverged\)/, r.message);
  assert.doesNotMatch(r.message, /the function threw/i, r.message);
});

test('a divergence over a generated infinite source hints iterable(…, { finite: true }), the fix when the function is meant to pull to the end; one over finite sources does not', () => {
  const r = reversedChecked();
  assert.match(r.message, /args\[0\] is an infinite source \(iterable\(…\) makes finite and infinite ones\): if the function is meant to pull it to its end, declare it iterable\(…, \{ finite: true \}\)/, r.message);
  const finiteSpec = specOf([iterable(number, { finite: true })], numbers, ({ pulledAsResult }) => [pulledAsResult()]);
  function* forever(xs: Iterable<number>) { for (;;) for (const x of xs) yield x; }
  const overFinite = checkSpec(finiteSpec, forever, { seed: 2 });
  assert.match(overFinite.message, /^Failed: the function probably diverges/, overFinite.message);
  assert.doesNotMatch(overFinite.message, /finite: true/, overFinite.message);
});

test('inferSpec of a function that pulls an infinite iterable for ever says that no spec fits a function that diverges, with the same hint', () => {
  const r = inferSpec([numbers], numbers, reversed, { trials: 20 });
  assert.deepEqual(r.proposals, []);
  assert.match(r.message, /Inferred nothing: no spec fits a function that diverges/, r.message);
  assert.doesNotMatch(r.message, /a function that throws/, r.message);
  assert.match(r.message, /declare it iterable\(…, \{ finite: true \}\)/, r.message);
});

test('inferSpecAsync of a function that leaves a rejection unhandled says so, not that it throws', async () => {
  const anums = asyncIterable(number);
  // Reads one ahead: the pull it keeps pending is never awaited where the source rejects there.
  async function* mapAhead(xs: AsyncIterable<number>): AsyncGenerator<number> {
    const it = xs[Symbol.asyncIterator]();
    let p = it.next();
    for (let r = await p; !r.done; r = await p) yield (p = it.next(), 2 * r.value);
  }
  const r = await inferSpecAsync([anums], anums, mapAhead, { proposals: 1 });
  assert.match(r.message, /^Failed: the function left a rejection unhandled/, r.message);
  assert.match(r.message, /Inferred nothing: no spec fits a function that leaves a rejection unhandled/, r.message);
  assert.doesNotMatch(r.message, /a function that throws/, r.message);
});

test("an inference's result prints as its message: String gives the message, and console.log its fields then the message on lines of its own", () => {
  const r = inferSpec([numbers], numbers, function* (xs: Iterable<number>) { yield* xs; }, { trials: 20, depth: 2 });
  assert.equal(String(r), r.message);
  assert.equal(`${r}`, r.message);
  const shown = inspect(r);
  assert.ok(shown.endsWith(`\n${r.message}`), shown);
  assert.doesNotMatch(shown, /\\n/, shown);
});

test("a check's result prints as its message through String too", () => {
  const r = checkSpec(reverseSpec, function* (xs: Iterable<number>) { yield* xs; }, { seed: 1, trials: 20 });
  assert.equal(String(r), r.message);
});
