/**
 * `npm run repl`: a Node REPL with the whole library (src/index.ts) and the paper's examples in
 * scope. Demands, lazy values and queues print in demand notation (`_` for unevaluated); check
 * results print as their report (the diagram of a counterexample). Type `.strictcheck` for help.
 *
 * Input is JavaScript (no type annotations). Every example of docs/tutorial.md can be typed here.
 * @module
 */
import repl from 'node:repl';
import { inspect } from 'node:util';
import fc from 'fast-check';
import * as strictcheck from './src/index.ts';
import * as takeExamples from './examples/take.ts';
import * as rotExamples from './examples/okasaki-queue/rot.ts';
import * as queues from './examples/okasaki-queue/queue.ts';
import * as costs from './examples/okasaki-queue/cost.ts';
import * as listSpecs from './examples/list-specs.ts';
import * as observeBasics from './examples/observe-basics.ts';
import * as rotTour from './examples/rot.ts';
import * as exhaustiveTour from './examples/exhaustive.ts';

const help = `strictcheck REPL: the library and the paper's examples are in scope (JavaScript, no type annotations).

  Lazy values     lazy(() => 1 + 2), now(3), thunk, isThunk(x), force(x), forceCount()
  Lazy lists      fromArray([1, 2]), fromString("abc"), cons(1, nil), List.take(2, xs), List.reverse(xs), ...
                  cap(d), isCapped(d), numCtrForced(d)
  Shapes          number, string, list(number), lazyOf(number), tuple(...), record({...}), data(...), fn([...], r)
  Observing       observe1(whnf, List.reverse, fromString("abc"))
                  observe(normalize, (xs, ys) => List.zipWith((a, b) => a * b, xs, ys), fromArray([10, 20]), fromArray([30, 40]))
                  toContext(toDemand(cons(thunk, thunk)))  (a context from a demand), prettyDemand(d), printDemand(d)
  Specs           spec([list(number)], list(number), (predict, d, xs) => predict(...)), specify1(f, d, x)
  Checking        checkSpec(takeSpec, takePrime, { seed: 2018, trials: 300 })   (prints the report)
                  strictCheckSpecExact(rotSpec, rot)                             (throws on failure)
  take (sec. 2)   take, takePrime, takeSpec, takeSpecFirstAttempt   (n is lazy: take(now(2), xs))
  rot (sec. 5)    rot, rotate, rotNaive, rotSpec, rotSimpleSpec, rotSpecFirstAttempt
  queues          Queue.of(1, 2, 3), Queue.empty().snoc(1), Naive.of(...), QueueOnRotNaive.of(...)
                  q.snoc(x), q.uncons(), q.head(), q.tail(), q.size, q.toArray()
                  measure(() => q.uncons()) -> [result, { steps, evaluations }]; cost(() => ...)
  map (sec. 6.3)  map, mapStrict, mapSpec, mapSpecStrictFunctions, elementFn; showcase()  (list-specs.ts)
                  ListSpecs.{length, append, reverse, zip, lengthSpec, appendSpec, reverseSpec, zipSpec, ...}
  Exhaustively    checkSpecExhaustive(takeSpec, takePrime, { depth: 4 })   (every case up to a depth)
  Reference       checkSameStrictness([lazyOf(number), list(number)], list(number), take, takePrime)   (no spec: as strict as take?)
  Inferring       inferSpec([lazyOf(number), list(number)], list(number), take)   (proposes specs, as code and sentences)
  fast-check      fc.assert(strictProperty(takeSpec, takePrime))   (fast-check's runner; its report holds the diagram)
  Tours           tour.observe(), tour.takeSpecs(), tour.rot(), tour.exhaustive()   (the sections of npm start)

  A check result prints as its report; its fields are there too: _.counterexample, _.seed, ...
  .strictcheck    this help          .help    the REPL's own commands`;

/** A random (`seed`) or exhaustive (`depth`) check result, or an inferred spec's (`proposals`): printed as its report; everything else as util.inspect does (demands in demand notation). */
function isCheckResult(x: unknown): x is { readonly message: string } {
  if (typeof x !== 'object' || x === null || typeof (x as { message?: unknown }).message !== 'string') return false;
  return (typeof (x as { passed?: unknown }).passed === 'boolean' && ('seed' in x || 'depth' in x)) || 'proposals' in x;
}

const context: Record<string, unknown> = {
  ...strictcheck,
  fc,
  ...takeExamples,
  ...rotExamples,
  Queue: queues.Queue,
  Naive: queues.Naive,
  QueueOnRotNaive: queues.QueueOnRotNaive,
  RealTimeQueue: queues.RealTimeQueue,
  NaiveQueue: queues.NaiveQueue,
  measure: costs.measure,
  cost: costs.cost,
  ListSpecs: listSpecs,
  map: listSpecs.map,
  mapStrict: listSpecs.mapStrict,
  mapSpec: listSpecs.mapSpec,
  mapSpecStrictFunctions: listSpecs.mapSpecStrictFunctions,
  elementFn: listSpecs.elementFn,
  showcase: listSpecs.showcase,
  tour: { observe: observeBasics.run, takeSpecs: observeBasics.runTakeSpecs, rot: rotTour.run, exhaustive: exhaustiveTour.run },
};

console.log(help);
console.log('');
// In the main context: values typed at the prompt are of the library's realm (its Object, Array,
// Set and Map), as those a script makes are.
const server = repl.start({
  prompt: 'strictcheck> ',
  useGlobal: true,
  writer: (output: unknown) => (isCheckResult(output) ? output.message : inspect(output, { colors: process.stdout.isTTY === true, depth: 4 })),
});
Object.assign(server.context, context);
server.defineCommand('strictcheck', {
  help: 'What is in scope, with examples',
  action() {
    this.clearBufferedCommand();
    console.log(help);
    this.displayPrompt();
  },
});
