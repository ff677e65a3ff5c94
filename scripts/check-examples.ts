/**
 * Type-checks the `@example` blocks of the TSDoc comments in `src/` and the `ts` code of the
 * README and `docs/`, so that the examples stay true to the API. Each block becomes a
 * module that imports, of the public API (every export of `src/index.ts`) and, in a module of
 * `src/`, of that module's own exports, node:test's `test`,
 * fast-check and the paper's `take` examples, the names it does not declare or import itself;
 * `'strictcheck'` is the entry point. A block after a `<!-- quote: examples/… -->` line quotes
 * that file instead: its lines (but the `//` comments it adds) must be lines of the file, in
 * order, so that an abridged quote cannot drift from the code. Run by `npm test`.
 *
 * It is the project's type check too: the examples are checked in one program with the files of
 * `tsconfig.json` and its options, which reports what `tsc --noEmit` reports (but for a name an
 * example leaves unused), where a second program, `tsc --noEmit`'s, parsed and checked them again.
 * TypeDoc then converts and validates the API reference from that program (scripts/api-reference.ts).
 * A run that would read all as the last passing run read it passes without checking (scripts/passed-inputs.ts).
 * @module
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostic, SourceFile } from 'typescript';
import { markdownBlocks, type MarkdownBlock } from './markdown.ts';
import { forgetPass, passedAsIs, recordPass } from './passed-inputs.ts';
import { writeWhole } from './write-whole.ts';

// Required, not imported: an import of TypeScript's 9 MB of CommonJS scans it for its exports first (0.6 s of CPU).
const ts: typeof import('typescript') = createRequire(import.meta.url)('typescript');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
/**
 * tsconfig.json's options, and an incremental check, as `tsc --incremental` makes: what the last run
 * found of each file is kept in `.cache/` with the hash of the file's text, and a file is checked again
 * only if it or a file whose types it uses changed (the type check took 20 s of CPU of this script's 33).
 */
const options = { ...config.options, incremental: true, tsBuildInfoFile: join(root, '.cache/typecheck.tsbuildinfo') };

/** The last passing run's inputs (see scripts/passed-inputs.ts): if none changed, nothing is checked again. */
const PASSED = join(root, '.cache/check-examples.json');
/** The documents whose `ts` blocks are examples: the README and docs/. */
const documents = [join(root, 'README.md'), ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(root, 'docs', f))];
/** What the run is given to check, the project's files and the documents: a file added to either is a change. */
const named = [...config.fileNames, ...documents];
if (passedAsIs(PASSED, named)) {
  console.log(`Nothing the last passing run read has changed (${relative(root, PASSED)}): the type check, the examples, the quotes and the API reference pass as they did`);
  process.exit(0);
}
/** The files this run reads and their texts, for the record of a pass: all TypeScript reads (source files, package.json files), the documents, the quoted files. */
const read = new Map<string, string>();
const readFile = (path: string): string => {
  const text = readFileSync(path, 'utf8');
  read.set(path, text);
  return text;
};

/** The example modules, made below, by file name: the program's host reads them from here. */
const virtual = new Map<string, { text: string; origin: string }>();
// One host for both programs, which parses each file once: the examples' program takes the source
// files of the program that tells the exports. Incremental, it gives each file the hash of its text, which the cache keeps.
const host = ts.createIncrementalCompilerHost(options, {
  ...ts.sys,
  fileExists: (name) => virtual.has(name) || ts.sys.fileExists(name),
  readFile: (name, encoding) => {
    if (virtual.has(name)) return virtual.get(name)!.text;
    const text = ts.sys.readFile(name, encoding);
    if (text !== undefined && name !== options.tsBuildInfoFile) read.set(name, text);
    return text;
  },
});
const { getSourceFile } = host;
const parsed = new Map<string, SourceFile | undefined>();
host.getSourceFile = (name, ...rest) => {
  if (!parsed.has(name) || virtual.has(name)) parsed.set(name, getSourceFile.call(host, name, ...rest));
  return parsed.get(name);
};

