/**
 * What stops a case in a worker (a timeout, a crash), errors a worker sent rebuilt, and the
 * reports of cases that did not finish or that fail in a worker only.
 * @module
 */
import { unforced } from '../demand/demand.ts';
import { ShapeMismatchError } from '../demand/shape-errors.ts';
import { SpecError } from '../spec/spec.ts';
import { report } from '../spec/report.ts';
import type { Counterexample } from '../spec/result.ts';
import { counterexampleOf, type AnySpec, type Trial } from '../spec/run-case.ts';
import { safeInstanceof } from '../lazy/thrown.ts';
import type { SentError } from './protocol.ts';
import { WORKER_RULE } from '../spec/registry.ts';

/** Reported for a trial that ran past the timeout. */
export class TrialTimeoutError extends Error {
  /** Always `'TrialTimeoutError'`: a report shows `TrialTimeoutError: timed out after … ms`. */
  override name = 'TrialTimeoutError';
  constructor(
    /** The timeout the trial ran past, in milliseconds. */
    readonly ms: number,
  ) {
    super(`timed out after ${ms} ms`);
  }
}

/**
 * Reported for a trial during which its worker crashed (an error the function threw outside the
 * call, e.g. in a timer); and for a crash, or a timer the function left that did not finish, that
 * no one trial or case can be blamed for.
 */
export class WorkerCrashError extends Error {
  /** Always `'WorkerCrashError'`: the name a report gives a crash, before the worker's own error. */
  override name = 'WorkerCrashError';
}

/**
 * @internal The error of a run whose check module's import left, in a worker, a timer (or another
 * callback) that raised `error`, or ran past the import's limit (`ms`): the import's, no case's.
 */
export function importLeft(moduleUrl: string, late: { readonly error: string } | { readonly ms: number }): WorkerCrashError {
  const [what, error] = 'error' in late ? ['raised an error (or ended the thread) in a worker', `. The worker's error: ${late.error}`] : [`did not finish within ${late.ms} ms in a worker (it loops, or blocks), and the worker was stopped`, ''];
  return new WorkerCrashError(
    `the import of ${moduleUrl} left a timer that ${what}: what the import leaves runs in every worker, and is no case's, so none is blamed. ` +
      `${WORKER_RULE[0]!.toUpperCase()}${WORKER_RULE.slice(1)}: clear that timer, or set it only in the main thread (isMainThread)${error}`,
  );
}

/**
 * @internal The error of a run whose fresh workers died (`count` of them, the last with `error`)
 * before they began any case: their start failed, which no case can be blamed for.
 */
export function couldNotStart(moduleUrl: string, count: number, error: string): WorkerCrashError {
  return new WorkerCrashError(
    `the workers could not start: ${count} fresh workers of the checks of ${moduleUrl} died before they began any case, which none can be blamed for. ` +
      `A worker imports the check module, then begins its first case: the import probably ends the thread, or crashes it asynchronously (${WORKER_RULE}). The last worker's error: ${error}`,
  );
}

/** @internal */
export function rebuildError(t: SentError): Error {
  if (t.name === 'SpecError') return new SpecError(t.message);
  // Without the value, which a worker cannot send: the message says what it was.
  if (t.name === 'ShapeMismatchError') return Object.assign(new ShapeMismatchError(t.path ?? '', t.expected ?? '', undefined), { message: t.message });
  return Object.assign(new Error(t.message), { name: t.name });
}

/** How many times the timeout, and how many ms at least, a spec may run on one case: see {@link specLimit}. */
const SPEC_FACTOR = 10;
const SPEC_FLOOR = 1000;

/**
 * @internal How long the spec (with the comparison) may run on one case, in ms. The timeout is the
 * function's; a spec, which may do as much work as the function and more, has a limit of its own,
 * generous, so that only a spec that does not finish is stopped.
 */
export function specLimit(timeout: number): number {
  return Math.max(SPEC_FACTOR * timeout, SPEC_FLOOR);
}

/** @internal The error of a case whose spec (or comparison) ran past its limit: the spec's fault, as a spec running past the force budget is. */
export function specTimeout(timeout: number): SpecError {
  return new SpecError(
    `the spec did not finish: the function had, but the spec (or the comparison) ran past its own limit of ${specLimit(timeout)} ms (${SPEC_FACTOR} times the timeout, and at least ${SPEC_FLOOR} ms)`,
  );
}

/**
 * @internal The counterexample of a case that did not finish in a worker (it timed out, left a
 * timer that did not finish, or crashed the worker), with its report: `where` says where it was
 * found, `unit` names a case ('trial').
 */
export function fatalFailure(spec: AnySpec, inputs: readonly unknown[], fatal: { kind: 'timeout' | 'timer' } | { kind: 'crash'; error: string }, timeout: number, where: string, unicode: boolean, unit: string): { counterexample: Counterexample; message: string } {
  const thrown = fatal.kind === 'crash' ? new WorkerCrashError(`the worker crashed: ${fatal.error}`) : new TrialTimeoutError(timeout);
  const shown: Trial = { inputs, resultDemand: unforced, actual: inputs.map(() => unforced), predicted: [], failed: true, error: { thrown } };
  const who = fatal.kind === 'timer' ? 'a timer the function left' : 'the function';
  const what = fatal.kind === 'crash' ? `the worker crashed during a ${unit}` : `${who} did not finish: ${thrown.message}`;
  // The stopped worker took the case's demands with it: the report says they are unknown, and why.
  const stopped = fatal.kind === 'crash' ? { unknown: 'the worker crashed', what: 'the worker crashed' } : { unknown: 'the worker was stopped', what: `${who} ${thrown.message}` };
  return { counterexample: counterexampleOf(shown), message: report(spec, shown, `Failed: ${what} (${where})`, unicode, 'It did not finish', stopped) };
}

/**
 * @internal The report of a case that failed in a worker but passes when run again in this thread
 * (`where`: how it was found), with its diagram as the worker drew it (`seen`): a report drawn
 * here would show a failure whose columns agree.
 */
export function workerOnlyMessage(where: string, seen: string): string {
  return (
    `Failed: the spec does not match the function in a worker thread only (${where}): run again in the main thread, it passes. ` +
    `The function behaves differently in a worker: does it keep state between calls (each thread has its own copy of a module's state, and the worker's had seen other cases' calls), or read isMainThread? The case as the worker saw it:${seen}`
  );
}

safeInstanceof(TrialTimeoutError, WorkerCrashError);
