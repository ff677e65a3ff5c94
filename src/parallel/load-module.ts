/**
 * How a worker thread loads the module that defines a check: as the main thread loaded it, as
 * CommonJS or as an ES module. A JavaScript module is loaded as it is. A TypeScript module is
 * loaded as the runtime does (Bun, Node's type stripping), else through the tsx of the module's own
 * project: the loader a process runs under does not reach its worker threads on Node 20 (`--import
 * tsx` in a worker's execArgv registers no hooks there), and vitest and jest transform modules in
 * the runner, not in Node.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { workerData } from 'node:worker_threads';
import { describeSafely } from '../demand/describe.ts';
import { WORKER_RULE } from '../spec/registry.ts';

/** This module's `require`: the cache tells how the main thread loaded a module, and loads CommonJS as it did. */
const requireHere = createRequire(import.meta.url);

/**
 * The `workerData` key that says which of tsx's loaders the worker's entry registered, `'esm'` or
 * `'cjs'`: its ES module hooks (a worker started from this repository's source) or its CommonJS
 * ones (a worker of a copy of strictcheck loaded as CommonJS); a module of the other format needs
 * its own (see {@link importCheckModule}).
 */
export const TS_LOADER = 'strictcheck.typescriptLoader';

/** The `workerData` key that says the main thread runs vitest's tests (see {@link runsVitest}). */
export const UNDER_VITEST = 'strictcheck.underVitest';

/**
 * @internal Whether this thread runs vitest's tests: vitest's test threads and processes hold its
 * state on `globalThis`, which a process they start does not inherit, where the environment
 * (`VITEST`) it does.
 */
export function runsVitest(): boolean {
  return '__vitest_worker__' in globalThis;
}

/**
 * The property of `globalThis` that names a folder of JavaScript copies of this repository's
 * TypeScript (`<folder>/<path>.js` for `<root>/<path>.ts`, see scripts/transpile.ts) that a worker
 * started from the source imports in place of registering tsx, and the `workerData` key that
 * gives it to the worker: this repository's test runs name one, whose workers start in a quarter
 * of the CPU time (0.15 s, where 0.56 s through tsx). Not an environment variable: a process the
 * tests start (vitest in a temp project, say) must not inherit it, its workers having no tsx then.
 */
export const SOURCE_COPIES = 'STRICTCHECK_SOURCE_COPIES';

/**
 * The property of `globalThis` that names, beside {@link SOURCE_COPIES}, the module a worker started
 * from those copies imports first, calling its default export with their folder: the set-up the
 * harness that made them gives each of its threads (this repository's: stack traces that show the
 * source's lines, scripts/stack-lines.ts). None named, the worker imports its entry alone.
 */
export const SOURCE_PRELUDE = 'STRICTCHECK_SOURCE_PRELUDE';

/** What the main thread gave this worker under `key` of its `workerData` (undefined in the main thread, whose `workerData` is null). */
function given(key: string): unknown {
  return (workerData as Record<string, unknown> | null)?.[key];
}

/** @internal The copy in the folder of copies `copies` (a URL) of the module `path` (`<path>.ts`, from the repository's root): `<copies>/<path>.js`. */
export function copyPath(path: string, copies: string): URL {
  return new URL(`${path.slice(0, -'.ts'.length)}.js`, copies);
}

/** The URL of the module `moduleUrl`, or of its copy in `workerData`'s folder of copies of this repository if it has one. */
function copyOf(moduleUrl: string): string {
  const copies = given(SOURCE_COPIES);
  const root = new URL('../../', import.meta.url).href;
  if (typeof copies !== 'string' || !moduleUrl.startsWith(root) || !/\.ts$/.test(moduleUrl)) return moduleUrl;
  const copy = copyPath(moduleUrl.slice(root.length), copies);
  return existsSync(copy) ? copy.href : moduleUrl;
}

/** A Node option that preloads a module, with the module if given in the same argument (`--import=tsx`). */
const PRELOAD = /^(?:--import|--require|-r)(?:=(.*))?$/;

/** Whether a preloaded module is tsx (`tsx`, `tsx/esm`, or a path or URL into its package). */
function isTsx(module: string): boolean {
  return /^tsx(?:\/|$)/.test(module) || /[\\/]node_modules[\\/]tsx[\\/]/.test(module);
}

