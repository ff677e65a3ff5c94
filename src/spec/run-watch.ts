/**
 * What watches an exhaustive run as its cases go by: its budgets (most cases, most time), which
 * stop it, and its progress, reported to a callback and shown on standard error, so that a long
 * run under a test runner is neither endless nor silent.
 * @module
 */
import type { Settings } from './options.ts';

/** How far an exhaustive run has got, as `onProgress` is told. */
export interface ExhaustiveProgress {
  /** The depth whose cases are running. */
  readonly depth: number;
  /** Cases run of that depth. */
  readonly cases: number;
  /** Cases run over all depths, those of this depth included. */
  readonly totalCases: number;
  /** Milliseconds since the first case. */
  readonly elapsedMs: number;
}

/** The options of an exhaustive run that its watch reads. */
export interface WatchOptions {
  /** Show progress on standard error: a line that updates on a terminal, a line every 5 s elsewhere. Default: outside CI (the `CI` environment variable). */
  readonly progress?: boolean | undefined;
  /** Called with the run's progress about once a second, and when a depth ends. */
  readonly onProgress?: ((progress: ExhaustiveProgress) => void) | undefined;
  /** Most cases run over all depths: past them the run stops, and passes saying how far it got (`stoppedBy`). Default: no limit. */
  readonly maxCases?: number | undefined;
  /** Most milliseconds the run takes, from its first case: past them it stops, and passes saying how far it got (`stoppedBy`). Default: no limit. */
  readonly timeLimit?: number | undefined;
}

/** @internal The watch of one run. */
export interface RunWatch {
  /**
   * `cases` of depth `depth` have run (counted from the depth's start): whether a budget has run
   * out, which stops the run. The clock is read every 64 cases, or at each call if `clock`.
   */
  tick(depth: number, cases: number, clock?: boolean): boolean;
  /** A depth ended, after `cases` cases. */
  depthDone(depth: number, cases: number): void;
  /** How many more cases `maxCases` allows once `cases` of the current depth have run (Infinity if it is not set). */
  casesLeft(cases: number): number;
  /** The budget that stopped the run, if one did. */
  readonly stoppedBy: 'maxCases' | 'timeLimit' | undefined;
  /** The run ended: clears a progress line. */
  done(): void;
}

/** Milliseconds between progress lines away from a terminal (a log keeps each). */
const LOG_EVERY = 5000;

/** @internal Starts watching a run: the clock of `timeLimit` starts now. */
export function watchRun(settings: Pick<Settings<'exhaustive'>, keyof WatchOptions>): RunWatch {
  const start = Date.now();
  const terminal = process.stderr.isTTY === true;
  const { progress: show, maxCases, timeLimit, onProgress } = settings;
  let before = 0; // cases of the depths done
  let lastShown = 0;
  let lastReported = 0;
  let drawn = false;
  let stoppedBy: RunWatch['stoppedBy'];
  const progress = (depth: number, cases: number, now: number): ExhaustiveProgress => ({ depth, cases, totalCases: before + cases, elapsedMs: now - start });
  return {
    tick(depth, cases, clock = false) {
      if (before + cases >= maxCases) stoppedBy = 'maxCases';
      // A case can take microseconds: the clock is read every 64 of them.
      if (!clock && (cases & 63) !== 0 && stoppedBy === undefined) return false;
      const now = Date.now();
      if (now - start >= timeLimit) stoppedBy ??= 'timeLimit';
      if (onProgress && now - lastReported >= 1000) {
        lastReported = now;
        onProgress(progress(depth, cases, now));
      }
      if (show && now - start >= (terminal ? 1000 : LOG_EVERY) && now - lastShown >= (terminal ? 100 : LOG_EVERY)) {
        lastShown = now;
        const text = `strictcheck: exhaustive, depth ${depth}, ${before + cases} cases, ${((now - start) / 1000).toFixed(0)} s`;
        if (terminal) drawn = process.stderr.write(`\r${text}\x1b[K`) || true;
        else process.stderr.write(`${text}\n`);
      }
      return stoppedBy !== undefined;
    },
    depthDone(depth, cases) {
      onProgress?.(progress(depth, cases, Date.now()));
      before += cases;
    },
    casesLeft(cases) {
      return maxCases - before - cases;
    },
    get stoppedBy() {
      return stoppedBy;
    },
    done() {
      if (drawn) process.stderr.write('\r\x1b[K');
    },
  };
}
