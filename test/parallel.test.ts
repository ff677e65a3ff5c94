import { existsSync, rmSync, writeFileSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { strictProperty } from '../src/spec/property.ts';
import { StrictCheckFailure } from '../src/spec/result.ts';
import { sizeOf, trialCase } from '../src/spec/trial-case.ts';
import { defineCheck } from '../src/spec/registry.ts';
import { shardIndices } from '../src/spec/shard.ts';
import { WorkerCrashError } from '../src/parallel/errors.ts';
import type { ParallelCheckResult } from '../src/parallel/random.ts';
import { take, takePrime, takeSpec, takeSpecFirstAttempt } from '../examples/take.ts';
import { ExhaustiveCheckFailure } from '../src/spec/exhaustive.ts';
import { prettyValue } from '../src/demand/print.ts';
import { ShapeMismatchError } from '../src/demand/shape-errors.ts';
import { mismatchOf } from './fixtures/assertions.ts';
import { bothExhaustive } from './fixtures/both-exhaustive.ts';
import { bigCheck, budgetCheck, crashCheck, headLateCheck, lateCrashCheck, misfitCheck, noLazierCheck, noLazierFnCheck, rotNaiveCheck, takeCheck, takeFirstAttemptCheck, takePrimeCheck } from './fixtures/checks.ts';
import { secondCellCheck, secondCellCrashed, secondCellFlag } from './fixtures/second-cell.ts';
import { assertSpecExhaustive, checkSpec, checkSpecExhaustive, strictCheckSpecExact } from '../src/checks.ts';

const same = (a: { message: string; trials: number; shrinks: number; passed: boolean }, b: typeof a) => {
  assert.equal(b.passed, a.passed);
  assert.equal(b.trials, a.trials);
  assert.equal(b.shrinks, a.shrinks);
  assert.equal(b.message, a.message);
};

test("2 workers find the sequential counterexample of take' and take's first attempt (same seed)", async () => {
  // A failure found late, its trial told from the stripes, is the next test's bigCheck.
  for (const c of [takePrimeCheck, takeFirstAttemptCheck]) {
    for (const seed of [7]) {
      const opts = { seed, unicode: false };
      same(checkSpec(c.spec, c.fn, opts), await checkSpec(c.spec, c.fn, { ...opts, workers: 2 }));
    }
  }
});

test('deterministic parallel shrinking equals sequential shrinking', async () => {
  for (const c of [takePrimeCheck, takeFirstAttemptCheck]) {
    for (const seed of [3, 25]) {
      const opts = { seed, unicode: false, trials: 1, maxSize: 25 };
      const s = checkSpec(c.spec, c.fn, opts);
      assert.ok(s.shrinks > 0);
      same(s, await checkSpec(c, { ...opts, workers: 2, shrinking: 'deterministic' }));
    }
  }
  // A failure found late (n >= 8) that shrinks in many steps.
  const opts = { seed: 5, unicode: false };
  const s = checkSpec(bigCheck.spec, bigCheck.fn, opts);
  assert.ok(s.trials > 2 && s.shrinks > 2, `trials ${s.trials}, shrinks ${s.shrinks}`);
  same(s, await checkSpec(bigCheck.spec, bigCheck.fn, { ...opts, workers: 2 }));
  // Greedy shrinking also ends with a failing, locally minimal case of the same trial.
  const g = await checkSpec(bigCheck.spec, bigCheck.fn, { ...opts, workers: 2, shrinking: 'greedy' });
  assert.equal(g.passed, false);
  assert.equal(g.trials, s.trials);
  assert.match(g.message, /spec does not match/);
});

test('a passing check passes with workers, counting each trial once', async () => {
  const seen: number[] = [];
  const r = (await checkSpec(takeCheck.spec, takeCheck.fn, { seed: 9, workers: 2, onTrial: (i) => seen.push(i) })) as ParallelCheckResult;
  assert.equal(r.passed, true);
  assert.equal(r.trials, 100);
  assert.equal(r.executed, 100);
  assert.deepEqual(seen, Array.from({ length: 100 }, (_, i) => i));
  await strictCheckSpecExact(takeCheck.spec, takeCheck.fn, { seed: 9, workers: 2, trials: 20 });
  await assert.rejects(strictCheckSpecExact(takePrimeCheck.spec, takePrimeCheck.fn, { seed: 9, workers: 2 }), StrictCheckFailure);
});

test('shards 1/2 and 2/2 partition the trials of the unsharded run', async () => {
  const run = (shard?: string) => {
    const seen: number[] = [];
    const r = checkSpec(takeSpec, take, { seed: 11, trials: 37, ...(shard ? { shard } : {}), onTrial: (i) => seen.push(i) });
    assert.equal(r.passed, true);
    assert.equal(r.trials, seen.length);
    return seen;
  };
  const all = run();
  const a = run('1/2');
  const b = run('2/2');
  assert.equal(all.length, 37);
  assert.equal(a.length + b.length, all.length);
  assert.deepEqual([...a, ...b].sort((x, y) => x - y), all);
  assert.ok(a.every((i) => i % 2 === 0) && b.every((i) => i % 2 === 1));
  assert.deepEqual(shardIndices(10, '3/3'), [2, 5, 8]);
  assert.throws(() => shardIndices(10, '0/3'), /shard/);
  // With workers too.
  const seen: number[] = [];
  await checkSpec(takeCheck.spec, takeCheck.fn, { seed: 11, trials: 37, shard: '2/2', workers: 2, onTrial: (i) => seen.push(i) });
  assert.deepEqual(seen, b);
  // A failure in a shard names the shard to reproduce it.
  const f = checkSpec(takeSpec, takePrime, { seed: 11, shard: '1/3' });
  assert.match(f.message, /shard: '1\/3'/);
});

test('a worker that crashes is replaced and its trial reported', async () => {
  const r = (await checkSpec(crashCheck.spec, crashCheck.fn, { seed: 42, workers: 2, timeout: 2000, maxSize: 10, maxShrinkTimeouts: 0, unicode: false })) as ParallelCheckResult;
  assert.equal(r.passed, false);
  assert.ok(r.counterexample?.error?.thrown instanceof WorkerCrashError);
  assert.match(r.message, /boom in a timer/);
  assert.equal(r.message.match(/\| \* \(unknown: the worker crashed\) +\| +\| \* \(not asked: the worker crashed\) \|/g)?.length, 2, r.message);
  assert.ok(r.workersStarted > 2, `workers started: ${r.workersStarted}`);
  // The crashing trial is the first whose n is 3, whichever worker ran it.
  const n = (i: number) => (trialCase(crashCheck.spec as never, 42, i, sizeOf(i, 100, 10)).inputs[0] as { force(): number }).force();
  const first = Array.from({ length: 100 }, (_, i) => i).find((i) => n(i) === 3)!;
  assert.equal(r.trials, first + 1);
});

test('a crash from a timer an earlier trial set is blamed on no trial', async () => {
  await assert.rejects(
    checkSpec(lateCrashCheck, { seed: 1, workers: 1, timeout: 2000 }),
    (e: Error) => e instanceof WorkerCrashError && /no trial can be blamed: run again alone in a fresh worker/.test(e.message) && /late timer/.test(e.message),
  );
});

test('a trial that fails on its own while an earlier trial crashes its worker is reported as the sequential run reports it', async () => {
  // Trials 1 and 2 pass; the timer the second set throws during the third, which fails (run again alone in a fresh worker, on its own).
  const opts = { seed: 7, trials: 3, maxShrinkAttempts: 0, unicode: false };
  const s = checkSpec(headLateCheck.spec, headLateCheck.fn, opts);
  assert.equal(s.trials, 3);
  const r = await checkSpec(headLateCheck, { ...opts, workers: 1, timeout: 2000 });
  same(s, r);
  // The batched run's worker crashed: the trials ran again one a request, in a fresh worker, which the timer crashed too.
  assert.equal(r.workersStarted, 3, 'the timer crashed the batch and the first worker of the trials run one at a time');
});

test('a crash while a worker waits is not charged to the shrink candidate it runs next: deterministic shrinking equals sequential', async () => {
  // Trial 1 fails in one worker, which crashes at the message this test sends it once its reply is in (see secondCell); trial 0, in the
  // other, waits until that crash is handled (this test's 'exit' listener runs after the run's own). So, whatever the timing, the worker
  // crashes while it waits, and the crash is handed to its slot's next request: candidate 1, the one shrinking takes.
  const files = [secondCellFlag, secondCellCrashed];
  let crashedBeforeTrial0: boolean | undefined;
  const watch = (w: Worker) => {
    w.on('message', (m: { type?: string; failed?: boolean }) => {
      if (m.type === 'reply' && m.failed) w.postMessage({ type: 'poke' });
      if (m.type === 'reply' && m.failed === false) crashedBeforeTrial0 ??= existsSync(secondCellCrashed);
    });
    w.once('exit', () => writeFileSync(secondCellCrashed, ''));
  };
  for (const f of files) rmSync(f, { force: true });
  try {
    const opts = { seed: 28, maxSize: 300, maxShrinkAttempts: 2, unicode: false };
    const s = checkSpec(secondCellCheck.spec, secondCellCheck.fn, opts);
    assert.equal(s.trials, 2);
    assert.equal(s.shrinks, 1);
    process.on('worker', watch);
    const r = await checkSpec(secondCellCheck, { ...opts, workers: 2 });
    same(s, r);
    assert.equal(r.workersStarted, 3, 'the crash replaced a worker');
    assert.equal(crashedBeforeTrial0, true, 'the worker crashed while it waited, before shrinking began');
  } finally {
    process.off('worker', watch);
    for (const f of files) rmSync(f, { force: true });
  }
});

test("defineCheck's comparison, a function too, is that of the check's own runs, with and without workers; a call's overrides it", async () => {
  const opts = { seed: 4, unicode: false };
  for (const c of [noLazierCheck, noLazierFnCheck]) {
    const own = await checkSpec(c, opts);
    assert.equal(own.passed, true);
    same(own, await checkSpec(c, { ...opts, workers: 2 }));
    const exact = await checkSpec(c, { ...opts, compare: 'exact' });
    assert.equal(exact.passed, false);
    same(exact, await checkSpec(c, { ...opts, compare: 'exact', workers: 2 }));
    // the exhaustive mode too (compared exactly, it fails at depth 1)
    assert.equal((await checkSpecExhaustive(c, { depth: 2 })).passed, true);
    assert.equal((await checkSpecExhaustive(c, { depth: 2, workers: 2 })).passed, true);
    assert.equal((await checkSpecExhaustive(c, { depth: 2, compare: 'exact' })).passed, false);
  }
});

test("defineCheck's comparison does not change other runs of the same spec and function: they compare as their own options say", async () => {
  const opts = { seed: 4, unicode: false };
  for (const c of [noLazierCheck, noLazierFnCheck]) {
    const alone = checkSpec(c.spec, c.fn, opts);
    assert.equal(alone.passed, false);
    same(alone, await checkSpec(c.spec, c.fn, { ...opts, workers: 2 }));
    assert.equal(checkSpecExhaustive(c.spec, c.fn, { depth: 3 }).passed, false);
    assert.equal(fc.check(strictProperty(c.spec, c.fn), { seed: 4 }).failed, true);
    assert.equal(fc.check(strictProperty(c.spec, c.fn, { compare: 'noLazier' }), { seed: 4 }).failed, false);
  }
  // Another check of the same spec and function, with another comparison: each has its own.
  const exactAgain = defineCheck(import.meta.url, 'noLazierExact', noLazierCheck.spec, noLazierCheck.fn, { compare: 'exact' });
  assert.equal((await checkSpec(exactAgain, opts)).passed, false);
  assert.equal((await checkSpec(noLazierCheck, opts)).passed, true);
});

test('an unregistered spec and function with workers gives an error that says what to do', async () => {
  await assert.rejects(checkSpec(takeSpecFirstAttempt, takePrime, { workers: 2 }), (e: Error) => /defineCheck\(import\.meta\.url/.test(e.message) && /top level of a module/.test(e.message));
  await assert.rejects(checkSpec(takeCheck.spec, takeCheck.fn, { workers: 2, compare: () => true }), /defineCheck\(\.\.\., \{ compare \}\) and run the check itself/);
});

test('exhaustive with 2 workers: the counts and the first counterexample of the sequential run', async () => {
  assert.equal((await bothExhaustive(takeCheck, { depth: 3 })).cases, 367);
  // take' fails at depth 0, rot_naive at depth 1 with figure 4's counterexample, take with a small force budget at depth 2.
  assert.equal((await bothExhaustive(takePrimeCheck, { depth: 4 })).depth, 0);
  assert.deepEqual((await bothExhaustive(rotNaiveCheck, { depth: 3 })).counterexample!.inputs.map((v) => prettyValue(v)), ['0 : []', '[]']);
  assert.match((await bothExhaustive(budgetCheck, { depth: 4, forceBudget: 1000 })).message, /depth 2, .*\n[^]*made more than 1000 forces of thunks and pulls of iterators/);
  await assert.rejects(assertSpecExhaustive(takePrimeCheck.spec, takePrimeCheck.fn, { depth: 2, workers: 1 }), ExhaustiveCheckFailure);
});

test('exhaustive shards with 2 workers: the results of the sequential shards', async () => {
  // Take's shard 2/2 at depth 5, the least depth at which a shard of it leaves subtrees to the workers (1,027; none at depth 4).
  // Only it: the workers run the pieces of a part as they run any (nothing there tells one shard from another), and the
  // sequential shards partition the cases (test/exhaustive.test.ts).
  assert.equal((await bothExhaustive(takeCheck, { depth: 5, shard: '2/2' })).cases, 13073);
  // One after the other: at once, they would start workers beside those the last run left idle.
  const failing = [await bothExhaustive(rotNaiveCheck, { depth: 3, shard: '1/2' }), await bothExhaustive(rotNaiveCheck, { depth: 3, shard: '2/2' })];
  assert.ok(failing.some((r) => r.depth === 1 && r.counterexample!.inputs.map((v) => prettyValue(v)).join() === '0 : [],[]'));
});

test('with workers, a result that does not fit its shape is the same ShapeMismatchError as without, naming its trial and inputs', async () => {
  const opts = { seed: 3, trials: 300 };
  const s = mismatchOf(() => checkSpec(misfitCheck.spec, misfitCheck.fn, opts));
  assert.match(s.message, /at result: expected a Lazy, got number 5 \(trial \d+, seed 3, trials 300, inputs 4, /);
  await assert.rejects(checkSpec(misfitCheck, { ...opts, workers: 2 }), (err: unknown) => err instanceof ShapeMismatchError && err.message === s.message);
});
