/**
 * `npm start` section 7: the paper's future work (section 8), built. A spec inferred from
 * observations of `take`, over lists and over iterables; an optimised `take` checked against
 * `take` itself, with no spec; and the coverage line of a passing run, with a run that asks for
 * more coverage than `and` can give, at random and in the exhaustive mode.
 * @module
 */
import { list, lazyOf } from '../src/demand/lazy-positions.ts';
import { number } from '../src/demand/primitives.ts';
import { inferSpec, type Inference } from '../src/spec/infer.ts';
import { checkSpec, checkSpecExhaustive } from '../src/checks.ts';
import type { CheckResult } from '../src/spec/result.ts';
import { take, takePrime } from './take.ts';
import { checkOptimisedTakes } from './optimised-take.ts';
import { and, andSpec } from './and-filter.ts';
import type { Outcome } from './observe-basics.ts';
import { numbers, take as takeIter, takePullsOneMore } from './iterators/take.ts';

/** Runs the section, printing through `log`; counts the checks that behaved as expected. */
export function run(log: (line: string) => void): Outcome {
  let passed = 0;
  let failed = 0;
  const expect = (ok: boolean, label: string) => {
    if (ok) passed++;
    else {
      failed++;
      log(`  NOT AS EXPECTED: ${label}`);
    }
  };
  const indent = (text: string) => text.split('\n').forEach((line) => log(`    ${line}`));

  log('Inferring a spec: inferSpec observes take on random cases and every case up to depth 4, and');
  log('proposes the combinator specs that predict every demand it saw, smallest first:');
  // Prints an inference, then checks that its first proposal passes `fn` and fails `buggy`.
  const proposeAndCheck = <A extends readonly unknown[], R>(inferred: Inference<A, R>, fn: (...args: A) => R, buggy: (...args: A) => R, labels: readonly [string, string]) => {
    indent(inferred.message);
    const proposed = inferred.proposals[0]?.spec;
    expect(proposed !== undefined && checkSpec(proposed, fn, { seed: 2018 }).passed, labels[0]);
    expect(proposed !== undefined && !checkSpec(proposed, buggy, { seed: 2018 }).passed, labels[1]);
    log('');
  };
  proposeAndCheck(inferSpec([lazyOf(number), list(number)], list(number), take, { proposals: 1 }), take, takePrime, ["take passes its inferred spec", "take' fails take's inferred spec"]);

  log('Over iterables (section 6), on random cases and every case up to depth 4 too, it proposes the combinators of pulls and closing:');
  proposeAndCheck(inferSpec([number, numbers], numbers, takeIter, { proposals: 1 }), takeIter, takePullsOneMore, ['take over iterables passes its inferred spec', 'a take that pulls n+1 fails it']);

  log('Same strictness as a reference: two optimised takes checked against take itself, no spec written.');
  const { fast, shared } = checkOptimisedTakes(2018);
  log('  takeFast counts down a plain number:');
  indent(fast.message);
  expect(fast.passed, 'takeFast is as lazy as take');
  log('  takeShared returns a list no longer than n as it is, so it measures the list first:');
  indent(shared.message);
  expect(!shared.passed, 'takeShared is stricter than take');
  log('');

  log("Coverage: and's result is a boolean, all or nothing, so no trial can demand part of it;");
  log('a check that asks for 10% of partial results fails, saying so:');
  const covered: CheckResult = checkSpec(andSpec, and, { seed: 2018, coverage: { result: { partial: 0.1 } } });
  indent(covered.message);
  expect(!covered.passed && covered.coverage?.result.partial === 0, 'and never has a partial result');
  log('The exhaustive mode counts the same over the cases of its deepest depth:');
  const enumerated = checkSpecExhaustive(andSpec, and, { depth: 3, coverage: { result: { partial: 0.1 } } });
  indent(enumerated.message);
  expect(!enumerated.passed && enumerated.coverage?.result.partial === 0, 'and never has a partial result, exhaustively');
  return { passed, failed };
}
