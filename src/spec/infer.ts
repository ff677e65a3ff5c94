/**
 * Specs inferred from observations (the paper's section 8: "synthesize strictness specifications
 * for functions based upon dynamic observations of their behavior"): a function is observed over
 * random and exhaustive cases, and each argument gets the combinators of {@link specOf} that
 * predict exactly what it forced in every case. The combinator specs that fit are proposed,
 * smallest first, as code to paste and a sentence per argument; when none fits an argument, the
 * cases that rule out its closest candidates are shown, shrunk; when the function throws on a
 * case, that case is, as a check shows it.
 * @module
 */
import { promiseOf } from './promise-of.ts';
import { counted } from './counted.ts';
import * as L from '../lazy/list.ts';
import { demandEquals, type Demand } from '../demand/demand.ts';
import { prettyDemand } from '../demand/print.ts';
import { isListCell } from '../demand/lazy-positions.ts';
import type { Shape } from '../demand/shape-types.ts';
import { fieldDemand } from '../demand/value-form.ts';
import { CaseTree, type EnumeratedCase } from '../engine/enumerate.ts';
import { NoSeriesError } from '../engine/series.ts';
import { checkShapes } from '../demand/shape-arguments.ts';
import { parameterList } from '../demand/parameter-names.ts';
import { IDENTIFIER } from '../demand/key-text.ts';
import { checkDeclared, integer, showOption, type OptionDescriptor } from '../demand/options.ts';
import { failureHeader, infiniteSourceHint, report, showInputs } from './report.ts';
import { drive, driveAsync, unjudgedTrial, unjudgedTrialAsync, type AnySpec, type Steps, type Trial } from './run-case.ts';
import { shrink } from './shrink-case.ts';
import { unicodeTerminal } from './diagram.ts';
import { holdingRejections, UnhandledRejectionError } from './unhandled-rejections.ts';
import { NeverSettlesError } from '../demand/never-settles.ts';
import { ForceBudgetExceeded } from '../lazy/lazy.ts';
import { sizeOf, trialCase } from './trial-case.ts';
import { printable } from './result.ts';
import { nameOf, predictDemands, refuseAsync, refuseNonFunction, specify1, type ShapesOf, type Spec } from './spec.ts';
import { specOf, type ArgumentDemand, type SpecLanguage } from './combinators.ts';
import { END_CTORS } from '../iter/demand.ts';

/** Options of {@link inferSpec}. */
export interface InferOptions {
  /** The arguments' names, in the code and sentences proposed. Default: the function's parameter names. */
  readonly names?: readonly string[] | undefined;
  /** Random cases observed. Default 300. */
  readonly trials?: number | undefined;
  /** Seed of the random cases. Default 1. */
  readonly seed?: number | undefined;
  /** Largest size of the random cases. Default 12. */
  readonly maxSize?: number | undefined;
  /** Depth of the exhaustive cases observed (every case up to it). Default 4. */
  readonly depth?: number | undefined;
  /** Most exhaustive cases observed (the smaller depths first). Default 3,000. */
  readonly maxCases?: number | undefined;
  /** Most specs proposed. Default 3. */
  readonly proposals?: number | undefined;
}

/** How each option of {@link InferOptions} is checked, keyed by the type's names. */
const INFER_OPTIONS = {
  names: {
    check: (value, name) => {
      if (!Array.isArray(value) || !value.every((n) => typeof n === 'string')) throw new TypeError(`${name} must be an array of the arguments' names, got ${showOption(value)}`);
    },
  },
  trials: { check: integer(0) },
  seed: { check: integer(-Number.MAX_SAFE_INTEGER) },
  maxSize: { check: integer(0) },
  depth: { check: integer(0, 12) },
  maxCases: { check: integer(0) },
  proposals: { check: integer(1) },
} satisfies { readonly [K in keyof InferOptions]-?: OptionDescriptor<Exclude<InferOptions[K], undefined>> };

/** A spec that fits every observation. */
export interface SpecProposal<A extends readonly unknown[], R> {
  /** The spec, to check with. */
  readonly spec: Spec<A, R>;
  /** It as code: a call of {@link specOf} on your shapes, `args` and `result`. */
  readonly code: string;
  /** What it says of each argument, one sentence each. */
  readonly sentences: readonly string[];
}

