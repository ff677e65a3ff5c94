/**
 * Okasaki's queue (paper, section 5): the incremental rotation `rot`, the naive `fs ++ reverse bs`,
 * their specs (figure 5), the counterexample that tells them apart (figure 4), and what the
 * difference is worth: a bounded amount of work per queue operation, even when old versions of
 * the queue are used again.
 *
 * `rot fs bs` and `rotNaive fs bs` compute the same list; no test of values can tell them apart.
 * They differ in strictness: `rot` forces one cell of `bs` for every cell of the result, so the
 * reversal of `bs` is spread over the operations that use the queue; `rotNaive` leaves `bs` alone
 * until `fs` runs out, then reverses it all at once.
 *
 * The code is in `examples/okasaki-queue/`: `rot.ts` (rotations and specs), `queue.ts` (the
 * queues), `cost.ts` (counting work), `okasaki.test.ts` (the tests).
 *
 * Run it alone: `npm start -- 3` (section 3 of `npm start`).
 * @module
 */
import { thunk } from '../src/lazy/lazy.ts';
import { nil, type List } from '../src/lazy/cell.ts';
import * as L from '../src/lazy/list.ts';
import { toDemand } from '../src/demand/convert.ts';
import { observe, toContext } from '../src/demand/observe.ts';
import { prettyDemand } from '../src/demand/print.ts';
import type { CheckOptions } from '../src/spec/options.ts';
import { rot, rotNaive, rotSimpleSpec, rotSpec, rotSpecFirstAttempt } from './okasaki-queue/rot.ts';
import { Naive, Queue, QueueOnRotNaive } from './okasaki-queue/queue.ts';
import { measure } from './okasaki-queue/cost.ts';
import { Tally, type Outcome } from './observe-basics.ts';

type Rot = (fs: List<number>, bs: List<number>) => List<number>;

/** Observes a rotation on `fs`, `bs` under the result demand `d` (in value form). */
function observeRot(f: Rot, fs: number[], bs: number[], d: List<number>) {
  const obs = observe(toContext(toDemand(d)), f, L.fromArray(fs), L.fromArray(bs));
  return { result: prettyDemand(obs.result), fs: prettyDemand(obs.inputs[0]!), bs: prettyDemand(obs.inputs[1]!) };
}

/** The demand `x1 : x2 : ... : _` (or `... : []` when `end` is nil). */
const demandOf = (xs: number[], end: List<number> = thunk): List<number> => xs.reduceRight((tail, x) => L.cons(x, tail), end);

/** The steps of `body` (see okasaki-queue/cost.ts). */
const steps = (body: () => unknown) => measure(body)[1].steps;

