/**
 * JavaScript copies of the repository's TypeScript (`src/`, `test/`, `examples/`, `scripts/`, `bench/`, `repl.ts`) in `.cache/transpiled/`,
 * made by esbuild as the package is (no type check: the group `compile` checks the types),
 * from which `npm test`'s groups run their test files (test/groups.ts) and start their worker
 * threads. A worker started from the source registered tsx to load the source and the check's
 * module: 0.56 s of CPU a worker, where one that imports these copies takes 0.15 s (module hooks
 * that served them at the modules' own URLs took 0.29 s), and a run starts about 140 workers. A
 * copy is its module as it is imported: its relative imports name the copies (`.js`, or the module
 * itself if it is not TypeScript), its `import.meta.url` is its module's (so a check's module URL,
 * the registry's key, is the same in both threads, and paths made from it are the source's), and
 * its inline source map names its module, so that stack traces show the source's lines, as under tsx.
 *
 * `npm test` runs this first (scripts/pretest.ts), once, so that its groups,
 * which each transpile what is stale (see test/groups.ts), find nothing to do rather than all
 * transpiling the same files at once.
 * @module
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { copyPath, SOURCE_COPIES, SOURCE_PRELUDE } from '../src/parallel/load-module.ts';
import { writeWhole } from './write-whole.ts';

const repository = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The folder of the copies, from the repository's root: `<file>.ts` is copied to `<COPIES>/<file>.js`. */
export const COPIES = '.cache/transpiled';

/**
 * The modules that are copied, from `root`: the TypeScript of these folders but declarations and
 * the consumer project (a project of its own, test/package.test.ts), and the REPL's (test/repl.test.ts runs it).
 */
function modules(root: string): string[] {
  const repl = existsSync(join(root, 'repl.ts')) ? ['repl.ts'] : [];
  return repl.concat(['src', 'test', 'examples', 'scripts', 'bench'].flatMap((dir) =>
    existsSync(join(root, dir))
      ? readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
          .map((f) => `${dir}/${f.replaceAll('\\', '/')}`)
          .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.startsWith('test/fixtures/consumer/') && !f.includes('node_modules/'))
      : [],
  ));
}

/**
 * Transpiles each module under `root` whose copy is missing or older than it (or than this
 * module, which makes them); returns those modules. A copy is written whole or not at all
 * (renamed into place), as groups that find the same module stale may write it at once. A copy
 * whose module is gone is removed: imported, it would hide that the module is missing.
 */
export async function transpileStale(root = repository): Promise<string[]> {
  const folder = copiesUrl(root);
  const made = statSync(fileURLToPath(import.meta.url)).mtimeMs;
  const copies = new Map(modules(root).map((f) => [f, fileURLToPath(copyPath(f, folder))]));
  removeOrphans(root, new Set(copies.values()));
  const stale = [...copies].filter(([f, copy]) => !existsSync(copy) || statSync(copy).mtimeMs < Math.max(made, statSync(join(root, f)).mtimeMs)).map(([f]) => f);
  if (stale.length === 0) return stale;
  // Imported only when a copy is stale: esbuild starts a process of its own.
  const [{ transform }, lexer] = await Promise.all([import('esbuild'), import('es-module-lexer')]);
  await lexer.init;
  await Promise.all(stale.map(async (f) => {
    const url = pathToFileURL(join(root, f)).href;
    // esbuild, as the package is built, but each file alone, so that no name is changed (the bundle keeps its names with keepNames): all the copies in under a second (1.5 s of CPU, its process's included), where TypeScript's transpileModule took 5 s (8 s of CPU).
    const { code } = await transform(readFileSync(join(root, f), 'utf8'), {
      loader: 'ts', format: 'esm', target: 'es2022', sourcefile: url, sourcemap: 'inline', sourcesContent: false,
      define: { 'import.meta.url': JSON.stringify(url) },
    });
    writeWhole(copies.get(f)!, withCopiesImported(code, url, lexer.parse(code)[0]));
  }));
  return stale;
}

/**
 * `code`, the copy of the module at `url`, with its relative imports (`imports`, as es-module-lexer
 * finds them) naming the copies: `.js` for `.ts`, and a module that is not TypeScript (bench/gc.mjs)
 * by its URL, the module itself (the columns after it on its line then differ from its source map's). A dynamic import's specifier is its quoted literal; a static one's, its text.
 */
function withCopiesImported(code: string, url: string, imports: readonly { n?: string | undefined; s: number; e: number; d: number }[]): string {
  let out = '';
  let at = 0;
  for (const { n, s, e, d } of imports) {
    if (n === undefined || !/^\.\.?\//.test(n)) continue;
    const target = n.endsWith('.ts') ? `${n.slice(0, -'.ts'.length)}.js` : new URL(n, url).href;
    out += code.slice(at, s) + (d > -1 ? JSON.stringify(target) : target);
    at = e;
  }
  return out + code.slice(at);
}

/** Removes the copies under `root`'s folder of copies that are not in `copies` (of no module now); not a temporary file (`<copy>.js.<pid>`), which another group may be renaming into place. */
function removeOrphans(root: string, copies: ReadonlySet<string>): void {
  const folder = join(root, COPIES);
  if (!existsSync(folder)) return;
  for (const f of readdirSync(folder, { recursive: true, encoding: 'utf8' })) {
    const copy = join(folder, f);
    if (f.endsWith('.js') && !copies.has(copy)) rmSync(copy, { force: true });
  }
}

/**
 * Code (an ES module's, top-level await) that has the thread or process it runs in run from the
 * copies in `copies`, as useTranspiled has this one: the workers it starts import them, after the
 * prelude scripts/stack-lines.ts, which also has its own stack traces show the source's lines for
 * the copies' frames, as under tsx. A process's `--import` (`data:text/javascript,…`), or the start
 * of a worker's code.
 */
export function fromCopies(copies: string): string {
  const prelude = JSON.stringify(copyPath('scripts/stack-lines.ts', copies).href);
  return `globalThis.${SOURCE_COPIES} = ${JSON.stringify(copies)}; globalThis.${SOURCE_PRELUDE} = ${prelude}; (await import(${prelude})).default(${JSON.stringify(copies)});`;
}

/** Makes the copies up to date, and has this thread run from them (`fromCopies`); returns their folder's URL. */
export async function useTranspiled(): Promise<string> {
  await transpileStale();
  const copies = copiesUrl(repository);
  await import(`data:text/javascript,${encodeURIComponent(fromCopies(copies))}`);
  return copies;
}

/** The URL of the folder of the copies of the modules under `root`. */
function copiesUrl(root: string): string {
  return pathToFileURL(join(root, COPIES, '/')).href;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await transpileStale();