/** What {@link inferSpec} found. */
export interface Inference<A extends readonly unknown[], R> {
  /** The combinator specs that fit every observation, smallest first (none when some argument has no fitting combinator). */
  readonly proposals: readonly SpecProposal<A, R>[];
  /** How many cases were observed. */
  readonly observations: number;
  /** The report: the proposals; or for each argument that nothing fits, two cases that rule out its closest candidates; or the case the function threw on. */
  readonly message: string;
}

/** One observed case. */
interface Observation {
  readonly inputs: readonly unknown[];
  readonly result: Demand;
  readonly actual: readonly Demand[];
}

/** A combinator for one argument, as code, as a sentence, and as the rule itself. */
interface Candidate {
  readonly size: number;
  readonly code: string;
  readonly says: string;
  readonly make: (language: SpecLanguage<any[], any>) => ArgumentDemand<any[], any, any>;
  /** The combinators its code names, where more than the first word. */
  readonly uses?: readonly string[];
}

/** The element shape of a list shape, or undefined for another shape. */
function elementOf(s: Shape<unknown>): Shape<unknown> | undefined {
  if (s.kind !== 'lazy' || !isListCell(s.inner())) return undefined;
  const elem = (s.inner() as Shape<unknown> & { alternatives: () => readonly { shapes: readonly Shape<unknown>[] }[] }).alternatives()[1]!.shapes[0]!;
  return elem.kind === 'lazy' ? elem.inner() : elem;
}
const isPrim = (s: Shape<unknown> | undefined, prim: string) => s !== undefined && s.kind === 'prim' && s.prim === prim;
const inside = (s: Shape<unknown>) => (s.kind === 'lazy' ? s.inner() : s);

/** `(a, _b, c)`: the parameter list of a function of the inputs that uses those at `used`, with `before` parameters first. */
function params(names: readonly string[], used: readonly number[], before: readonly string[] = []): string {
  const last = Math.max(-1, ...used);
  const ps = [...before, ...names.slice(0, last + 1).map((n, k) => (used.includes(k) ? n : `_${n}`))];
  return `(${ps.join(', ')})`;
}

