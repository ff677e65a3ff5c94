/**
 * Rejections left unhandled are charged to the run and case whose function made them: two
 * asynchronous runs at once in one thread (a `Promise.all` of checks, tests run concurrently) do
 * not blame each other; a rejection that comes after its case ended but while its run goes on
 * fails that run naming the case, not the case running then; one no case can be told to have
 * made fails the runs open with an error saying so, never a function.
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSpecAsync, checkSpecExhaustiveAsync } from '../src/async-checks.ts';
import { checkSpec } from '../src/checks.ts';
import { SourceError } from '../src/iter/index.ts';
import { spec } from '../src/spec/spec.ts';
import { number } from '../src/demand/primitives.ts';
import { leftUnhandled, withOwnListener } from './fixtures/rejection-listeners.ts';
import { firstAbove, firstAboveHandled, firstAboveSpec } from './fixtures/unhandled-rejection-checks.ts';

/** A spec of a function of a number that forces it: numbers as they are, so that the function sees the inputs an error holds. */
const numbers = spec([number], number, (predict, _d, n) => predict(n));

test('two asynchronous checks run at once: the correct function passes while the other leaves rejections, which fail only its own run, with the counterexample it has alone', { timeout: 120_000 }, async () => {
  const alone = await checkSpecAsync(firstAboveSpec, firstAbove, { seed: 1 });
  const [bad, good, exhaustive] = await Promise.all([
    checkSpecAsync(firstAboveSpec, firstAbove, { seed: 1 }),
    checkSpecAsync(firstAboveSpec, firstAboveHandled, { seed: 1 }),
    checkSpecExhaustiveAsync(firstAboveSpec, firstAboveHandled, { depth: 3 }),
  ]);
  assert.equal(good.passed, true, good.message);
  assert.equal(exhaustive.passed, true, exhaustive.message);
  assert.ok(leftUnhandled(bad.counterexample) instanceof SourceError);
  assert.equal(bad.message, alone.message);
});

test('a rejection whose promise no case made, told while two runs are open, fails both with an error saying it could not be attributed and naming them, and blames neither function', { timeout: 60_000 }, async () => {
  // A promise made here, outside every run, which one of the functions rejects.
  let rejectElsewhere!: (e: Error) => void;
  const made = new Promise<void>((_, reject) => (rejectElsewhere = reject));
  const fromElsewhere = new Error('a promise made outside the runs');
  let calls = 0;
  const rejectsAPromiseMadeElsewhere = (limit: number, xs: AsyncIterable<number>) => {
    if (calls++ === 3) rejectElsewhere(fromElsewhere);
    return firstAboveHandled(limit, xs);
  };
  const handlesItsRejections = (limit: number, xs: AsyncIterable<number>) => firstAboveHandled(limit, xs);
  const runs = await Promise.allSettled([checkSpecAsync(firstAboveSpec, rejectsAPromiseMadeElsewhere, { seed: 1 }), checkSpecAsync(firstAboveSpec, handlesItsRejections, { seed: 1 })]);
  for (const r of runs) {
    assert.equal(r.status, 'rejected', 'the run did not fail');
    const err = (r as PromiseRejectedResult).reason as Error & { reason?: unknown };
    assert.equal(err.name, 'UnattributedRejectionError');
    assert.equal(err.reason, fromElsewhere);
    assert.match(err.message, /could not be attributed/);
    assert.match(err.message, /checkSpecAsync of rejectsAPromiseMadeElsewhere/);
    assert.match(err.message, /checkSpecAsync of handlesItsRejections/);
    assert.match(err.message, /a promise made outside the runs/);
  }
  void made;
});

/**
 * A function that, on its first call, leaves a timer that rejects a promise after its case has
 * ended; every later call waits for that timer before it answers, so that the rejection comes
 * while a later case runs.
 */
function leavesALateRejection(): (limit: number, xs: AsyncIterable<number>) => Promise<number> {
  let calls = 0;
  let fired!: () => void;
  const timerFired = new Promise<void>((resolve) => (fired = resolve));
  return async (limit, xs) => {
    if (calls++ === 0) {
      // The timer case 1 set, and the ones it sets, wait until case 2 has begun: after case 1 ended, however long it took.
      const late = () => {
        if (calls < 2) return void setTimeout(late, 1);
        void Promise.reject(new Error('a late rejection'));
        fired();
      };
      setTimeout(late, 1);
    } else await timerFired;
    return firstAboveHandled(limit, xs);
  };
}

