/**
 * Stack traces that show the source's lines for frames of the JavaScript copies
 * (scripts/transpile.ts), as source maps in use do, with each copy's inline map read only when a
 * stack shows one of its frames: the prelude of every thread and process npm test runs from the
 * copies (`fromCopies`). With source maps in use, Node 20 decodes the inline map of every module as
 * it loads it, about 40 ms of CPU a worker (of 0.2 s), and npm test starts 150 workers.
 * @module
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

const INLINE_MAP = /\/\/# sourceMappingURL=data:application\/json;base64,(\S+)\s*$/;

/** The source map of each copy whose frame a stack has shown, by the copy's URL (undefined for a module with none). */
const maps = new Map<string, SourceMap | undefined>();

/** The source map of the copy at `url`; none if it has none, or cannot be read (a stack is formatted all the same, as Node does). */
function mapOf(url: string): SourceMap | undefined {
  if (!maps.has(url)) {
    let map: SourceMap | undefined;
    try {
      const inline = INLINE_MAP.exec(readFileSync(fileURLToPath(url), 'utf8'))?.[1];
      map = inline === undefined ? undefined : new SourceMap(JSON.parse(Buffer.from(inline, 'base64').toString()));
    } catch {
      map = undefined;
    }
    maps.set(url, map);
  }
  return maps.get(url);
}

/** A stack frame as V8 writes it, its place in a copy replaced by the place in the source its map gives. */
function frame(site: NodeJS.CallSite, copies: string): string {
  const line = String(site);
  const url = site.getFileName();
  const row = site.getLineNumber();
  const column = site.getColumnNumber();
  if (!url?.startsWith(copies) || row === null || column === null) return line;
  const entry = mapOf(url)?.findEntry(row - 1, column - 1);
  if (entry === undefined || !('originalSource' in entry)) return line;
  return line.replace(`${url}:${row}:${column}`, `${fileURLToPath(entry.originalSource)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`);
}

/** Has the stack traces of this thread show the source's places for frames of the copies in `copies` (a folder's URL): the prelude of a worker started from them (`SOURCE_PRELUDE`). */
export default function mapStackLines(copies: string): void {
  Error.prepareStackTrace = (error: Error, sites: NodeJS.CallSite[]) =>
    [Error.prototype.toString.call(error), ...sites.map((site) => frame(site, copies))].join('\n    at ');
}