/** The candidates for argument `i`, smallest first. */
function candidates(args: readonly Shape<unknown>[], result: Shape<unknown>, names: readonly string[], i: number, delegates: boolean): Candidate[] {
  const x = names[i]!;
  const out: Candidate[] = [
    { size: 1, code: 'neverForced', says: `${x} is never forced`, make: (l) => l.neverForced },
    { size: 1, code: 'whenDemanded', says: `${x} is forced whenever the result is demanded`, make: (l) => l.whenDemanded },
  ];
  const lists = args.flatMap((s, j) => (elementOf(s) ? [j] : []));
  const resultElem = elementOf(result);
  for (const j of lists) {
    if (j === i) continue;
    const code = `forcedWhen(${params(names, [j], ['_d'])} => !List.isEmpty(${names[j]}))`;
    out.push({ size: 2, code, says: `${x} is forced whenever the result is demanded and ${names[j]} has a cell`, make: (l) => l.forcedWhen((_d, ...inputs) => !L.isEmpty(inputs[j])) });
  }
  if (resultElem) out.push({ size: 2, code: 'forcedWhen(anyElementDemanded)', says: `${x} is forced when some element of the result is demanded`, make: (l) => l.forcedWhen(L.anyElementDemanded as never) });
  if (args[i]!.protocol !== undefined) return [...out, ...iterableCandidates(args, result, names, i, delegates)].sort((a, b) => a.size - b.size);
  const elem = elementOf(args[i]!);
  if (!elem) return out;
  out.push({ size: 1, code: 'spineStrict', says: `${x}'s whole spine is forced whenever the result is demanded, no element`, make: (l) => l.spineStrict });
  // asResult: how the elements go, and how far
  const elements: { code?: string; says: string; fn?: (dy: any, x: any, ...inputs: any[]) => any }[] = [{ says: '' }];
  args.forEach((s, j) => {
    if (s.kind === 'fn' && s.args.length === 1) elements.push({ code: `elements: ${params(names, [j], ['dy', 'x'])} => specify1(${names[j]}, dy, x)`, says: `, each element as ${names[j]} demands it`, fn: (dy, v, ...inputs) => specify1(inputs[j], dy, v) });
  });
  const pair = resultElem && inside(resultElem);
  if (pair && pair.kind === 'data' && !isListCell(pair) && pair.alternatives().length === 1 && pair.alternatives()[0]!.shapes.length === 2) {
    [0, 1].forEach((k) => elements.push({ code: `elements: (p) => fieldDemand(p, ${k})`, says: `, each element as the ${k === 0 ? 'first' : 'second'} component of the result's`, fn: (p) => fieldDemand(p, k as never) }));
  }
  const limits: { code?: string; says: string; stopsEarly?: (...inputs: any[]) => boolean; atMost?: (...inputs: any[]) => number }[] = [{ says: '' }];
  args.forEach((s, j) => {
    if (s.kind === 'lazy' && isPrim(s.inner(), 'number')) {
      limits.push({ code: `stopsEarly: ${params(names, [j, i])} => ${names[j]}.force() <= List.length(${x})`, says: `, but an unevaluated tail in place of the result's [] when ${names[j]} is at most its length`, stopsEarly: (...inputs) => inputs[j].force() <= L.length(inputs[i]) });
    }
  });
  for (const j of lists) {
    limits.push({ code: `atMost: ${params(names, [j])} => List.length(${names[j]})`, says: j === i ? ' but never its []' : `, at most as many cells as ${names[j]} has`, atMost: (...inputs) => L.length(inputs[j]) });
    if (j === i) limits.push({ code: `atMost: ${params(names, [j])} => List.length(${names[j]}) + 1`, says: ', up to its []', atMost: (...inputs) => L.length(inputs[j]) + 1 });
  }
  for (const e of elements) {
    for (const lim of limits) {
      const opts = [e.code, lim.code].filter((c) => c !== undefined);
      const code = `asResult(${opts.length ? `{ ${opts.join(', ')} }` : ''})`;
      const options = { ...(e.fn ? { elements: e.fn } : {}), ...(lim.stopsEarly ? { stopsEarly: lim.stopsEarly } : {}), ...(lim.atMost ? { atMost: lim.atMost } : {}) };
      out.push({ size: 2 + opts.length, code, says: `${x} as far as the result${e.says}${lim.says}`, make: (l) => l.asResult(options as never) });
    }
  }
  for (const reversed of [false, true]) {
    const r = reversed ? ', { reversed: true }' : '';
    if (reversed) out.push({ size: 3, code: `resultFrom(() => 0${r})`, says: `${x}'s whole spine whenever the result is demanded, its elements as the result's, reversed`, make: (l) => l.resultFrom(() => 0, { reversed }) });
    for (const j of lists) {
      if (j === i) continue;
      out.push({ size: 3 + (reversed ? 1 : 0), code: `resultFrom(${params(names, [j])} => List.length(${names[j]})${r})`, says: `${x} as the rest of the result past ${names[j]}'s length${reversed ? ', reversed' : ''}`, make: (l) => l.resultFrom((...inputs) => L.length(inputs[j]), { reversed }) });
    }
  }
  args.forEach((s, j) => {
    if (s.kind === 'fn' && s.args.length === 1 && isPrim(s.result, 'boolean')) {
      out.push({
        size: 4,
        code: `untilFound(${params(names, [j], ['x'])} => ${names[j]}(x), { count: (d) => (isCapped(d) ? Infinity : spineForced(d)) })`,
        says: `${x} up to as many elements kept by ${names[j]} as the result has cells, all of it once the result ended`,
        make: (l) => l.untilFound((v, ...inputs) => inputs[j](v), { count: (d) => (L.isCapped(d as never) ? Infinity : L.spineForced(d as never)) }),
      });
    }
  });
  if (isPrim(elem, 'boolean')) for (const v of [false, true]) out.push({ size: 2, code: `shortCircuits(${v})`, says: `${x} up to its first ${v}, cells and elements, or all of it`, make: (l) => l.shortCircuits(v) });
  return out.sort((a, b) => a.size - b.size);
}

