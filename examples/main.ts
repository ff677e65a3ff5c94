/**
 * `npm start`: a guided tour of strictcheck through the examples of the paper "Keep Your Laziness
 * in Check" (Foner, Zhang, Lampropoulos, ICFP 2018), each printed with what it shows.
 *
 * 1. Observing demands: `reverse`, `zipWith (*)`, `take` (section 3)   examples/observe-basics.ts
 * 2. Specifying `take`, and `take'` caught (section 2, figures 2, 3)  examples/observe-basics.ts
 * 3. Okasaki's queue: `rot`, `rot_naive`, figures 4 and 5 (section 5) examples/rot.ts
 * 4. More list specs, and `map` with a non-strict function (6.3)    examples/list-specs.ts
 * 5. Exhaustive checking up to a depth (SmallCheck style)           examples/exhaustive.ts
 * 6. Iterables, sync and async: take, zip, flatMap, chunk, a source
 *    holding a resource, merge; each bug caught                       examples/iterators/catalog.ts
 * 7. The paper's future work: inferred specs, a reference, coverage examples/future-work.ts
 *
 * `npm start -- 3` (or `npx tsx examples/main.ts 3`) runs section 3 alone; `npm start -- 1 2` the first two.
 *
 * Some checks are meant to fail (a spec that does not match, as in the paper); they count as
 * passed when they fail with the expected counterexample. Exit code 0 when everything behaved as
 * expected, 1 otherwise. See docs/tutorial.md for a walk through this output.
 * @module
 */
import { run as observeBasics, runTakeSpecs, type Outcome } from './observe-basics.ts';
import { run as rotExample } from './rot.ts';
import { showcase } from './list-specs.ts';
import { run as exhaustive } from './exhaustive.ts';
import { run as iterators } from './iterators/catalog.ts';
import { run as futureWork } from './future-work.ts';

/** The list specs of examples/list-specs.ts, as a section: its showcase, counted our way. */
function listSpecs(log: (line: string) => void): Outcome {
  log('map f evaluates an element of its input only if f does. The checker generates random');
  log('non-strict functions (section 6.2), so it can catch a map that forces every element; with');
  log('QuickCheck-style strict functions only, the same check cannot. The other list functions of the');
  log('paper come along.');
  log('');
  const s = showcase({ log: (text) => text.split('\n').forEach((line) => log(`  ${line}`)) });
  return { passed: s.results.length - s.unexpected, failed: s.unexpected };
}

const sections: readonly { readonly title: string; readonly run: (log: (line: string) => void) => Outcome | Promise<Outcome> }[] = [
  { title: '1. Observing demands (paper, section 3)', run: observeBasics },
  { title: "2. Specifying take, and catching take' (paper, section 2.2)", run: runTakeSpecs },
  { title: "3. Okasaki's queue: rot and rot_naive (paper, section 5)", run: rotExample },
  { title: '4. More list specs, and map with a non-strict function (paper, section 6.3)', run: listSpecs },
  { title: '5. Exhaustive checking up to a depth, with demand-driven pruning', run: exhaustive },
  { title: '6. Iterables and async iterables: how far they pull, and when they close', run: iterators },
  { title: "7. Future work (paper, section 8): an inferred spec, a reference, coverage", run: futureWork },
];

/** Runs the sections numbered `picked` (every one by default), each with a heading; returns whether everything behaved as expected. */
export async function main(log: (line: string) => void = (line) => console.log(line), picked: readonly number[] = sections.map((_, i) => i + 1)): Promise<boolean> {
  log('strictcheck: testing strictness, the examples of "Keep Your Laziness in Check" (ICFP 2018)');
  log('A demand prints like a value, with _ for each part that was not evaluated.');
  const outcomes: [string, Outcome][] = [];
  for (const s of picked.map((n) => sections[n - 1]!)) {
    log('');
    log(s.title);
    log('='.repeat(s.title.length));
    let outcome: Outcome;
    try {
      outcome = await s.run(log);
    } catch (err) {
      log(`UNEXPECTED ERROR: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      outcome = { passed: 0, failed: 1 };
    }
    outcomes.push([s.title, outcome]);
  }
  log('');
  log('Summary');
  log('=======');
  let failed = 0;
  for (const [title, o] of outcomes) {
    failed += o.failed;
    log(`  ${title.padEnd(78)} ${String(o.passed).padStart(3)} as expected${o.failed ? `, ${o.failed} NOT` : ''}`);
  }
  const total = outcomes.reduce((n, [, o]) => n + o.passed + o.failed, 0);
  log('');
  log(
    failed === 0
      ? `All ${total} checks behaved as expected (the expected failures included).`
      : `${failed} of ${total} checks did NOT behave as expected.`,
  );
  return failed === 0;
}

const args = process.argv.slice(2);
if (args.every((a) => /^[1-9]$/.test(a) && Number(a) <= sections.length)) {
  process.exitCode = (await main(undefined, args.length > 0 ? args.map(Number) : undefined)) ? 0 : 1;
} else {
  console.error(`usage: npm start [-- section…], sections 1 to ${sections.length}:\n${sections.map((s) => `  ${s.title}`).join('\n')}`);
  process.exitCode = 2;
}
