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
export function unicodeTerminal(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  if (env.STRICTCHECK_ASCII === '1' || env.TERM === 'dumb') return false;
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG;
  return locale === undefined || locale === '' || /utf-?8/i.test(locale);
}

let graphemes: Intl.Segmenter | undefined;
/** The grapheme segmenter, made at the first line that needs it: it costs 17 ms of CPU to make, in each process and worker, and most diagrams never need one (see NARROW). */
function segmenter(): Intl.Segmenter {
  return (graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' }));
}
/** An emoji drawn as a picture: one presented so by default, or any character followed by VS16 (U+FE0F), which asks for it. */
const EMOJI = /\p{Emoji_Presentation}|\uFE0F/u;
/**
 * Starts with a character of East Asian Width W (wide) or F (fullwidth), emoji aside: Hangul
 * jamo and syllables, CJK ideographs, kana, punctuation and compatibility forms, Yi, Tangut,
 * Nüshu, fullwidth forms. JavaScript has no property for them; these are the ranges of Unicode
 * 15's EastAsianWidth.txt, with the unassigned code points between them.
 */
const WIDE =
  /^[\u1100-\u115F\u2329\u232A\u2E80-\u303E\u3041-\u3247\u3250-\u4DBF\u4E00-\uA4CF\uA960-\uA97F\uAC00-\uD7A3\uF900-\uFAFF\uFE10-\uFE19\uFE30-\uFE6F\uFF00-\uFF60\uFFE0-\uFFE6\u{16FE0}-\u{16FE4}\u{16FF0}\u{16FF1}\u{17000}-\u{18D08}\u{1AFF0}-\u{1B2FF}\u{1F200}-\u{1F2FF}\u{20000}-\u{3FFFD}]/u;
/** Only combining marks and invisible format characters (zero-width joiners and spaces): no column of their own. */
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}]+$/u;

/**
 * Only characters that are each a grapheme cluster of one column: printable ASCII, Greek (λ), general
 * punctuation (…, •), arrows and mathematical operators (↦, ⊥), box drawing. Most of what a diagram
 * prints; such a string is as wide as it is long, which is hundreds of times cheaper to tell than to segment it.
 */
const NARROW = /^[\x20-\x7E\u0370-\u03FF\u2010-\u2027\u2190-\u22FF\u2500-\u257F]*$/;

/**
 * The width of a string in terminal columns. Demands print strings (from `withArbitrary`, say) and
 * the names of declared constructors, which may be in any script; so each grapheme cluster (what
 * reads as one character: a letter and its accents, an emoji sequence) takes two columns if it is
 * an emoji drawn as a picture or starts with a wide character, none if it is only combining marks
 * or format characters, and one otherwise.
 */
function width(s: string): number {
  if (NARROW.test(s)) return s.length;
  let w = 0;
  for (const { segment } of segmenter().segment(s)) w += EMOJI.test(segment) || WIDE.test(segment) ? 2 : ZERO_WIDTH.test(segment) ? 0 : 1;
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
  /** Who predicted them, naming their box (`Reference` makes it "Reference's input demands"). Default `Spec`. */
  readonly predictor?: string | undefined;
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
  const predictedTitle = `${parts.predictor ?? 'Spec'}'s input demands`;
  const inner = Math.max(width('Actual input demands'), width(predictedTitle), ...actualLines.map(width), ...predictedLines.map(width));
  const bottom = beside(box(st, 'Actual input demands', actualLines, inner), box(st, predictedTitle, predictedLines, inner), 2, `  ${st.differs}  `);
  return [...top, `  ${st.arrows}`, ...bottom].join('\n');
}