/**
 * The candidates of the iterable combinators for argument `i`, an iterable: pulled to its end, up
 * to an element that a number argument or a predicate argument picks (a search); where the
 * result is an iterable, as the result (its limit a number argument, only when that is
 * positive), and in lockstep where there are several iterable arguments, each as a generator or
 * as a TC39 helper closes a source before its first pull; as the result, thrown into where the
 * result is where the function was seen to throw into it (`delegates`: a `yield*`). Not the
 * `pulls` and `yields` of `pulledAsResult`, which depend on what the function does with each element.
 */
function iterableCandidates(args: readonly Shape<unknown>[], result: Shape<unknown>, names: readonly string[], i: number, delegates: boolean): Candidate[] {
  const x = names[i]!;
  const out: Candidate[] = [{ size: 1, code: 'exhausted', says: `${x} is pulled to its end whenever the result is demanded`, make: (l) => l.exhausted }];
  // The number arguments: each's name, its code read (`n.force()` where lazy), and its value in the inputs.
  const counts = args.flatMap((s, j) => {
    if (!(isPrim(s, 'number') || (s.kind === 'lazy' && isPrim(s.inner(), 'number')))) return [];
    const force = s.kind === 'lazy';
    return [{ j, n: names[j]!, read: `${names[j]}${force ? '.force()' : ''}`, count: (inputs: any[]) => (force ? inputs[j].force() : inputs[j]) as number }];
  });
  const found = (code: string, what: string, match: (v: any, ...inputs: any[]) => boolean): Candidate => ({
    size: 3,
    code: `pulledUntil(${code})`,
    says: `${x} is pulled up to its first element ${what}, then closed, or to its end, whenever the result is demanded`,
    make: (l) => l.pulledUntil(match),
  });
  for (const { j, n, read, count } of counts) {
    for (const [op, holds] of COMPARISONS) out.push(found(`${params(names, [j], ['x'])} => x ${op} ${read}`, `${op} ${n}`, (v, ...inputs) => holds(v, count(inputs))));
  }
  args.forEach((s, j) => {
    if (s.kind === 'fn' && s.args.length === 1 && isPrim(s.result, 'boolean')) out.push(found(`${params(names, [j], ['x'])} => ${names[j]}(x)`, `that ${names[j]} keeps`, (v, ...inputs) => inputs[j](v)));
  });
  // The rest reads the result's pulls.
  if (result.protocol === undefined) return out;
  const several = args.filter((s) => s.protocol !== undefined).length > 1;
  const delegation = delegates ? 'delegates: true' : undefined;
  const closing = delegates ? 'closed when the result is closed, thrown into when it is thrown into' : 'closed when the result is closed';
  for (const closesUnstarted of [false, true]) {
    const opt = closesUnstarted ? 'closesUnstarted: true' : undefined;
    const before = closesUnstarted ? ', and closed when the result is closed before its first pull' : '';
    const braced = (...parts: (string | undefined)[]) => (parts.some((p) => p) ? `{ ${parts.filter((p) => p).join(', ')} }` : '');
    const extra = closesUnstarted ? 1 : 0;
    // Where both fit (one source), the plainer first.
    out.push({ size: 2 + extra, code: `pulledAsResult(${braced(delegation, opt)})`, says: `${x} is pulled as many times as the result, ${closing}, to its end when the result ended${before}`, make: (l) => l.pulledAsResult({ closesUnstarted, delegates }) });
    if (several) out.push({ size: 2 + extra, code: `pulledInLockstep(${braced(opt)})`, says: `${x} is pulled once per pull of the result, in turn with the iterables before it; the first to end closes the others${before}`, make: (l) => l.pulledInLockstep({ closesUnstarted }) });
    for (const { j, n, read, count } of counts) {
      const limit = `limit: ${params(names, [j])} => ${read}`;
      const asResult = `pulledAsResult(${braced(limit, delegation, opt)})`;
      const says = `pulled as many times as the result, ${closing} or has taken ${n}, to its end when the result ended sooner${before}`;
      const make = (l: SpecLanguage<any[], any>) => l.pulledAsResult({ limit: (...inputs) => count(inputs), closesUnstarted, delegates });
      out.push({ size: 3 + extra, code: asResult, says: `${x} is ${says}`, make });
      out.push({
        size: 4 + extra,
        code: `onlyWhen(${params(names, [j], ['_d'])} => ${read} > 0, ${asResult})`,
        says: `${x} only when ${n} > 0: ${says}`,
        make: (l) => l.onlyWhen((_d, ...inputs) => count(inputs) > 0, make(l)),
        uses: ['onlyWhen', 'pulledAsResult'],
      });
    }
  }
  return out;
}

