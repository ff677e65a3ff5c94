/**
 * How a worker thread loads the module that defines a check. A JavaScript module is imported as
 * it is. A TypeScript module is loaded as the runtime does (Bun, Node's type stripping), else
 * through the tsx of the module's own project, as an ES module: the loader a process runs under
 * does not reach its worker threads on Node 20 (`--import tsx` in a worker's execArgv registers no
 * hooks there), and vitest and jest transform modules in the runner, not in Node.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { workerData } from 'node:worker_threads';
import { describeSafely } from '../demand/describe.ts';
import { WORKER_RULE } from '../spec/registry.ts';

/** The `workerData` key that says a TypeScript loader is registered in the worker already (this repository's own tests). */
export const TS_LOADER = 'strictcheck.typescriptLoader';

/**
 * The environment variable that names a folder of JavaScript copies of this repository's
 * TypeScript (`<folder>/<path>.js` for `<root>/<path>.ts`, see scripts/transpile.ts) that a worker
 * started from the source imports in place of registering tsx, and the `workerData` key that
 * gives it to the worker: this repository's test runs name one, whose workers start in a quarter
 * of the CPU time (0.15 s, where 0.56 s through tsx).
 */
export const SOURCE_COPIES = 'STRICTCHECK_SOURCE_COPIES';

/** The URL of the module `moduleUrl`, or of its copy in `workerData`'s folder of copies of this repository if it has one. */
function copyOf(moduleUrl: string): string {
  const copies = (workerData as Record<string, unknown> | null)?.[SOURCE_COPIES];
  const root = new URL('../../', import.meta.url).href;
  if (typeof copies !== 'string' || !moduleUrl.startsWith(root) || !/\.ts$/.test(moduleUrl)) return moduleUrl;
  const copy = new URL(`${moduleUrl.slice(root.length, -'.ts'.length)}.js`, copies);
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

/** The conditions of Node's `import`, which an `exports` entry is matched against in the order of its keys. */
const IMPORT_CONDITIONS = ['node', 'import', 'default'];

/** The target of an `exports` entry under the conditions of `import`, if it has one. */
function importTarget(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return undefined;
  const key = Object.keys(entry).find((k) => IMPORT_CONDITIONS.includes(k));
  return key === undefined ? undefined : importTarget((entry as Record<string, unknown>)[key]);
}

/**
 * @internal The URL of the ES module build of tsx's API (`tsx/esm/api` as `import` resolves it) in the project
 * of `moduleUrl`, or undefined if it has no tsx. `require.resolve` would give its CommonJS build,
 * whose `register()` fails on Node 20 from tsx 4.23 on; and `import()` here would resolve from
 * strictcheck's folder, not the user's module's.
 */
export function tsxApi(moduleUrl: string): { url: string; version: string; folder: string } | undefined {
  let manifest: string;
  try {
    manifest = createRequire(moduleUrl).resolve('tsx/package.json');
  } catch {
    return undefined;
  }
  const { exports, version } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, unknown>; version: string };
  const folder = dirname(manifest);
  const target = importTarget(exports?.['./esm/api']);
  if (target === undefined) throw new CheckModuleError(`a worker cannot load ${moduleUrl}: the tsx of its project (${folder}) has no ES module API (tsx/esm/api); install tsx 4 or later (npm install --save-dev tsx@4)`);
  return { url: pathToFileURL(join(folder, target)).href, version, folder };
}

/**
 * A module hook that has the TypeScript of the project's own files (`.ts`, `.tsx`, not in
 * `node_modules`) imported as ES modules, as vitest and jest transform it, where tsx would
 * compile that of a CommonJS package (a `package.json` of `"type": "commonjs"`, as `npm init`
 * writes it, or of no type) to CommonJS: a check module then `require`s its own copy of
 * strictcheck, compiled to CommonJS too, whose registry and classes are not the worker's; and
 * without tsx's CommonJS hooks, Node's `require` takes it for an ES module already being imported,
 * and fails in a cycle. Registered after tsx, so that its `resolve` runs first.
 */
const TYPESCRIPT_AS_ES_MODULES = `export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const own = /^file:[^?#]*\\.tsx?(?:[?#]|$)/.test(resolved.url) && !resolved.url.includes('/node_modules/');
  return own && resolved.format !== 'module' && !context.conditions.includes('require') ? { ...resolved, format: 'module' } : resolved;
}`;

/**
 * The codes of Node's errors that say a module could not be loaded as the loader in force loads
 * it (as CommonJS or as an ES module, its TypeScript stripped or not), before its code ran.
 */
const UNLOADABLE = /^ERR_(?:REQUIRE_|UNKNOWN_FILE_EXTENSION$|UNKNOWN_MODULE_FORMAT$|UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING$|INVALID_TYPESCRIPT_SYNTAX$|UNSUPPORTED_TYPESCRIPT_SYNTAX$)/;

/**
 * @internal Imports `moduleUrl`, registering tsx first for a TypeScript module this runtime cannot
 * load alone, with the project's TypeScript as ES modules (see {@link TYPESCRIPT_AS_ES_MODULES});
 * refused, saying what to install, if there is no tsx. Each failure is a {@link CheckModuleError}
 * that says what failed: tsx, loading the module, the module's import, or finding the module.
 */
export async function importCheckModule(moduleUrl: string): Promise<void> {
  const typescript = /\.[cm]?tsx?$/.test(new URL(moduleUrl).pathname);
  let loader = typescript ? "by this runtime's TypeScript loader" : 'as JavaScript';
  if (typescript && !runsTypeScript() && (workerData as Record<string, unknown> | null)?.[TS_LOADER] !== true) {
    const api = tsxApi(moduleUrl);
    if (api === undefined) {
      throw new CheckModuleError(
        `a worker cannot load ${moduleUrl}: it is TypeScript, and this Node runs no TypeScript without a loader. ` +
          'Install tsx in your project (npm install --save-dev tsx): workers load TypeScript check modules through it',
      );
    }
    try {
      ((await import(api.url)) as { register(): void }).register();
      register(`data:text/javascript,${encodeURIComponent(TYPESCRIPT_AS_ES_MODULES)}`);
    } catch (err) {
      throw new CheckModuleError(`a worker could not register tsx ${api.version} (${api.folder}) to load ${moduleUrl}: ${describeSafely(err)}. Another version of tsx may load it (npm install --save-dev tsx@<version>)`);
    }
    loader = `as an ES module, through tsx ${api.version} (${api.folder})`;
  }
  try {
    await import(copyOf(moduleUrl));
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    // Not found: the URL given to defineCheck is not its module's own.
    if (code === 'ERR_MODULE_NOT_FOUND' && moduleUrl.startsWith('file:') && String((err as Error).message).includes(fileURLToPath(moduleUrl))) {
      throw new CheckModuleError(`a worker found no module at ${moduleUrl}, where the check was defined: ${WORKER_RULE}`);
    }
    // Node could not load a module of its graph as the worker loads it: no fault of the module's top level.
    if (typeof code === 'string' && UNLOADABLE.test(code)) {
      throw new CheckModuleError(
        `a worker could not load the check's module ${moduleUrl}, which it loads ${loader}: ${describeSafely(err)}. ` +
          'Make it an ES module, which every loader loads alike: rename it to .mts (or .mjs), or set "type": "module" in the package.json of its folder',
      );
    }
    throw new CheckModuleError(
      `the check's module ${moduleUrl} threw when a worker imported it: ${describeSafely(err)}. ` +
        "Workers import the check's module again, so its top level runs in each worker thread too: it must not need the main thread (isMainThread) or what the test file set up",
    );
  }
}