test('a rejection a timer raises after its case ended, while the run goes on, fails the run naming the case that left it, not the case running then, and reaches no listener of the process', { timeout: 60_000 }, async () => {
  await withOwnListener(async (seen) => {
    for (const check of [
      () => checkSpecAsync(firstAboveSpec, leavesALateRejection(), { seed: 1 }),
      () => checkSpecExhaustiveAsync(firstAboveSpec, leavesALateRejection(), { depth: 3 }),
    ]) {
      const err = (await check().then(
        (r) => assert.fail(`the run did not fail: ${r.message}`),
        (e: unknown) => e,
      )) as Error & { reason?: Error; inputs?: readonly unknown[] };
      assert.equal(err.name, 'LateRejectionError', err.message);
      assert.equal(err.reason?.message, 'a late rejection');
      assert.match(err.message, /after its case ended/);
      assert.match(err.message, /It was left by a case of (checkSpecAsync|checkSpecExhaustiveAsync) of an anonymous function, on inputs /);
      assert.equal(err.inputs?.length, 2);
    }
    for (let i = 0; i < 10; i++) await new Promise((done) => setImmediate(done));
    assert.deepEqual(seen, []);
  });
});

test('a late rejection names the case whose function left it, not the case started last before it came: the second case leaves it, the fourth lets it come while it runs', { timeout: 60_000 }, async () => {
  const runs = [
    ['checkSpecAsync', (f: (n: number) => Promise<number>) => checkSpecAsync(numbers, f, { seed: 1 })],
    ['checkSpecExhaustiveAsync', (f: (n: number) => Promise<number>) => checkSpecExhaustiveAsync(numbers, f, { depth: 3 })],
  ] as const;
  for (const [name, check] of runs) {
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const seen: number[] = [];
    const leavesOne = async (n: number) => {
      const call = seen.push(n) - 1;
      // Made in the second case, rejected once the fourth opens the gate and lets the rejection be told, a turn later, while it runs.
      if (call === 1) void gate.then(() => Promise.reject(new Error('left by the second case')));
      if (call === 3) {
        openGate();
        await new Promise((r) => setImmediate(r));
      }
      return n;
    };
    const err = (await check(leavesOne).then(
      (r) => assert.fail(`${name}: the run did not fail: ${r.message}`),
      (e: unknown) => e,
    )) as Error & { inputs?: readonly unknown[] };
    assert.equal(err.name, 'LateRejectionError', err.message);
    assert.notEqual(seen[1], seen[3], `${name}: the second and fourth cases have inputs of their own`);
    assert.deepEqual(err.inputs, [seen[1]], `${name}: ${err.message}`);
    assert.match(err.message, new RegExp(`It was left by a case of ${name} of leavesOne, on inputs ${seen[1]},`));
  }
});

test('a rejection left by a case of a run that has ended goes to the listeners of the process, even while another run is open, which it does not fail', { timeout: 60_000 }, async () => {
  await withOwnListener(async (seen) => {
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const afterTheRun = new Error('made by the first run, told after it ended');
    let calls = 0;
    // Its first call leaves a rejection for when the gate opens.
    const leavesOne = (limit: number, xs: AsyncIterable<number>) => {
      if (calls++ === 0) void gate.then(() => Promise.reject(afterTheRun));
      return firstAboveHandled(limit, xs);
    };
    const first = await checkSpecAsync(firstAboveSpec, leavesOne, { seed: 1 });
    assert.equal(first.passed, true, first.message);
    // The second run opens the gate in its first case.
    let opened = false;
    const opensTheGate = (limit: number, xs: AsyncIterable<number>) => {
      if (!opened) openGate();
      opened = true;
      return firstAboveHandled(limit, xs);
    };
    const second = await checkSpecAsync(firstAboveSpec, opensTheGate, { seed: 1 });
    assert.equal(second.passed, true, second.message);
    assert.deepEqual(seen, [afterTheRun]);
  });
});

test('a synchronous function that leaves a rejection fails its case under checkSpecAsync, shrunk to the input that leaves it; under checkSpec, which returns before Node tells it, the rejection goes to the process, not lost', { timeout: 60_000 }, async () => {
  const leaves = (n: number) => {
    if (n > 2) void Promise.reject(new Error(`left on ${n}`));
    return n;
  };
  const r = await checkSpecAsync(numbers, leaves, { seed: 1 });
  assert.equal(r.passed, false);
  assert.deepEqual(r.counterexample!.inputs, [3]);
  assert.equal((leftUnhandled(r.counterexample) as Error).message, 'left on 3');
  await withOwnListener(async (seen) => {
    assert.equal(checkSpec(numbers, leaves, { seed: 1 }).passed, true);
    await new Promise((r) => setImmediate(r));
    assert.ok(seen.length > 0 && seen.every((e) => /^left on \d+$/.test((e as Error).message)), `the process was told: ${seen.length}`);
  });
});