/**
 * Whether demand `d`, on a source, holds a `throw()` into one of its own iterations, which a
 * function delegating to it with `yield*` forwards to it. Not into its elements: a consumer throws
 * into an inner iterable that a pass-through gave it as it is, whatever the function does.
 */
function holdsThrowInto(d: Demand): boolean {
  for (const stack = [d]; stack.length > 0; ) {
    const x = stack.pop()!;
    if (!x.forced) continue;
    if (x.ctor === END_CTORS.throw) return true;
    if (x.ctor.style === 'cons') stack.push(x.field(1));
    else if (x.ctor.iterationField !== undefined) stack.push(x.field(x.ctor.iterationField));
    else if (x.ctor.iterations !== undefined) for (let k = 0; k < x.arity; k++) stack.push(x.field(k));
  }
  return false;
}

/** The comparisons of an element with a number argument that a search's match may be. */
const COMPARISONS: readonly (readonly [string, (x: number, n: number) => boolean])[] = [
  ['>=', (x, n) => x >= n],
  ['>', (x, n) => x > n],
  ['<=', (x, n) => x <= n],
  ['<', (x, n) => x < n],
  ['===', (x, n) => x === n],
];

/** The function's parameter names, read off its source; `x{i + 1}` where that fails. */
function parameterNames(fn: (...args: any[]) => unknown, arity: number): string[] {
  // A parameter with a default value is named as the one without; one destructured, or none read, as x1, x2, ….
  const found = (parameterList(fn) ?? []).map((p) => p.replace(/=.*$/, '').trim());
  return Array.from({ length: arity }, (_, i) => (IDENTIFIER.test(found[i] ?? '') ? found[i]! : `x${i + 1}`));
}

/**
 * Observes `fn` over random cases and every case up to a depth, and proposes the combinator specs
 * ({@link specOf}) that predict every demand it was seen to make, smallest first: as a spec, as
 * code to paste (a call on your shapes, named `args` and `result`), and as a sentence per
 * argument. An inferred spec is a hypothesis about the cases observed: check it like any other.
 * When no combinator fits an argument, the message says so and shows, for its two closest
 * candidates, a case that rules each out, shrunk. A function that throws on a case gets no
 * proposal, as a check fails every spec there: the message is that case, shrunk and drawn as
 * `checkSpec` draws it, with what was thrown and the seed.
 *
 * @example
 * ```ts
 * const inferred = inferSpec([lazyOf(number), list(number)], list(number), take);
 * inferred.proposals[0]!.sentences; // ['n is forced whenever the result is demanded', "xs as far as the result, but an unevaluated tail in place of the result's [] when n is at most its length"]
 * strictCheckSpecExact(inferred.proposals[0]!.spec, take);
 * ```
 */
export function inferSpec<const A extends readonly unknown[], R>(args: ShapesOf<A>, result: Shape<R>, fn: NoInfer<(...args: A) => R>, options: InferOptions = {}): Inference<A, R> {
  return infer(args, result, fn, options, false) as Inference<A, R>;
}

/**
 * {@link inferSpec} of a function over async iterables or returning a Promise: each case (random,
 * then up to the depth, async sources enumerated as `checkSpecExhaustiveAsync` does) is observed
 * asynchronously and awaited before the next.
 *
 * @example
 * ```ts
 * import { takeAsync } from './examples/iterators/take-async.ts';
 * const inferred = await inferSpecAsync([number, asyncIterable(number)], asyncIterable(number), takeAsync, { depth: 3 });
 * inferred.proposals[0]!.code; // specOf(args, result, ({ whenDemanded, onlyWhen, pulledAsResult }) => [ … ])
 * ```
 */
export function inferSpecAsync<const A extends readonly unknown[], R>(args: ShapesOf<A>, result: Shape<R>, fn: NoInfer<(...args: A) => R | Promise<R>>, options: InferOptions = {}): Promise<Inference<A, R>> {
  return promiseOf(() => infer(args, result, fn, options, true) as Promise<Inference<A, R>>);
}

