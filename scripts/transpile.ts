/**
 * JavaScript copies of the repository's TypeScript (`src/`, `test/`, `examples/`, `scripts/`, `bench/`, `repl.ts`) in `.cache/transpiled/`,
 * made by TypeScript's `transpileModule` (no type check: the group `compile` checks the types),
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
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TransformerFactory, SourceFile } from 'typescript';
import { copyPath, SOURCE_COPIES } from '../src/parallel/load-module.ts';
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
export function transpileStale(root = repository): string[] {
  const folder = copiesUrl(root);
  const made = statSync(fileURLToPath(import.meta.url)).mtimeMs;
  const copies = new Map(modules(root).map((f) => [f, fileURLToPath(copyPath(f, folder))]));
  removeOrphans(root, new Set(copies.values()));
  const stale = [...copies].filter(([f, copy]) => !existsSync(copy) || statSync(copy).mtimeMs < Math.max(made, statSync(join(root, f)).mtimeMs)).map(([f]) => f);
  if (stale.length === 0) return stale;
  // Required, not imported: an import of TypeScript's 9 MB of CommonJS scans it for its exports first.
  const ts: typeof import('typescript') = createRequire(import.meta.url)('typescript');
  const compilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, rewriteRelativeImportExtensions: true, sourceMap: true };
  for (const f of stale) {
    const url = pathToFileURL(join(root, f)).href;
    // A relative import of a module that is not TypeScript (bench/gc.mjs) is of the module itself, by its URL.
    const original = (specifier: import('typescript').Expression | undefined) =>
      specifier && ts.isStringLiteral(specifier) && /^\.\.?\//.test(specifier.text) && !/\.ts$/.test(specifier.text) ? ts.factory.createStringLiteral(new URL(specifier.text, url).href) : specifier;
    const moduleUrl: TransformerFactory<SourceFile> = (context) => (file) =>
      ts.visitEachChild(file, function visit(node): import('typescript').Node {
        const { factory: f } = ts;
        if (ts.isPropertyAccessExpression(node) && ts.isMetaProperty(node.expression) && node.expression.keywordToken === ts.SyntaxKind.ImportKeyword && node.name.text === 'url') return f.createStringLiteral(url);
        if (ts.isImportDeclaration(node)) return f.updateImportDeclaration(node, node.modifiers, node.importClause, original(node.moduleSpecifier)!, node.attributes);
        if (ts.isExportDeclaration(node)) return f.updateExportDeclaration(node, node.modifiers, node.isTypeOnly, node.exportClause, original(node.moduleSpecifier), node.attributes);
        if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) return ts.visitEachChild(f.updateCallExpression(node, node.expression, node.typeArguments, [original(node.arguments[0])!, ...node.arguments.slice(1)]), visit, context);
        return ts.visitEachChild(node, visit, context);
      }, context);
    const { outputText, sourceMapText } = ts.transpileModule(readFileSync(join(root, f), 'utf8'), { fileName: join(root, f), compilerOptions, transformers: { before: [moduleUrl] } });
    const map = Buffer.from(JSON.stringify({ ...JSON.parse(sourceMapText!), sources: [url], sourceRoot: undefined })).toString('base64');
    const copy = copies.get(f)!;
    writeWhole(copy, `${outputText.replace(/\/\/# sourceMappingURL=.*\s*$/, '')}//# sourceMappingURL=data:application/json;base64,${map}\n`);
  }
  return stale;
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

/** Makes the copies up to date, and has the workers this process starts from the source import them; returns their folder's URL. */
export function useTranspiled(): string {
  transpileStale();
  return ((globalThis as Record<string, unknown>)[SOURCE_COPIES] = copiesUrl(repository));
}

/** The URL of the folder of the copies of the modules under `root`. */
function copiesUrl(root: string): string {
  return pathToFileURL(join(root, COPIES, '/')).href;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) transpileStale();
