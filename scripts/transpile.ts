/**
 * JavaScript copies of the repository's TypeScript (`src/`, `test/`, `examples/`) in `.cache/transpiled/`,
 * made by TypeScript's `transpileModule` (no type check: the group `compile` checks the types),
 * for the worker threads of `npm test`. A worker started from the source registered tsx to load
 * the source and the check's module: 0.56 s of CPU a worker, where one that loads these copies
 * through `scripts/transpiled-hooks.mjs` takes 0.29 s, and a run starts about 140 workers. The
 * hooks serve each copy at its module's own URL, so a check module's `import.meta.url`, its checks'
 * registry and the source's lines in stack traces (an inline source map) are as under tsx.
 *
 * `npm test` runs this first (`node --import tsx scripts/transpile.ts`), once, so that its groups,
 * which each transpile what is stale (see test/groups.ts), find nothing to do rather than all
 * transpiling the same files at once.
 * @module
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SOURCE_LOADER } from '../src/parallel/load-module.ts';

const repository = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The folder of the copies, from the repository's root: `<file>.ts` is copied to `<COPIES>/<file>.js`. */
export const COPIES = '.cache/transpiled';
/** The module hooks that load the copies (see the module's comment). */
export const TRANSPILED_HOOKS = new URL('./transpiled-hooks.mjs', import.meta.url).href;
/** What the copies are made by: a copy older than these is made again. */
const MAKERS = [fileURLToPath(import.meta.url), fileURLToPath(TRANSPILED_HOOKS)];

/** The modules that are copied, from `root`: the TypeScript of these folders but declarations and the consumer project (a project of its own, test/package.test.ts). */
function modules(root: string): string[] {
  return ['src', 'test', 'examples'].flatMap((dir) =>
    existsSync(join(root, dir))
      ? readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
          .map((f) => `${dir}/${f.replaceAll('\\', '/')}`)
          .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.startsWith('test/fixtures/consumer/') && !f.includes('node_modules/'))
      : [],
  );
}

/**
 * Transpiles each module under `root` whose copy is missing or older than it (or than what makes
 * the copies); returns those modules. A copy is written whole or not at all (renamed into place),
 * as groups that find the same module stale may write it at once.
 */
export function transpileStale(root = repository): string[] {
  const made = Math.max(...MAKERS.map((f) => statSync(f).mtimeMs));
  const stale = modules(root).filter((f) => {
    const copy = join(root, COPIES, `${f.slice(0, -3)}.js`);
    return !existsSync(copy) || statSync(copy).mtimeMs < Math.max(made, statSync(join(root, f)).mtimeMs);
  });
  if (stale.length === 0) return stale;
  // Required, not imported: an import of TypeScript's 9 MB of CommonJS scans it for its exports first.
  const ts: typeof import('typescript') = createRequire(import.meta.url)('typescript');
  const compilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, inlineSourceMap: true };
  for (const f of stale) {
    const copy = join(root, COPIES, `${f.slice(0, -3)}.js`);
    const { outputText } = ts.transpileModule(readFileSync(join(root, f), 'utf8'), { fileName: join(root, f), compilerOptions });
    mkdirSync(dirname(copy), { recursive: true });
    writeFileSync(`${copy}.${process.pid}`, outputText);
    renameSync(`${copy}.${process.pid}`, copy);
  }
  return stale;
}

/** Makes the copies up to date, and has the workers this process starts from the source load them. */
export function useTranspiled(): void {
  transpileStale();
  process.env[SOURCE_LOADER] = TRANSPILED_HOOKS;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) transpileStale();