/** The names a module of `src/` exports, as values and as types only. */
const exportsProgram = ts.createProgram([join(root, 'src/index.ts')], options, host);
function exportsOf(file: string): { values: string[]; types: string[] } {
  const checker = exportsProgram.getTypeChecker();
  const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(exportsProgram.getSourceFile(file)!)!);
  const values: string[] = [];
  const types: string[] = [];
  for (const s of exported) {
    const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
    (target.flags & ts.SymbolFlags.Value ? values : types).push(s.name);
  }
  return { values, types };
}

/** A code block: its first line, its code, and for a quote the file it quotes. */
type Block = Omit<MarkdownBlock, 'lang'>;

/** The `@example` code blocks of a source file, or the `ts` code blocks of a Markdown file, with their line numbers. */
function examplesOf(path: string): Block[] {
  const text = readFile(path);
  if (path.endsWith('.md')) return markdownBlocks(text).filter((b) => b.lang === 'ts');
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  const found: Block[] = [];
  for (const m of text.matchAll(/@example\s*\n((?:[ \t]*\*.*\n)*?)[ \t]*\*\//g)) {
    const block = m[1]!.split('\n').map((l) => l.replace(/^[ \t]*\* ?/, '')).join('\n');
    const code = markdownBlocks(block).find((b) => b.lang === 'ts')?.code;
    if (code !== undefined) found.push({ line: lineOf(m.index), code });
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** Why quote `code` is not an abridgement of the file `quoted` (its lines, in order, but added `//` comments), or `undefined` if it is. */
function misquote(code: string, quoted: string): string | undefined {
  const source = readFile(join(root, quoted)).split('\n').map((l) => l.trim());
  let at = 0;
  for (const line of code.split('\n').map((l) => l.trim())) {
    if (line === '' || line.startsWith('//')) continue;
    const found = source.indexOf(line, at);
    if (found < 0) return `not in ${quoted}${source.includes(line) ? ' after the line before it' : ''}: ${line}`;
    at = found + 1;
  }
  return undefined;
}

const { values, types } = exportsOf(join(root, 'src/index.ts'));
const misquotes: string[] = [];
let quotes = 0;
for (const path of [...sourceFiles(join(root, 'src')), ...documents]) {
  for (const { line, code, quote } of examplesOf(path)) {
    if (quote !== undefined) {
      quotes++;
      const wrong = misquote(code, quote);
      if (wrong) misquotes.push(`${relative(root, path)}:${line}: quote ${wrong}`);
      continue;
    }
    // The names the block declares or imports itself; the header brings the others it may use.
    const declared = new Set([...code.matchAll(/\b(?:const|let|function|class|type|interface)\s+(\w+)/g)].map((m) => m[1]!));
    for (const m of code.matchAll(/\b(?:const\s*[[{]|import\s*(?:type\s*)?\{)([^\]}=]*)[\]}]/g)) for (const name of m[1]!.match(/\w+(?=\s*(?:,|$))/g) ?? []) declared.add(name);
    for (const m of code.matchAll(/\bimport\s+(?:\*\s+as\s+)?(\w+)\s+from/g)) declared.add(m[1]!);
    const free = (names: readonly string[]) => names.filter((n) => !declared.has(n)).join(', ');
    const header = [
      declared.has('test') ? '' : "import { test } from 'node:test';",
      declared.has('fc') ? '' : "import fc from 'fast-check';",
      `import { ${free(['take', 'takePrime', 'takeSpec'])} } from './examples/take.ts';`,
      `import { ${free(values)} } from './src/index.ts';`,
      `import type { ${free(types)} } from './src/index.ts';`,
      // An example in a module may use the module's own internals too.
      internalImports(path, (names) => free(names.filter((n) => !values.includes(n) && !types.includes(n) && !['take', 'takePrime', 'takeSpec'].includes(n)))),
      // a check defined with defineCheck in a module of its own, as the parallel examples say
      /\btakeCheck\b/.test(code) && !declared.has('takeCheck') ? 'declare const takeCheck: DefinedCheck<[Lazy<number>, LazyList<number>], LazyList<number>>;' : '',
    ].join('\n');
    const file = join(root, `.example-${virtual.size}.ts`);
    virtual.set(file, { text: `${header}\nexport {};\n${code.replaceAll("from 'strictcheck'", "from './src/index.ts'")}`, origin: `${relative(root, path)}:${line}` });
  }
}

/** For an example in a module of `src/`, the import of that module's exports (`filter` names which), else nothing. */
function internalImports(path: string, filter: (names: string[]) => string): string {
  if (!path.endsWith('.ts')) return '';
  const own = exportsOf(path);
  const module = `./${relative(root, path)}`;
  const [vals, typs] = [filter(own.values), filter(own.types)];
  return `${vals ? `import { ${vals} } from '${module}';` : ''}\n${typs ? `import type { ${typs} } from '${module}';` : ''}`;
}

// The project's files and the examples, in one program: its diagnostics are tsc --noEmit's and the examples'.
const builder = ts.createIncrementalProgram({ rootNames: [...config.fileNames, ...virtual.keys()], options, host, configFileParsingDiagnostics: config.errors });
const program = builder.getProgram();
// Examples use a few names each: the imports they do not use are not errors (noUnusedLocals' diagnostics are flagged reportsUnnecessary).
const inExample = (d: Diagnostic): boolean => d.file !== undefined && virtual.has(d.file.fileName);
const diagnostics = [
  ...builder.getConfigFileParsingDiagnostics(),
  ...builder.getOptionsDiagnostics(),
  ...builder.getSyntacticDiagnostics(),
  ...builder.getGlobalDiagnostics(),
  ...builder.getSemanticDiagnostics(),
].filter((d) => !(inExample(d) && d.reportsUnnecessary));
// With noEmit, writes the cache only; whole, as two runs at once may write it.
builder.emit(undefined, writeWhole);
const errors = diagnostics.filter(inExample);
const projectErrors = diagnostics.filter((d) => !inExample(d));
if (projectErrors.length > 0) console.error(ts.formatDiagnostics(projectErrors, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' }));
for (const d of errors) {
  const { origin, text } = virtual.get(d.file!.fileName)!;
  const line = text.slice(0, d.start).split('\n').length - text.split('\nexport {};\n')[0]!.split('\n').length - 1;
  console.error(`${origin}, example line ${line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}
for (const m of misquotes) console.error(m);
// Imported here, so that a run with nothing to check does not load TypeDoc (and TypeScript again, as an ES module: 1.5 s of CPU).
const { checkApiReference } = await import('./api-reference.ts');
const documented = await checkApiReference(program, root);
console.log(`${config.fileNames.length} files of tsconfig.json: ${projectErrors.length === 0 ? 'all type-check' : `${projectErrors.length} errors`}`);
console.log(`${virtual.size} examples (TSDoc comments of src/, README.md, docs/): ${errors.length === 0 ? 'all type-check' : `${errors.length} errors`}`);
console.log(`${quotes} quotes of examples/ in docs/: ${misquotes.length === 0 ? 'all match their files' : `${misquotes.length} ${misquotes.length === 1 ? 'does' : 'do'} not`}`);
console.log(`API reference (typedoc.json): ${documented ? 'converts and validates' : 'TypeDoc reported what is above'}`);
const passed = diagnostics.length === 0 && misquotes.length === 0 && documented;
// What TypeDoc and the configuration read besides; npm's record of node_modules, which changes with any install there.
for (const file of ['tsconfig.json', 'tsconfig.build.json', 'typedoc.json', 'package.json', 'node_modules/.package-lock.json']) readFile(join(root, file));
if (passed) recordPass(PASSED, named, read);
else forgetPass(PASSED);
process.exitCode = passed ? 0 : 1;
