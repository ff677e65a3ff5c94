/**
 * `npm run repl`, driven as a user types into it: each transcript of `docs/tutorial.md` (a code
 * block of `strictcheck> ` lines and what they print) is replayed in one REPL, in the tutorial's
 * order, and the REPL must print what the tutorial shows. That checks how demands, lists and
 * queues print in the Node REPL, and keeps the tutorial true.
 * @module
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { markdownBlocks } from '../scripts/markdown.ts';
import { importable, ownProcessArgs } from './fixtures/own-process.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const PROMPT = 'strictcheck> ';

/** One line typed at the prompt, and what the REPL prints for it. */
type Exchange = { readonly input: string; readonly output: string };

/** The tutorial's transcripts: its code blocks without a language whose lines start at the prompt. */
function transcripts(): Exchange[][] {
  return markdownBlocks(readFileSync(`${root}docs/tutorial.md`, 'utf8'))
    .filter((block) => block.lang === '' && block.code.startsWith(PROMPT))
    .map((block) =>
      block.code
        .trimEnd()
        .split(`\n${PROMPT}`)
        .map((exchange, i) => {
          const [input, ...output] = (i === 0 ? exchange.slice(PROMPT.length) : exchange).split('\n');
          return { input: input!, output: output.join('\n') };
        }),
    );
}

/** Types `inputs` into a fresh `npm run repl` (stdin a pipe, as in a script) and returns what it printed after each. */
async function replay(inputs: readonly string[]): Promise<string[]> {
  const repl = fileURLToPath(importable(new URL('../repl.ts', import.meta.url)));
  const child = spawn(process.execPath, [...ownProcessArgs(), repl], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
  child.stdin.end(inputs.map((l) => `${l}\n`).join(''));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, `the REPL exited with ${code}: ${err}`);
  // The help comes first; then each input's output follows a prompt, and the last prompt waits for more.
  const answers = out.split(PROMPT).slice(1, -1);
  assert.equal(answers.length, inputs.length, `expected ${inputs.length} answers, the REPL printed:\n${out}`);
  return answers.map((a) => a.trimEnd());
}

/** What a check result prints in the REPL: typed after the transcripts, in the same REPL. */
const CHECK_INPUTS = ['checkSpec(takeSpec, takePrime, { seed: 2018, trials: 300 })', '_.seed', '.strictcheck'];

/**
 * The transcripts typed one after another into one REPL, as a reader of the tutorial types them,
 * then {@link CHECK_INPUTS}: a REPL is a process of its own (each took about a second of CPU time),
 * and a declaration typed again (`const d`, `let q`) is taken, as the REPL takes it.
 */
let session: Promise<{ blocks: Exchange[][]; answers: string[] }> | undefined;
const replayed = () =>
  (session ??= (async () => {
    const blocks = transcripts();
    return { blocks, answers: await replay([...blocks.flat().map((e) => e.input), ...CHECK_INPUTS]) };
  })());

test('the REPL prints what every transcript of the tutorial shows', async () => {
  const { blocks, answers } = await replayed();
  assert.ok(blocks.length >= 5, `found ${blocks.length} transcripts in docs/tutorial.md`);
  blocks.flat().forEach(({ input, output }, i) => {
    // The tutorial leaves out the `undefined` that a declaration prints.
    const expected = output === '' && /^(const|let) /.test(input) ? 'undefined' : output;
    assert.equal(answers[i], expected, `after \`${input}\``);
  });
});

test('in the REPL, a check result prints as its report, with its fields at hand', async () => {
  const [report, seed, help] = (await replayed()).answers.slice(-CHECK_INPUTS.length);
  assert.match(report!, /^Failed: the spec does not match the function \(after 1 trial and 0 shrinks; seed 2018\)\n┌/);
  // the paper's counterexample of take': 0 and [], nothing of the result demanded
  assert.match(report!, /│ • 0 {4}│ {3}│ \[\] {15}│/);
  assert.match(report!, /│ • _ {18}│ {7}│ • 0 {18}│/);
  assert.equal(seed, '2018');
  assert.match(help!, /^strictcheck REPL: the library and the paper's examples are in scope/);
});
