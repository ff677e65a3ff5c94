/**
 * A function under an asynchronous check that leaves a rejection unhandled (a pull made ahead that
 * it never awaits, on a source that rejects there) fails the case that made it, with a message
 * saying so and what the rejection was; the failure shrinks and prints its diagram like any
 * other, with or without workers, at random and exhaustively. Rejections that no case made are
 * left as Node leaves them.
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prettyValue } from '../src/demand/print.ts';
import { spec } from '../src/spec/spec.ts';
import { number } from '../src/demand/primitives.ts';
import { AsyncSource, pulls, SourceError, sourcePrefix } from '../src/iter/index.ts';
import fc from 'fast-check';
import { withArbitrary } from '../src/engine/fast-check-bridge.ts';
import { checkSpecAsync, checkSpecExhaustiveAsync } from '../src/async-checks.ts';
import type { Counterexample } from '../src/spec/result.ts';
import { leftUnhandled, withOwnListener } from './fixtures/rejection-listeners.ts';
import { runFixture } from './fixtures/run-fixture.ts';
import { finiteNumbers, firstAbove, firstAboveCheck, firstAboveHandled, firstAbovePulls, firstAboveSpec, lateSources } from './fixtures/unhandled-rejection-checks.ts';

const shown = (c: Counterexample | undefined) => c!.inputs.map((v, i) => prettyValue(v, firstAboveSpec.args[i] as never));

test('an async check or inference run in a process that listens for no rejection reports a rejection the function left unhandled, where the process died; a rejection after the run still ends it', { timeout: 60_000 }, () => {
  const child = runFixture('unhandled-rejection.ts');
  assert.match(child.stdout, /^passed false: Failed: the function left a rejection unhandled \(after \d+ trials? and \d+ shrinks?; seed 1\)\npassed false: Failed: the function left a rejection unhandled \(exhaustive, depth \d/, child.stderr);
  // The inference reports it as the checks do, a case of the function: no spec fits it.
  assert.match(child.stdout, /\ninferred: Failed: the function left a rejection unhandled \(after \d+ cases? and \d+ shrinks?; seed 1\)/, child.stderr);
  assert.notEqual(child.status, 0);
  assert.match(child.stderr, /a rejection after the runs/);
});

test('a pull made ahead and never awaited that rejects fails its trial, saying the function left that rejection unhandled, shrunk and drawn as any failure, the same with workers', { timeout: 120_000 }, async () => {
  const here = await checkSpecAsync(firstAboveSpec, firstAbove, { seed: 1, unicode: false });
  assert.equal(here.passed, false);
  assert.ok(leftUnhandled(here.counterexample) instanceof SourceError);
  assert.match(here.message, /^Failed: the function left a rejection unhandled \(after \d+ trials? and [1-9]\d* shrinks?; seed 1\)\n/);
  assert.match(here.message, /\nThe function left a rejection unhandled: SourceError: the source threw at pull 2\n/);
  // The diagram shows the pulls, the rejecting one as ⊥.
  assert.match(here.message, /1 : ⊥/);
  assert.deepEqual(shown(here.counterexample), ['0', 'async iter [1, throw]']);
  const there = await checkSpecAsync(firstAboveCheck, { seed: 1, unicode: false, workers: 2 });
  assert.deepEqual([there.passed, there.trials, there.shrinks, there.message], [here.passed, here.trials, here.shrinks, here.message]);
  assert.deepEqual(shown(there.counterexample), shown(here.counterexample));
});

test('the exhaustive mode finds the same rejection left unhandled, with the same counterexample with workers', { timeout: 120_000 }, async () => {
  const here = await checkSpecExhaustiveAsync(firstAboveSpec, firstAbove, { depth: 3, unicode: false });
  assert.equal(here.passed, false);
  assert.ok(leftUnhandled(here.counterexample) instanceof SourceError);
  assert.match(here.message, /^Failed: the function left a rejection unhandled \(exhaustive, depth \d/);
  assert.match(here.message, /\nThe function left a rejection unhandled: SourceError: the source threw at pull 2/);
  const there = await checkSpecExhaustiveAsync(firstAboveCheck, { depth: 3, unicode: false, workers: 2 });
  assert.deepEqual([there.passed, there.depth, there.cases, there.message], [here.passed, here.depth, here.cases, here.message]);
});

test('a pull made ahead whose rejection the function handles is no failure', { timeout: 60_000 }, async () => {
  assert.equal((await checkSpecAsync(firstAboveSpec, firstAboveHandled, { seed: 1 })).passed, true);
  assert.equal((await checkSpecExhaustiveAsync(firstAboveSpec, firstAboveHandled, { depth: 3 })).passed, true);
});

test('a rejection that comes turns after the function returned is blamed on the trial that made it, not on a later one', { timeout: 60_000 }, async () => {
  // The trials whose pull ahead rejected, told by a handler that passes the rejection on, unhandled.
  const rejectedIn: number[] = [];
  let calls = 0;
  const spied = async (limit: number, xs: AsyncIterable<number>): Promise<number> => {
    const call = calls++;
    const it = xs[Symbol.asyncIterator]();
    const first = await it.next();
    void it.next().then(undefined, (err: unknown) => {
      rejectedIn.push(call);
      throw err;
    });
    return first.done ? limit : first.value;
  };
  // It pulls twice: the first pull's answer, and the pull ahead's.
  const s = spec([number, lateSources], number, (predict, _d, limit, xs) => {
    const read = sourcePrefix(xs, 2);
    predict(limit, pulls(read.values, read.then === 'more' || read.values.length === 2 ? 'open' : read.then));
  });
  const r = await checkSpecAsync(s, spied, { seed: 3, trials: 40 });
  assert.equal(r.passed, false);
  assert.ok(leftUnhandled(r.counterexample) instanceof SourceError);
  assert.ok(rejectedIn.length > 0);
  // The first trial to fail is the first whose pull ahead rejected: the trials run one call each until then.
  assert.equal(r.trials, rejectedIn[0]! + 1);
  assert.equal(prettyValue(r.counterexample!.inputs[1], lateSources), 'async iter [1, throw] delays [0, 3, 3]');
});

test('a rejection left by a function that then throws is its case\'s too: none comes after the case, to blame a later one or end the process after the run', { timeout: 60_000 }, async () => {
  await withOwnListener(async (seen) => {
    const dropsThenThrows = async (_limit: number, xs: AsyncIterable<number>): Promise<number> => {
      const it = xs[Symbol.asyncIterator]();
      await it.next();
      void it.next(); // rejects three turns later
      throw new Error('its own throw');
    };
    const rejectsLate = withArbitrary(fc.constant(new AsyncSource({ elements: [1, 2], infinite: false, hasReturn: true, throwAt: 1, delays: [0, 3, 3] })), finiteNumbers);
    const s = spec([number, rejectsLate], number, (predict, _d, limit, xs) => predict(limit, pulls(sourcePrefix(xs, 2).values, 'open')));
    const r = await checkSpecAsync(s, dropsThenThrows, { seed: 3, trials: 20 });
    assert.equal(r.passed, false);
    assert.match(String((r.counterexample?.error?.thrown as Error | undefined)?.message), /its own throw/);
    for (let i = 0; i < 10; i++) await new Promise((done) => setImmediate(done));
    assert.deepEqual(seen, [], 'a rejection came after its case');
  });
});

test('a rejection no case made goes to the listeners the process had, which are back after the run, and a rejection a case left goes to none of them', { timeout: 60_000 }, async () => {
  await withOwnListener(async (seen, mine) => {
    const fromSpec = new Error('a rejection the spec left');
    let left = false;
    const s = spec([number, finiteNumbers], number, (predict, _d, limit, xs) => {
      if (!left) void Promise.reject(fromSpec);
      left = true;
      predict(limit, firstAbovePulls(limit, xs));
    });
    const r = await checkSpecAsync(s, firstAbove, { seed: 1 });
    assert.ok(leftUnhandled(r.counterexample) instanceof SourceError);
    assert.deepEqual(seen, [fromSpec]);
    assert.deepEqual(process.listeners('unhandledRejection'), [mine]);
  });
});