/**
 * @internal The Node options a worker of the built package starts with: `execArgv`, the process's,
 * but on Node 20 (`nodeMajor`) without preloading tsx (`node --import tsx`, or the `tsx` command's
 * preloads), which loads in every worker (about 0.1 s of CPU, twice the rest of its start) and
 * registers nothing there: neither `import` nor `require` of TypeScript works in a Node 20 worker
 * with it. A TypeScript check module registers tsx itself (see {@link importCheckModule}).
 */
export function workerExecArgv(execArgv: readonly string[], nodeMajor = Number(process.versions.node.split('.')[0])): string[] {
  if (nodeMajor !== 20) return [...execArgv];
  const kept: string[] = [];
  for (let k = 0; k < execArgv.length; k++) {
    const option = PRELOAD.exec(execArgv[k]!);
    const module = option ? (option[1] ?? execArgv[k + 1]) : undefined;
    if (module === undefined || !isTsx(module)) kept.push(execArgv[k]!);
    else if (option![1] === undefined) k++; // its module, the next argument
  }
  return kept;
}

/** Whether this runtime loads TypeScript modules by itself. */
function runsTypeScript(): boolean {
  return Boolean((process.features as { typescript?: unknown }).typescript) || process.versions.bun !== undefined;
}

/** @internal Why a worker could not load a check's module, said whole: a worker reports its message as it is. */
export class CheckModuleError extends Error {
  override name = 'CheckModuleError';
}

/** The conditions of Node's `import` and `require`, which an `exports` entry is matched against in the order of its keys. */
const CONDITIONS = { esm: ['node', 'import', 'default'], cjs: ['node', 'require', 'default'] };

/** The target of an `exports` entry under `conditions`, if it has one. */
function exportTarget(entry: unknown, conditions: readonly string[]): string | undefined {
  if (typeof entry === 'string') return entry;
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return undefined;
  const key = Object.keys(entry).find((k) => conditions.includes(k));
  return key === undefined ? undefined : exportTarget((entry as Record<string, unknown>)[key], conditions);
}

/**
 * @internal The URL of tsx's API in the project of `moduleUrl`, or undefined if it has no tsx: its ES
 * module build (`tsx/esm/api` as `import` resolves it), or its CommonJS one (`tsx/cjs/api`, `kind`
 * 'cjs'). `require.resolve` would give the CommonJS build of the ES module API, whose `register()`
 * fails on Node 20 from tsx 4.23 on; and `import()` here would resolve from strictcheck's folder, not
 * the user's module's.
 */
export function tsxApi(moduleUrl: string, kind: keyof typeof CONDITIONS): { url: string; version: string; folder: string } | undefined {
  let manifest: string;
  try {
    manifest = createRequire(moduleUrl).resolve('tsx/package.json');
  } catch {
    return undefined;
  }
  const { exports, version } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, unknown>; version: string };
  const folder = dirname(manifest);
  const target = exportTarget(exports?.[`./${kind}/api`], CONDITIONS[kind]);
  if (target === undefined) throw new CheckModuleError(`a worker cannot load ${moduleUrl}: the tsx of its project (${folder}) has no ${kind === 'esm' ? 'ES module' : 'CommonJS'} API (tsx/${kind}/api); install tsx 4 or later (npm install --save-dev tsx@4)`);
  return { url: pathToFileURL(join(folder, target)).href, version, folder };
}

/**
 * @internal Whether this process loaded the module at `url` as CommonJS (it is in `require`'s cache):
 * as tsx loads a TypeScript module of a CommonJS package (`"type": "commonjs"`, or no type), or a
 * `.cts`, and what such a module `require`s, strictcheck included, which tsx compiles to CommonJS.
 */
export function loadedAsCommonJs(url: string): boolean {
  return url.startsWith('file:') && requireHere.cache[fileURLToPath(url)] !== undefined;
}

/**
 * A module hook that has the TypeScript of the project's own files (`.ts`, `.tsx`, not in
 * `node_modules`) imported as ES modules, where tsx would compile that of a CommonJS package (a
 * `package.json` of `"type": "commonjs"`, as `npm init` writes it, or of no type) to CommonJS: for a
 * check module the main thread loaded as an ES module (vitest and jest transform it so), which a
 * worker loads as it did, and for the modules it imports. Registered before tsx, so that tsx's
 * `resolve` sees the format it gives: tsx decides only a format its next hook left undecided, and
 * gives a named import of a module it decided is CommonJS (an extensionless one too) a URL of its
 * own (`?tsx-commonjs-export-preparse`), which this hook, when it ran after tsx, did not know as the
 * file's: that module was compiled to CommonJS, where a top-level await fails.
 */