/**
 * An inference, its cases observed synchronously or (`async`) asynchronously, each awaited before
 * the next; a case's trial fails only where the function threw or diverged (see unjudgedTrial).
 */
function infer<A extends readonly unknown[], R>(args: ShapesOf<A>, result: Shape<R>, fn: (...args: A) => unknown, options: InferOptions, async: boolean): Inference<A, R> | Promise<Inference<A, R>> {
  checkShapes(args, result);
  const shapes = { inputs: args, result };
  const steps = inferenceSteps(args, result, fn, options);
  // A rejection the function leaves unhandled fails the inference as a throw does, where it ended the process.
  if (async) return holdingRejections(`inferSpecAsync of ${nameOf(fn)}`, () => driveAsync(steps, (c) => unjudgedTrialAsync(fn as never, c, shapes))).then(printableInference);
  refuseAsync({ args, result }, 'inferSpecAsync');
  return printableInference(drive(steps, (c) => unjudgedTrial(fn as never, c, shapes)));
}

/** An inference that prints as its message (see printable): its proposals, whose code has lines of its own, are counted, and shown by the message. */
function printableInference<A extends readonly unknown[], R>(inference: Inference<A, R>): Inference<A, R> {
  return printable(inference, ({ proposals, observations }) => ({ proposals: `(${proposals.length}, in the message below)`, observations }));
}

/** The steps of an inference, written once for observing its cases synchronously and asynchronously: each yields a case and gets its trial back. */
function* inferenceSteps<A extends readonly unknown[], R>(args: ShapesOf<A>, result: Shape<R>, fn: (...args: A) => unknown, options: InferOptions): Steps<Inference<A, R>> {
  refuseNonFunction(fn, 'the function to infer a spec of');
  checkDeclared(options, INFER_OPTIONS);
  const shapes = args as readonly Shape<unknown>[];
  const names = options.names ? [...options.names] : parameterNames(fn as never, shapes.length);
  if (names.length !== shapes.length) throw new TypeError(`names: ${names.length} names given for ${shapes.length} arguments`);
  const s = { args: shapes, result, names } as unknown as AnySpec;
  const observed = yield* observeCases(s, options);
  if (!Array.isArray(observed)) return yield* threwSteps(s, observed, options);
  const observations = observed;
  const perArgument: { fits: Candidate[]; closest: { c: Candidate; first: string }[] }[] = [];
  for (let i = 0; i < shapes.length; i++) {
    // A source thrown into: the function delegates to it (a yield*), which its pulledAsResult says.
    const delegates = observations.some((o) => holdsThrowInto(o.actual[i]!));
    const all = candidates(shapes, result as Shape<unknown>, names, i, delegates);
    // A candidate is ruled out by its first contradiction; they are all counted only to rank the closest candidates, shown when none fits.
    const fits = all.filter((c) => contradictions(s, i, c, observations, 1).failures === 0);
    // The case that rules out each closest candidate, shrunk as a counterexample is.
    const shown: { c: Candidate; first: string }[] = [];
    if (fits.length === 0) {
      const closest = all.map((c) => ({ c, ...contradictions(s, i, c, observations) })).sort((a, b) => a.failures - b.failures).slice(0, 2);
      for (const x of closest) shown.push({ c: x.c, first: yield* shrunkRuleOut(s, i, x.c, x.first!) });
    }
    perArgument.push({ fits, closest: shown });
  }
  const unfit = perArgument.flatMap((p, i) => (p.fits.length === 0 ? [i] : []));
  const header = `Observed ${observations.length} cases.`;
  if (unfit.length > 0) {
    const lines = [header, ...unfit.flatMap((i) => [
      `No combinator spec fits: nothing predicts what ${fn.name || 'the function'} forces of ${names[i]} in every case. Its closest candidates, and a case that rules each out:`,
      ...perArgument[i]!.closest.map(({ c, first }) => `  ${c.code}: ${first}`),
    ])];
    return { proposals: [], observations: observations.length, message: lines.join('\n') };
  }
  const combos = combinations(perArgument.map((p) => p.fits), options.proposals ?? 3);
  const proposals = combos.map((chosen) => proposal(args, result, names, chosen));
  const message = [header, ...proposals.flatMap((p, k) => [`Proposal ${k + 1}:`, p.code, ...p.sentences.map((s) => `  ${s}.`)])].join('\n');
  return { proposals, observations: observations.length, message };
}

