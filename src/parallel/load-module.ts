/**
 * How a worker thread loads the module that defines a check. A JavaScript module is imported as
 * it is. A TypeScript module is loaded as the runtime does (Bun, Node's type stripping), else
 * through the tsx of the module's own project: the loader a process runs under does not reach its
 * worker threads on Node 20 (`--import tsx` in a worker's execArgv registers no hooks there), and
 * vitest and jest transform modules in the runner, not in Node.
 * @module
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { workerData } from 'node:worker_threads';

/** The `workerData` key that says a TypeScript loader is registered in the worker already (this repository's own tests). */
export const TS_LOADER = 'strictcheck.typescriptLoader';

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

/**
 * @internal The URL of the ES module of tsx's API (`tsx/esm/api` as `import` resolves it) in the
 * project of the module at `fromUrl`; throws if tsx is not there. Not the CommonJS module that
 * `require` resolves: imported, tsx 4.23's registers its hooks from a folder that does not exist.
 */
export function tsxApi(fromUrl: string): string {
  const manifest = createRequire(fromUrl).resolve('tsx/package.json');
  const entry = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: string | { default: string } }> }).exports['./esm/api']!.import;
  return new URL(typeof entry === 'string' ? entry : entry.default, pathToFileURL(manifest)).href;
}

/** @internal Imports `moduleUrl`, registering tsx first for a TypeScript module this runtime cannot load alone; refused, saying what to install, if there is none. */
export async function importCheckModule(moduleUrl: string): Promise<void> {
  const typescript = /\.[cm]?tsx?$/.test(new URL(moduleUrl).pathname);
  if (typescript && !runsTypeScript() && (workerData as Record<string, unknown> | null)?.[TS_LOADER] !== true) {
    let api: string;
    try {
      api = tsxApi(moduleUrl);
    } catch {
      throw new Error(
        `a worker cannot load ${moduleUrl}: it is TypeScript, and this Node runs no TypeScript without a loader. ` +
          'Install tsx in your project (npm install --save-dev tsx): workers load TypeScript check modules through it',
      );
    }
    ((await import(api)) as { register(): void }).register();
  }
  await import(moduleUrl);
}
