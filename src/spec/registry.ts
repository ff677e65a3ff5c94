/**
 * The registry of named checks (`defineCheck`): a worker thread imports the module that defines a
 * check again and finds its spec and function here by name, as closures cannot be sent to it.
 *
 * Rule: a check run with `workers` must be created with {@link defineCheck} at the top level of a
 * module whose import has no side effects besides defining checks (workers import it again).
 * @module
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { checkKnownOptions } from '../demand/options.ts';
import { checkCall, type Spec } from './spec.ts';
import type { Comparison } from './options.ts';
import type { AnySpec, Fn } from './run-case.ts';

/** A check that worker threads can load: made by {@link defineCheck}. */
export interface DefinedCheck<A extends readonly unknown[], R> {
  /** The URL of the module that defines it, where workers find it. */
  readonly moduleUrl: string;
  /** Its name in that module's registry. */
  readonly name: string;
  /** The spec to check. */
  readonly spec: Spec<A, R>;
  /** The function to check against it. */
  readonly fn: (...args: A) => R;
  /**
   * The comparison of the runs of this check (`assertSpec(check)`, `checkSpec(check)`) whose options
   * give none, with workers or without: a function too, which a run's options cannot send to workers.
   */
  readonly compare?: Comparison | readonly Comparison[];
}

const registry = new Map<string, DefinedCheck<readonly unknown[], unknown>>();

/**
 * Registers a check so that worker threads can load it: call it at the top level of a module,
 * with that module's `import.meta.url` and a name unique in the module. Its `compare` is the
 * comparison of the runs of the check itself (`assertSpec(check)`) whose options give none; a run
 * of its spec and function alone (`assertSpec(spec, fn)`) compares as its own options say. A
 * function returning a Promise of the spec's result is checked by `checkSpecAsync(check)`.
 *
 * @example
 * ```ts
 * export const takeCheck = defineCheck(import.meta.url, 'take', takeSpec, take);
 * await assertSpec(takeCheck, { workers: 2 });        // or
 * await assertSpec(takeSpec, take, { workers: 2 });
 * ```
 */
export function defineCheck<const A extends readonly unknown[], R>(moduleUrl: string, name: string, spec: Spec<A, R>, fn: (...args: A) => R | Promise<R>, options: { readonly compare?: Comparison | readonly Comparison[] } = {}): DefinedCheck<A, R> {
  checkKnownOptions(options, ['compare']);
  // A path would fail only later, in each worker (Invalid URL), as the URL of a module is what workers import.
  // A module compiled to CommonJS (a .cts under tsx, say) has no import.meta: its import.meta.url is undefined.
  if (moduleUrl === undefined) {
    throw new TypeError('defineCheck: the module URL is undefined, as import.meta.url is undefined in a module compiled to CommonJS (as tsx compiles a .cts): give pathToFileURL(__filename).href (from node:url) there');
  }
  if (!URL.canParse(moduleUrl)) {
    throw new TypeError(
      `defineCheck: the module '${moduleUrl}' is not a URL: give the URL of the module that defines the check, import.meta.url in an ES module, or pathToFileURL(__filename).href (from node:url) in CommonJS`,
    );
  }
  const key = `${moduleUrl}#${name}`;
  if (registry.has(key)) throw new TypeError(`defineCheck: a check named '${name}' is already defined in ${moduleUrl}`);
  // An async function is refused by the synchronous checks when they run (checkCall), saying to use checkSpecAsync.
  const check: DefinedCheck<A, R> = { moduleUrl, name, spec, fn: fn as (...args: A) => R, ...(options.compare !== undefined ? { compare: options.compare } : {}) };
  registry.set(key, check as unknown as DefinedCheck<readonly unknown[], unknown>);
  return check;
}

/** @internal The check registered under this module and name, if any. */
export function findCheck(moduleUrl: string, name: string): DefinedCheck<readonly unknown[], unknown> | undefined {
  return registry.get(`${moduleUrl}#${name}`);
}

/** The rule for checks run with workers, as error messages say it. */
export const WORKER_RULE =
  'a check run with workers must be created with defineCheck(import.meta.url, name, spec, fn) at the top level of a module whose import has no side effects besides defining checks';

/**
 * @internal The check registered with `spec` and `fn`, or an error that explains the rule (`what`
 * names the function called, of `mode`, `async` if it is an asynchronous check). The run of the
 * check found checks what it is called with (see checkCall), as it does for a check given itself.
 */
export function registeredCheck(spec: AnySpec, fn: Fn, what: string, mode: 'random' | 'exhaustive', async: boolean): DefinedCheck<readonly unknown[], unknown> {
  for (const c of registry.values()) if (c.spec === spec && c.fn === fn) return c;
  checkCall(spec, fn, async, mode); // a value that is not a function is not an unregistered one
  throw new TypeError(
    `${what} with workers: this spec and function were not registered with defineCheck. Workers cannot receive closures, so they import the module that defines the check again: ${WORKER_RULE}, e.g. \`export const myCheck = defineCheck(import.meta.url, 'myCheck', mySpec, myFn)\`, then run the check itself: ${what}(myCheck, options). Or drop the workers option to check in this thread.`,
  );
}

/** @internal The key of the worker data that marks a worker thread of a check (a module imported again under another URL still sees it). */
export const WORKER_MARK = 'strictcheckWorker';

/**
 * @internal Refuses to start a check in a worker thread of a check: only a check module that runs
 * checks when imported does that, and with workers, each worker would start workers of its own.
 * The worker's slot is told, so that the run that started the worker fails with this message.
 */
export function refuseInWorker(): void {
  if (isMainThread || (workerData as Record<string, unknown> | null)?.[WORKER_MARK] !== true) return;
  const message =
    `a check was started in a worker thread of strictcheck, which only imports the module that defines its check: that module runs checks when imported, and ${WORKER_RULE}. ` +
    'Run the checks from another module (a test file) that imports them.';
  parentPort?.postMessage({ type: 'refused', message });
  throw new TypeError(message);
}