/** A case the function threw on, and how many cases were observed up to it (it included). */
interface Threw {
  readonly trial: Trial;
  readonly cases: number;
}

/**
 * The random cases, then every case up to the depth, each observed (yielded to be observed); or
 * the first case the function threw on: no spec fits it, as a check fails every case that throws.
 */
function* observeCases(s: AnySpec, options: InferOptions): Steps<Observation[] | Threw> {
  const out: Observation[] = [];
  const shapes = s.args as readonly Shape<unknown>[];
  const trials = options.trials ?? 300;
  const seed = options.seed ?? 1;
  for (let i = 0; i < trials; i++) {
    const c = trialCase(s, seed, i, sizeOf(i, trials, options.maxSize ?? 12));
    const t: Trial = yield c;
    if (t.failed) return { trial: t, cases: i + 1 };
    out.push({ inputs: c.inputs, result: t.resultDemand, actual: t.actual });
  }
  // Depth by depth, so that a function argument's many cases at the largest depth do not crowd out the smaller ones.
  const most = out.length + (options.maxCases ?? 3000);
  let threw: Threw | undefined;
  const found = (c: EnumeratedCase<Trial>): boolean => {
    const t = c.outcome;
    // On its total inputs; its context is the enumeration's: the case is run again forcing the demand observed.
    if (t.failed) threw = { trial: { ...t, inputs: c.total(), replay: undefined }, cases: out.length + 1 };
    else out.push({ inputs: c.total(), result: t.resultDemand, actual: t.actual });
    return threw !== undefined || out.length >= most;
  };
  try {
    for (let depth = 0; depth <= (options.depth ?? 4) && out.length < most && threw === undefined; depth++) {
      const tree = new CaseTree<Trial>(shapes, depth, { result: s.result });
      yield* tree.cases(tree.roots(), { cases: 0, runs: 0, refinements: 0 }, { found });
    }
  } catch (err) {
    // A shape without a series (an opaque one not given one) is observed on random cases only.
    if (!(err instanceof NoSeriesError)) throw err;
  }
  return threw ?? out;
}

/** Shrink attempts of a case an inference reports (one that threw, one that rules out a candidate). */
const SHRINK_ATTEMPTS = 1000;

/** The inference of a function that threw: the case shrunk and reported as a check reports it, and no proposal. */
function* threwSteps<A extends readonly unknown[], R>(s: AnySpec, threw: Threw, options: InferOptions): Steps<Inference<A, R>> {
  const [small, shrinks] = yield* shrink(s, threw.trial, SHRINK_ATTEMPTS);
  const where = `after ${counted(threw.cases, 'case')} and ${counted(shrinks, 'shrink')}; seed ${options.seed ?? 1}`;
  const does = whatItDoes(small.error?.thrown);
  const why = `Inferred nothing: no spec fits a function that ${does}, as a check fails a case where it ${does}. ${
    infiniteSourceHint(s, small) === undefined ? `Make it ${does === 'throws' ? 'total' : 'end'} on such inputs, or give shapes that do not make them.` : 'If it is meant to pull its sources to their end, declare them finite, as said above.'
  }`;
  return { proposals: [], observations: threw.cases, message: `${report(s, small, failureHeader(small, where, s), unicodeTerminal())}\n${why}` };
}

/** What a function did on a case whose trial failed with `thrown`, as the message of an inference says it. */
function whatItDoes(thrown: unknown): string {
  if (thrown instanceof ForceBudgetExceeded) return 'diverges';
  if (thrown instanceof UnhandledRejectionError) return 'leaves a rejection unhandled';
  if (thrown instanceof NeverSettlesError) return 'never settles';
  return 'throws';
}

/** Whether a demand on a value of shape `s` may leave it unforced (`_`): not a strict one, which the call evaluates. */
const mayBeUnforced = (s: Shape<unknown>) => s.kind === 'lazy' || s.kind === 'fn';

