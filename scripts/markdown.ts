/**
 * The fenced code blocks of a Markdown text, for the checks that read the docs' code
 * (`scripts/check-examples.ts`, `test/repl.test.ts`).
 * @module
 */

/** A fenced code block: its language (`''` if none), first line of code (1-based), code, and the file it quotes (a `<!-- quote: path -->` line just before its fence). */
export interface MarkdownBlock {
  readonly lang: string;
  readonly line: number;
  readonly code: string;
  readonly quote?: string;
}

/** The fenced code blocks of `text`, in order: a fence opens with three backticks and a language, and closes with three backticks alone. */
export function markdownBlocks(text: string): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)$/.exec(lines[i]!);
    if (!open) continue;
    const start = i + 1;
    while (i + 1 < lines.length && lines[i + 1] !== '```') i++;
    const quote = /^<!-- quote: (\S+) -->$/.exec(lines[start - 2] ?? '')?.[1];
    blocks.push({ lang: open[1]!, line: start + 1, code: lines.slice(start, i + 1).join('\n') + '\n', ...(quote ? { quote } : {}) });
    i++; // the closing fence
  }
  return blocks;
}
