/**
 * How a worker thread loads the module that defines a check. A JavaScript module is imported as
 * it is. A TypeScript module is loaded as the runtime does (Bun, Node's type stripping), else
 * through the tsx of the module's own project: the loader a process runs under does not reach its
 * worker threads on Node 20 (`--import tsx` in a worker's execArgv registers no hooks there), and
 * vitest and jest transform modules in the runner, not in Node.
 * @module
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { workerData } from 'node:worker_threads';

/** The `workerData` key that says a TypeScript loader is registered in the worker already (this repository's own tests). */
export const TS_LOADER = 'strictcheck.typescriptLoader';

/** Whether this runtime loads TypeScript modules by itself. */
function runsTypeScript(): boolean {
  return Boolean((process.features as { typescript?: unknown }).typescript) || process.versions.bun !== undefined;
}

/** @internal Imports `moduleUrl`, registering tsx first for a TypeScript module this runtime cannot load alone; refused, saying what to install, if there is none. */
export async function importCheckModule(moduleUrl: string): Promise<void> {
  const typescript = /\.[cm]?tsx?$/.test(new URL(moduleUrl).pathname);
  if (typescript && !runsTypeScript() && (workerData as Record<string, unknown> | null)?.[TS_LOADER] !== true) {
    let api: string;
    try {
      api = createRequire(moduleUrl).resolve('tsx/esm/api');
    } catch {
      throw new Error(
        `a worker cannot load ${moduleUrl}: it is TypeScript, and this Node runs no TypeScript without a loader. ` +
          'Install tsx in your project (npm install --save-dev tsx): workers load TypeScript check modules through it',
      );
    }
    ((await import(pathToFileURL(api).href)) as { register(): void }).register();
  }
  await import(moduleUrl);
}