/** The spec of candidate `c` for argument `i` alone (the other arguments as loose as their shapes allow). */
function onlySpec(s: AnySpec, i: number, c: Candidate): AnySpec {
  const shapes = s.args as readonly Shape<unknown>[];
  return specOf(shapes as never, s.result, ((l: SpecLanguage<any[], any>) => shapes.map((_, k) => (k === i ? c.make(l) : mayBeUnforced(shapes[k]!) ? l.neverForced : l.whenDemanded))) as never);
}

/** What `only` (see {@link onlySpec}) predicts of argument `i` in observation `o` where it fails to predict its demand (a text where it throws); undefined where it predicts it. */
function ruledOut(only: AnySpec, i: number, o: Observation): string | Demand | undefined {
  let predicted: string | Demand;
  try {
    predicted = predictDemands(only, o.result, o.inputs as never)[i]!;
  } catch (err) {
    return `(it throws: ${(err as Error).message})`;
  }
  return demandEquals(predicted, o.actual[i]!) ? undefined : predicted;
}

/** The case `o` that rules out `only` for argument `i`, told: printed only for the cases shown, as printing every case an inference compares took a third of its time. */
function toldRuledOut(only: AnySpec, i: number, o: Observation): string {
  const predicted = ruledOut(only, i, o)!;
  return `on inputs ${showInputs(only, o.inputs)} under the result demand ${prettyDemand(o.result)}, it forced ${prettyDemand(o.actual[i]!)} where this predicts ${typeof predicted === 'string' ? predicted : prettyDemand(predicted)}`;
}

/** How many observations candidate `c` for argument `i` contradicts, counted up to `upTo`, and the first of them. */
function contradictions(s: AnySpec, i: number, c: Candidate, observations: readonly Observation[], upTo = Infinity): { failures: number; first: Observation | undefined } {
  const only = onlySpec(s, i, c);
  let failures = 0;
  let first: Observation | undefined;
  for (const o of observations) {
    if (failures === upTo) break;
    if (ruledOut(only, i, o) === undefined) continue;
    if (failures++ === 0) first = o;
  }
  return { failures, first };
}

/** The observation `o` that rules out candidate `c` for argument `i`, shrunk as a counterexample is, told. */
function* shrunkRuleOut(s: AnySpec, i: number, c: Candidate, o: Observation): Steps<string> {
  const only = onlySpec(s, i, c);
  const start: Trial = { inputs: o.inputs, resultDemand: o.result, actual: o.actual, predicted: [], failed: true };
  // A smaller case is one `only` fails to predict too; one that threw is another kind of case, which shrinking leaves (see failsAlike).
  const [small] = yield* shrink(s, start, SHRINK_ATTEMPTS, (t) => t.error === undefined && ruledOut(only, i, { inputs: t.inputs, result: t.resultDemand, actual: t.actual }) !== undefined);
  return toldRuledOut(only, i, { inputs: small.inputs, result: small.resultDemand, actual: small.actual });
}

/** The first `limit` choices of one candidate per argument, in order of total size. */
function combinations(fits: readonly (readonly Candidate[])[], limit: number): Candidate[][] {
  let all: Candidate[][] = [[]];
  for (const f of fits) all = all.flatMap((prefix) => f.map((c) => [...prefix, c]));
  return all.sort((a, b) => a.reduce((n, c) => n + c.size, 0) - b.reduce((n, c) => n + c.size, 0)).slice(0, limit);
}

function proposal<A extends readonly unknown[], R>(args: ShapesOf<A>, result: Shape<R>, names: readonly string[], chosen: readonly Candidate[]): SpecProposal<A, R> {
  const combinators = [...new Set(chosen.flatMap((c) => c.uses ?? [/^\w+/.exec(c.code)![0]]))];
  const code = `specOf(args, result, ({ ${combinators.join(', ')} }) => [\n${chosen.map((c) => `  ${c.code},`).join('\n')}\n], ${JSON.stringify(names).replaceAll('"', "'").replaceAll(',', ', ')})`;
  return { spec: specOf(args, result, (l) => chosen.map((c) => c.make(l as never)) as never, names), code, sentences: chosen.map((c) => c.says) };
}