const TYPESCRIPT_AS_ES_MODULES = `export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const own = /^file:[^?#]*\\.tsx?(?:[?#]|$)/.test(resolved.url) && !resolved.url.includes('/node_modules/');
  return own && resolved.format !== 'module' && !context.conditions.includes('require') ? { ...resolved, format: 'module' } : resolved;
}`;

/**
 * A module hook that gives the project's own modules (not in `node_modules`) a CommonJS module's
 * default export as vitest gives it (its `deps.interopDefault`): of a module flagged `__esModule`
 * (compiled from TypeScript or Babel), its `exports.default`, where Node's `import` gives the whole
 * `module.exports`: for a check module the main thread loaded under vitest. Its named exports are Node's.
 */
const VITEST_INTEROP = `import { readFileSync } from 'node:fs';
const WRAPPED = 'strictcheck-vitest-interop:';
/** Whether Node loads the file at url as CommonJS: a .cjs, or a .js whose nearest package.json is not of "type": "module" (resolve leaves its format to load). */
function commonJs(url, format) {
  if (format === 'commonjs') return true;
  if (format != null || !url.startsWith('file:') || !url.endsWith('.js')) return false;
  for (let dir = new URL('./', url); ; dir = new URL('../', dir)) {
    try {
      return JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')).type !== 'module';
    } catch (err) {
      if (err.code !== 'ENOENT' || dir.pathname === '/') return err.code === 'ENOENT';
    }
  }
}
/** What each wrapper wraps: the module as the hooks before this one resolved it (its URL may be one of theirs, as tsx's ?tsx-commonjs-export-preparse). */
const wrapped = new Map();
export async function resolve(specifier, context, next) {
  // A wrapper's import of its module is that resolution again: the module is its resolver's, to load as it resolved it.
  const inner = context.parentURL === undefined ? undefined : wrapped.get(context.parentURL);
  if (inner !== undefined && specifier === inner.url) return { ...inner, shortCircuit: true };
  const resolved = await next(specifier, context);
  const own = context.parentURL !== undefined && context.parentURL.startsWith('file:') && !context.parentURL.includes('/node_modules/');
  if (!own || context.conditions.includes('require') || !commonJs(resolved.url, resolved.format)) return resolved;
  wrapped.set(WRAPPED + resolved.url, resolved);
  return { url: WRAPPED + resolved.url, format: 'module', shortCircuit: true };
}
export async function load(url, context, next) {
  if (!url.startsWith(WRAPPED)) return next(url, context);
  const target = JSON.stringify(url.slice(WRAPPED.length));
  const source = 'import * as ns from ' + target + '; export * from ' + target + '; const m = ns.default;' +
    " export default m !== null && (typeof m === 'object' || typeof m === 'function') && '__esModule' in m && 'default' in m ? m.default : m;";
  return { format: 'module', shortCircuit: true, source };
}`;

/**
 * The codes of Node's errors that say a module could not be loaded as the loader in force loads
 * it (as CommonJS or as an ES module, its TypeScript stripped or not), before its code ran.
 */
const UNLOADABLE = /^ERR_(?:REQUIRE_|UNKNOWN_FILE_EXTENSION$|UNKNOWN_MODULE_FORMAT$|UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING$|INVALID_TYPESCRIPT_SYNTAX$|UNSUPPORTED_TYPESCRIPT_SYNTAX$)/;

/** The codes of Node's errors that say an import's specifier resolves to no module that Node can load. */
const UNRESOLVED = /^(?:ERR_MODULE_NOT_FOUND|MODULE_NOT_FOUND|ERR_UNSUPPORTED_DIR_IMPORT|ERR_PACKAGE_PATH_NOT_EXPORTED|ERR_PACKAGE_IMPORT_NOT_DEFINED|ERR_INVALID_MODULE_SPECIFIER|ERR_UNSUPPORTED_ESM_URL_SCHEME)$/;

/**
 * What a test runner's API throws outside its runner: a check module that is a test file
 * (defineCheck written in the test file itself) throws it in a worker, where no test runs. Each of
 * vitest's calls throws its own (test(): no current suite; beforeEach: no runner; describe(): a
 * TypeError of its internals), and jest's globals are not defined there: so a module named as the
 * runners name test files is taken for one too, whatever its import threw.
 */