export function run(log?: (line: string) => void): Outcome {
  const t = new Tally(log);
  const options: CheckOptions = { seed: 2018, trials: 300 };

  t.say(
    'rot fs bs = rotate fs bs []       (Okasaki: one step of the reversal per cell of the result)',
    'rotNaive fs bs = fs ++ reverse bs (the same list; bs untouched until fs runs out)',
    '',
    "The paper's tables, fs = [1, 2, 3], bs = [6, 5, 4] (the result is [1, 2, 3, 4, 5, 6]):",
  );
  const table: [string, number[], number[], List<number>, { naive: [string, string]; rot: [string, string] }][] = [
    ['1 : 2 : _', [1, 2, 3], [6, 5, 4], demandOf([1, 2]), { naive: ['1 : 2 : _', '_'], rot: ['1 : 2 : _', '_ : _ : _'] }],
    ['1 : 2 : 3 : 4 : _', [1, 2, 3], [6, 5, 4], demandOf([1, 2, 3, 4]), { naive: ['1 : 2 : 3 : []', '_ : _ : 4 : []'], rot: ['1 : 2 : 3 : []', '_ : _ : 4 : []'] }],
  ];
  for (const [label, fs, bs, d, expected] of table) {
    t.say(`  result demand ${label}:`);
    const n = observeRot(rotNaive, fs, bs, d);
    t.same('rotNaive: fs', n.fs, expected.naive[0]);
    t.same('rotNaive: bs', n.bs, expected.naive[1]);
    const r = observeRot(rot, fs, bs, d);
    t.same('rot:      fs', r.fs, expected.rot[0]);
    t.same('rot:      bs', r.bs, expected.rot[1]);
  }
  t.say('  fs = [1, 2, 3], bs = [], result demand 1 : 2 : 3 : [] (everything, down to the final []):');
  const full = demandOf([1, 2, 3], nil);
  const n3 = observeRot(rotNaive, [1, 2, 3], [], full);
  t.same('rotNaive: fs', n3.fs, '1 : 2 : 3 : []');
  t.same('rotNaive: bs', n3.bs, '[]');
  const r3 = observeRot(rot, [1, 2, 3], [], full);
  t.same('rot:      fs', r3.fs, '1 : 2 : 3 : []');
  t.same('rot:      bs', r3.bs, '[]');
  t.say(
    '  Demanding two cells of the result, rot has forced two cells of bs (one per step of rotate),',
    '  without their elements; rotNaive none. Past fs, both have forced all of bs.',
    '',
    'The spec of rotNaive (rot_simple_spec, figure 5 left), and the spec of rot (rot_spec, figure 5 right),',
    'which also predicts "one cell of bs per cell of the result, even if no element is demanded":',
  );
  t.check('checkSpec(rotSimpleSpec, rotNaive)', rotSimpleSpec, rotNaive, 'pass', options);
  t.check('checkSpec(rotSpec, rot)', rotSpec, rot, 'pass', options);
  t.say('', 'The naive rotation against the spec of rot (figure 4):');
  t.check('checkSpec(rotSpec, rotNaive)', rotSpec, rotNaive, 'fail', options, {
    inputs: ['0 : []', '[]'],
    resultDemand: '_ : _',
    actual: ['_ : _', '_'],
    predicted: ['_ : _', '[]'],
  });
  t.say(
    '  rot 0:[] [] forces bs on its first step (rotate matches on fs, then on bs); rotNaive does not.',
    '',
    "The paper's text first writes rot_spec without its middle case, and says its counterexamples all",
    'have length bs > length fs, outside the queue invariant. In fact they all have length bs < length fs',
    '(checked on every fs, bs of up to 5 elements under every result demand), e.g. rot [0] []:',
  );
  t.check('checkSpec(rotSpecFirstAttempt, rot)', rotSpecFirstAttempt, rot, 'fail', options, {
    inputs: ['0 : []', '[]'],
    resultDemand: '_ : _',
    actual: ['_ : _', '[]'],
    predicted: ['_ : _', '_ : _'],
  }, 'fails, as the paper says it does, but inside the invariant');
  t.say(
    '  The attempt predicts a cons of bs for each cell of the result even when bs has fewer cells.',
    '  Figure 5 adds the case "length (cap resultDemand) > length bs": then all of bs, down to [].',
    '',
    'The queues (examples/okasaki-queue/queue.ts): Okasaki\'s real-time queue on rot, the same queue',
    'code on rotNaive, and the naive two-list queue. All three hold the same elements:',
  );
  for (const K of [Queue, QueueOnRotNaive, Naive]) {
    const q = K.of(1, 2, 3, 4, 5).tail().snoc(6);
    t.same(`${K.name}:`, JSON.stringify(q.toArray()), '[2,3,4,5,6]');
  }
  t.say(
    '',
    'Their cost differs. A "step" is one look at a lazy cell or element (a call of force(), evaluated',
    'or not; okasaki-queue/cost.ts). Build a queue with n snocs, then uncons that SAME version 10',
    'times and look at the next element each time (persistent use). Steps per repetition:',
    '',
    '        n   Okasaki (rot)   naive two-list',
  );
  let bounded = true;
  for (const n of [16, 256, 4096]) {
    const xs = Array.from({ length: n }, (_, i) => i);
    const ok = Queue.of(...xs);
    const nv = Naive.of(...xs);
    const okSteps = Array.from({ length: 10 }, () => steps(() => ok.uncons()![1].head()));
    const nvSteps = Array.from({ length: 10 }, () => steps(() => nv.uncons()![1].head()));
    const range = (a: number[]) => (Math.min(...a) === Math.max(...a) ? `${a[0]}` : `${Math.min(...a)}-${Math.max(...a)}`);
    t.say(`    ${String(n).padStart(5)}   ${range(okSteps).padStart(13)}   ${range(nvSteps).padStart(14)}`);
    bounded &&= okSteps.every((s) => s <= 11) && nvSteps.every((s) => s >= n - 1);
  }
  t.fact('Okasaki: at most 11 steps every time; naive: at least n - 1 steps every time', bounded);
  t.say(
    '  The naive queue reverses its back list inside uncons; the reversal lives in the new version only,',
    "  so every use of the old version does it again: memoisation cannot help. Okasaki's queue stores",
    '  its pending rotation in the version, as thunks that every later version shares, and every',
    '  operation forces one cell of it: at most a constant amount of work, whatever version it is given.',
    '',
    'The same real-time queue code on rotNaive: uncons a queue of n = 1023 elements to the end,',
    'the most steps one uncons takes:',
  );
  const worst = (K: typeof Queue) => {
    let q = K.of(...Array.from({ length: 1023 }, (_, i) => i));
    let max = 0;
    while (!q.isEmpty()) {
      const [u, c] = measure(() => q.uncons()!);
      max = Math.max(max, c.steps);
      q = u[1];
    }
    return max;
  };
  const worstOk = worst(Queue);
  const worstNaiveRot = worst(QueueOnRotNaive);
  t.say(`    Okasaki (rot): ${worstOk}      on rotNaive: ${worstNaiveRot}`);
  t.fact('on rotNaive one uncons pays for a whole reverse (> 256 steps); on rot none takes more than 11', worstNaiveRot > 256 && worstOk <= 11);
  t.say(
    '  There memoisation does help (the reverse is a thunk stored in the version, so it is paid once',
    '  whichever versions use it), yet the operation that forces it pays O(n). Only the strictness of',
    '  rot, which rotSpec pins down, makes every operation cheap.',
  );
  return t.outcome();
}

