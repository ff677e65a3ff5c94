/**
 * The counterexample diagram (as the original StrictCheck draws it): inputs and the demand on the
 * result above, the actual and predicted input demands below. Unicode where the terminal is, ASCII
 * elsewhere.
 * @module
 */

/** The characters of one drawing style. */
interface Style {
  readonly h: string;
  readonly v: string;
  readonly tl: string;
  readonly tr: string;
  readonly bl: string;
  readonly br: string;
  readonly lt: string; // ├
  readonly rt: string; // ┤
  readonly bullet: string;
  readonly arrows: string;
  readonly differs: string;
}

const UNICODE: Style = { h: '─', v: '│', tl: '┌', tr: '┐', bl: '└', br: '┘', lt: '├', rt: '┤', bullet: '•', arrows: '🡓 🡓 🡓', differs: '═╱═' };
const ASCII: Style = { h: '-', v: '|', tl: '+', tr: '+', bl: '+', br: '+', lt: '+', rt: '+', bullet: '*', arrows: 'v v v', differs: '=/=' };

/**
 * Whether to draw with Unicode: unless the terminal is dumb or the locale says it is not UTF-8.
 *
 * @example
 * ```ts
 * unicodeTerminal({ LANG: 'en_US.UTF-8' }); // true
 * unicodeTerminal({ TERM: 'dumb' });        // false: diagrams are drawn in ASCII (+--+, |, *)
 * ```
 */
export function unicodeTerminal(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.STRICTCHECK_ASCII === '1' || env.TERM === 'dumb') return false;
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG;
  return locale === undefined || locale === '' || /utf-?8/i.test(locale);
}

/** The width of a string in terminal columns: one per code point (demands print no wide characters). */
function width(s: string): number {
  let w = 0;
  for (const _ of s) w++;
  return w;
}

function pad(s: string, n: number): string {
  return s + ' '.repeat(Math.max(0, n - width(s)));
}

/** A box: top border, title, separator, one row per line, bottom border; every row `inner + 2` wide plus borders. */
function box(st: Style, title: string, lines: readonly string[], inner: number): string[] {
  return [
    st.tl + st.h.repeat(inner + 2) + st.tr,
    `${st.v} ${pad(title, inner)} ${st.v}`,
    st.lt + st.h.repeat(inner + 2) + st.rt,
    ...lines.map((l) => `${st.v} ${pad(l, inner)} ${st.v}`),
    st.bl + st.h.repeat(inner + 2) + st.br,
  ];
}

/**
 * Two boxes side by side; row `joinRow` gets `connector` between them (and, if given, `ends` in
 * place of the two borders it meets), other rows spaces of the same width.
 */
function beside(left: string[], right: string[], joinRow: number, connector: string, ends?: readonly [string, string]): string[] {
  const gap = width(connector);
  const leftWidth = Math.max(...left.map(width));
  const rows = Math.max(left.length, right.length);
  const out: string[] = [];
  for (let i = 0; i < rows; i++) {
    const l = left[i] ?? '';
    const r = right[i] ?? '';
    if (i === joinRow && ends) out.push(l.slice(0, -1) + ends[0] + connector + ends[1] + r.slice(1));
    else out.push((r === '' ? l : pad(l, leftWidth) + (i === joinRow ? connector : ' '.repeat(gap)) + r).trimEnd());
  }
  return out;
}

/** What a diagram shows: the inputs, the demand on the result, and the two sets of input demands, already rendered. */
export interface DiagramParts {
  /** The inputs, one line each (box "Inputs"). */
  readonly inputs: readonly string[];
  /** The demand on the result (box "Demand on result"). */
  readonly resultDemand: string;
  /** The demands the function put on the inputs, one each (box "Actual input demands"). */
  readonly actual: readonly string[];
  /** The demands the spec predicted on the inputs, one each (box "Spec's input demands"). */
  readonly predicted: readonly string[];
}

/** Draws the diagram of a counterexample. */
export function drawDiagram(parts: DiagramParts, unicode = unicodeTerminal()): string {
  const st = unicode ? UNICODE : ASCII;
  const bullets = (xs: readonly string[]) => xs.map((x) => `${st.bullet} ${x}`);
  const inputLines = bullets(parts.inputs);
  const inputs = box(st, 'Inputs', inputLines, Math.max(width('Inputs'), ...inputLines.map(width)));
  const result = box(st, 'Demand on result', [parts.resultDemand], Math.max(width('Demand on result'), width(parts.resultDemand)));
  const top = beside(inputs, result, 1, st.h.repeat(3), [st.lt, st.rt]);
  const actualLines = bullets(parts.actual);
  const predictedLines = bullets(parts.predicted);
  const inner = Math.max(width('Actual input demands'), width("Spec's input demands"), ...actualLines.map(width), ...predictedLines.map(width));
  const bottom = beside(box(st, 'Actual input demands', actualLines, inner), box(st, "Spec's input demands", predictedLines, inner), 2, `  ${st.differs}  `);
  return [...top, `  ${st.arrows}`, ...bottom].join('\n');
}