const OUTSIDE_RUNNER = /Vitest failed to find the (?:current suite|runner)|Do not import `@jest\/globals` outside of the Jest test environment|\b(?:test|it|describe|expect|(?:before|after)(?:Each|All)) is not defined\b/;
/** A test file's path, as vitest's and jest's default patterns name them. */
const TEST_FILE = /\.(?:test|spec)\.[cm]?[jt]sx?$|\/__tests__\//;

/** What CommonJS gives a module that an ES module has not: using one, a module written as CommonJS fails as an ES module. */
const COMMON_JS_ONLY = /^(?:ReferenceError: )?(__dirname|__filename|require|module|exports) is not defined\b/;

/** What an ES module uses in place of each of {@link COMMON_JS_ONLY}. */
const IN_ES_MODULES: Record<string, string> = {
  __dirname: 'import.meta.dirname (Node 20.11 on), or dirname(fileURLToPath(import.meta.url))',
  __filename: 'import.meta.filename (Node 20.11 on), or fileURLToPath(import.meta.url)',
  require: "import, or createRequire(import.meta.url) (from 'node:module')",
  module: 'export',
  exports: 'export',
};

/** Whether the main thread that started this worker runs vitest's tests. */
function underVitest(): boolean {
  return given(UNDER_VITEST) === true;
}

/** The tsx APIs this worker registered, by URL, and the vitest interop: once each, as a pooled worker imports its check module again for each run. */
const registered = new Set<string>();
const VITEST = 'vitest interop';

/**
 * Registers the tsx of `moduleUrl`'s project, unless this worker has (its CommonJS hooks, or its
 * ES module ones with the project's TypeScript as ES modules: see {@link TYPESCRIPT_AS_ES_MODULES}),
 * or says what to install; returns how it loads the module.
 */
async function registerTsx(moduleUrl: string, commonJs: boolean): Promise<string> {
  const api = tsxApi(moduleUrl, commonJs ? 'cjs' : 'esm');
  if (api === undefined) {
    throw new CheckModuleError(
      `a worker cannot load ${moduleUrl}: it is TypeScript, and this Node runs no TypeScript without a loader. ` +
        'Install tsx in your project (npm install --save-dev tsx): workers load TypeScript check modules through it',
    );
  }
  if (!registered.has(api.url)) {
    try {
      if (commonJs) (requireHere(fileURLToPath(api.url)) as { register(): void }).register();
      else {
        register(`data:text/javascript,${encodeURIComponent(TYPESCRIPT_AS_ES_MODULES)}`);
        ((await import(api.url)) as { register(): void }).register();
      }
    } catch (err) {
      throw new CheckModuleError(`a worker could not register tsx ${api.version} (${api.folder}) to load ${moduleUrl}: ${describeSafely(err)}. Another version of tsx may load it (npm install --save-dev tsx@<version>)`);
    }
    registered.add(api.url);
  }
  return `through tsx ${api.version} (${api.folder})`;
}

/**
 * @internal Loads the check module at `moduleUrl` as the main thread loaded it: as CommonJS if it
 * did (`commonJs`, see {@link loadedAsCommonJs}), with `require`, else as an ES module, with
 * `import`; so that its module format, and so how it imports a CommonJS module's default export,
 * is the main thread's. For a TypeScript module this runtime cannot load alone, registers the
 * project's tsx first (see {@link registerTsx}), unless the worker's entry did (`TS_LOADER`); under
 * vitest, with its interop (see {@link VITEST_INTEROP}). Each failure is a {@link CheckModuleError}
 * that says what failed: tsx, loading the module, the module's import, or finding the module.
 * `asImport` runs the import's start, for the worker to tell what it starts (see worker.ts's byImport).
 */
