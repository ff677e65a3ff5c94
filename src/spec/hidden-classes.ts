/**
 * The samples {@link keepHiddenClasses} keeps alive (see `../lazy/v8.ts`), all in one place: one of
 * each class of the hot paths whose instances may all be dropped between two runs, which a full
 * collection would otherwise free the hidden classes of, and V8 the optimised code that checked
 * for them. Made here, above every layer they come from, and loaded by the running of a case
 * (`run-case.ts`), which every mode and every worker loads.
 * @module
 */
import fc from 'fast-check';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { keepHiddenClasses } from '../lazy/v8.ts';
import { CoverageTally } from './coverage.ts';
import { ScaledBudget } from './trial-budget.ts';
import { Cons, nil } from '../lazy/cell.ts';
import { demandHolder, unforced } from '../demand/demand.ts';
import { DYN2, dynamic } from '../demand/dynamic.ts';
import { mapCtor } from '../demand/collections.ts';
import { Heads, LazyPrimNode, startSpine, StrictPrimNode } from '../demand/compact-demand.ts';
import { BuildItems, Built, SharedValues, SpineLater, Unread } from '../demand/convert.ts';
import { PathCycle, PathMark } from '../demand/cycles.ts';
import { Frame, Recording, SpineRecorder } from '../demand/instrument.ts';
import { inputCell } from '../demand/input-cell.ts';
import { ObservationRun, whnf } from '../demand/observe.ts';
import { RecordSite } from '../demand/record-site.ts';
import { Handoff } from '../demand/record.ts';
import { Case, CaseTree, type CaseNode } from '../engine/enumerate.ts';
import { Random, Seed } from '../engine/random.ts';
import { Hole, leaf, Refine } from '../engine/series.ts';
import { Closable, IterableRecord, IterationLog, RecordedIterable, RecordedIterator, Returnable, SyncSourceRecord, Throwable } from '../iter/observe.ts';
import { AsyncClosable, AsyncReturnable, AsyncSourceRecord, AsyncThrowable, RecordedAsyncIterable, RecordedAsyncIterator } from '../iter/async-observe.ts';
import { AsyncSource } from '../iter/source.ts';
import { generateSource } from '../iter/generate.ts';
import { AsyncWork } from '../demand/async-work.ts';

// A program may hold no cell between two runs over lists (a check's trials, say); nor any of the
// frozen cells an observed function is given, whose hidden class is one of their own.
keepHiddenClasses(new Cons(nil, nil), inputCell(nil, nil, { changed: () => new Error() }));

// Each trial's force budget, scaled by its inputs, is dropped with the trial.
keepHiddenClasses(new ScaledBudget([]));

// A walk's own objects, and a demand's nodes, may all be dropped between walks.
keepHiddenClasses(new Handoff(undefined), new PathCycle(demandHolder(), 0, 'value'), startSpine(demandHolder(), 0), new LazyPrimNode(''), new StrictPrimNode(''), new Heads());

// An observation's own objects are all dropped when it ends (a check makes one observation per trial).
{
  keepHiddenClasses(new ObservationRun(whnf, () => undefined, [], {}));
  const rec = new Recording();
  const holder = rec.root('value');
  keepHiddenClasses(rec, new SpineRecorder(rec, startSpine(holder, 0), dynamic, DYN2, 'value'), new Frame({}, dynamic.project({}, null), holder, null, holder, 0, undefined), new PathMark());
}

// A build's own objects live only while it runs (a spec's result demand is built on every trial).
keepHiddenClasses(new Unread(unforced, dynamic, false, true), new SpineLater(startSpine(demandHolder(), 0), dynamic, true), new SharedValues<unknown>(), new BuildItems<unknown>(unforced, undefined, undefined, new SharedValues<unknown>()), new Built(''));

// Every trial makes its own seeds and streams (pure-rand's generator among them), and drops them.
keepHiddenClasses(Seed.of(0), new Random(xoroshiro128plus(0)));

// fast-check's Random and Value, made for each value generated and dropped after the trial.
{
  const random = new fc.Random(Seed.of(0).stream().rng);
  keepHiddenClasses(random, fc.constant('').generate(random, 0));
}

// A run's coverage tally.
keepHiddenClasses(new CoverageTally(1));

// A context's sites live only while it runs (a check's random context makes one per field it forces).
keepHiddenClasses(RecordSite.root(undefined, dynamic, 'value', demandHolder(), 0));

// The enumeration's holes, refinements and skeletons are all dropped when a run ends.
keepHiddenClasses(new Refine(new Hole(dynamic, 0, '')), leaf(''), { k: 'lazy', inner: leaf('') }, { k: 'node', ctor: mapCtor(0), fields: [] });

// An enumeration's trees, cases and nodes are all dropped when it ends.
{
  const node: CaseNode = { inputs: [], prefix: [], parent: undefined, index: 0 };
  keepHiddenClasses(new CaseTree([], 0), new Case('', node), node);
}

// An observation's copies of sources, their iterators and logs are all dropped when it ends: kept,
// a full collection no longer throws away the code of every loop pulling through one (the first two
// observations of a source of 10^5 numbers after one took 25 ms each instead of 7.5).
{
  const holder = demandHolder();
  const source = new SyncSourceRecord([0], dynamic, dynamic, null, holder, 0, new Recording());
  const log = new IterationLog(new IterableRecord(holder, 0, dynamic), 0);
  log.pulledPrimitive(0);
  keepHiddenClasses(source, new RecordedIterable(source), log, ...[RecordedIterator, Returnable, Throwable, Closable].map((Kind) => new Kind([0][Symbol.iterator](), log, source)));
  // An async one's copy and iterators too, of a generated source, each kind (with return, throw, both or neither).
  const asyncSource = new AsyncSourceRecord(new AsyncSource({ elements: [0], infinite: false, hasReturn: true, delays: [] }), dynamic, dynamic, null, holder, 0, new Recording(), new AsyncWork(0));
  const real = new AsyncSource({ elements: [0], infinite: false, hasReturn: true, delays: [] })[Symbol.asyncIterator]();
  keepHiddenClasses(asyncSource, new RecordedAsyncIterable(asyncSource), ...[RecordedAsyncIterator, AsyncReturnable, AsyncThrowable, AsyncClosable].map((Kind) => new Kind(real, log, asyncSource)));
}

// A check's generated sources, their plans and their iterations are all dropped with their trial:
// one of each kind a generator makes (throwing, cycling, without return, with one that throws).
for (let i = 0; i < 64; i++) {
  const source = generateSource(dynamic, Seed.of(i).stream(), 3, () => 0, false);
  keepHiddenClasses(source, source[Symbol.iterator](), source.iterator());
}
