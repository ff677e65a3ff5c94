/**
 * The API reference's check: TypeDoc's conversion and validation, with typedoc.json's options, as
 * `typedoc --emit none` runs them, but on a program already made and type-checked, the type check's
 * (scripts/check-examples.ts), which holds the entry points: a process of its own made its program
 * from tsconfig.build.json, parsing, binding and typing `src/` again (6 s of CPU where this takes 2).
 * @module
 */
import { join, relative } from 'node:path';
import { Application, type DocumentationEntryPoint } from 'typedoc';
import type { Program } from 'typescript';

/** Converts and validates the API reference from `program` (the repository at `root`); whether TypeDoc reported no warning and no error (it prints them). */
export async function checkApiReference(program: Program, root: string): Promise<boolean> {
  // The options `typedoc --emit none` takes from typedoc.json (its treatWarningsAsErrors and validation); its type check is the program's.
  const app = await Application.bootstrapWithPlugins({ options: join(root, 'typedoc.json'), emit: 'none', skipErrorChecking: true });
  if (app.logger.hasErrors() || app.logger.hasWarnings()) return false;
  const entryPoints: DocumentationEntryPoint[] = app.options.getValue('entryPoints').map((path) => {
    const sourceFile = program.getSourceFile(path);
    if (sourceFile === undefined) throw new Error(`typedoc.json's entry point ${path} is not a file of the type check's program (tsconfig.json)`);
    return { displayName: relative(join(root, 'src'), path).replace(/\.ts$/, ''), sourceFile, program };
  });
  const project = app.converter.convert(entryPoints);
  app.validate(project);
  return !app.logger.hasErrors() && !app.logger.hasWarnings() && app.logger.validationWarningCount === 0;
}