export async function importCheckModule(moduleUrl: string, asImport: <T>(start: () => T) => T = (start) => start(), commonJs = false): Promise<void> {
  const url = commonJs ? moduleUrl : copyOf(moduleUrl);
  const typescript = /\.[cm]?tsx?$/.test(new URL(url).pathname);
  const format = commonJs ? 'as CommonJS' : 'as an ES module';
  let loader = `${format}, ${typescript ? "by this runtime's TypeScript loader" : 'as JavaScript'}`;
  if (typescript && !runsTypeScript() && given(TS_LOADER) !== (commonJs ? 'cjs' : 'esm')) {
    loader = `${format}, ${await registerTsx(moduleUrl, commonJs)}`;
  }
  // Registered last, so that its resolve runs first and sees the format the others give.
  if (!commonJs && underVitest() && !registered.has(VITEST)) {
    register(`data:text/javascript,${encodeURIComponent(VITEST_INTEROP)}`);
    registered.add(VITEST);
  }
  try {
    await asImport(() => (commonJs ? requireHere(fileURLToPath(moduleUrl)) : import(url)));
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    const said = describeSafely(err);
    // Not found: the URL given to defineCheck is not its module's own.
    // (Node's message names the module not found first, then the module that imports it.)
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && moduleUrl.startsWith('file:') && String((err as Error).message).startsWith(`Cannot find module '${fileURLToPath(moduleUrl)}'`)) {
      throw new CheckModuleError(`a worker found no module at ${moduleUrl}, where the check was defined: ${WORKER_RULE}`);
    }
    // A module of its graph not found, or not resolvable, where the main thread's loader found it: no fault of the module's top level.
    if (typeof code === 'string' && UNRESOLVED.test(code)) {
      throw new CheckModuleError(
        `a worker could not resolve a module that the check's module ${moduleUrl} imports (it loads that module ${loader}): ${said}. ` +
          "A worker resolves imports as Node does (TypeScript's through tsx), not as a test runner's configuration does (vitest's resolve.alias, jest's moduleNameMapper): import the project's own modules by relative paths, or by names Node resolves (package.json \"imports\")",
      );
    }
    // Node could not load a module of its graph as the worker loads it: no fault of the module's top level.
    if (typeof code === 'string' && UNLOADABLE.test(code)) {
      throw new CheckModuleError(
        `a worker could not load the check's module ${moduleUrl}, which it loads ${loader}, as the main thread did: ${said}. ` +
          'Make it an ES module, which every loader loads alike: rename it to .mts (or .mjs), or set "type": "module" in the package.json of its folder',
      );
    }
    // tsx (esbuild) could not compile a module of its graph as the worker loads it: no fault of the module's top level.
    if ((err as { name?: unknown }).name === 'TransformError') {
      throw new CheckModuleError(
        `a worker could not compile a module of the check's module ${moduleUrl} (it loads the check's module ${loader}): ${said}. ` +
          'The module named there failed to compile before any code ran. One written as an ES module (with a top-level await, say) compiles as one in every loader: rename it to .mts, or set "type": "module" in the package.json of its folder',
      );
    }
    // Written as CommonJS, loaded as an ES module as the main thread did (vitest and jest give CommonJS's names to ES modules too).
    const used = commonJs ? null : COMMON_JS_ONLY.exec(said);
    // vitest gave them in the main thread, which workers, loading the module through Node, cannot.
    if (used && underVitest()) {
      throw new CheckModuleError(
        `a worker could not load the check's module ${moduleUrl}: it uses ${used[1]}, which vitest's transform gives ES modules in the main thread only; a worker loads the module ${loader}, and an ES module has no ${used[1]}. ` +
          `Use ${IN_ES_MODULES[used[1]!]} instead`,
      );
    }
    if (used) {
      throw new CheckModuleError(
        `a worker could not load the check's module ${moduleUrl}: it uses ${used[1]}, which CommonJS has and an ES module has not, and a worker loads it ${loader}, as the main thread did. ` +
          `Use ${IN_ES_MODULES[used[1]!]} instead; or run the tests under tsx (node --import tsx), which loads a TypeScript module of a CommonJS package as CommonJS in workers too`,
      );
    }
    if (OUTSIDE_RUNNER.test(said) || TEST_FILE.test(new URL(moduleUrl).pathname)) {
      throw new CheckModuleError(
        `the check's module ${moduleUrl} is a test file: a worker imports the check's module again, in a thread where no test runs, and its import threw there: ${said}. ` +
          'Move defineCheck, with the spec and function it names, into a module of its own that the test file imports, and run the check from the test file',
      );
    }
    throw new CheckModuleError(
      `the check's module ${moduleUrl} threw when a worker imported it: ${said}. ` +
        "Workers import the check's module again, so its top level runs in each worker thread too: it must not need the main thread (isMainThread) or what the test file set up",
    );
  }
}
