/**
 * Listening to a process event in place of the listeners the process has, for a while: an emit
 * calls every listener, so one that decides for the others (whether the loop emptied on a waiting
 * observation, whose a rejection is) must be the only one, and call the others itself when they
 * should hear it.
 * @module
 */

/** The process's listeners to an event, set aside: what calls them, and what puts them back. */
export interface SetAside<L extends (...args: any[]) => void> {
  /** Calls each of them with `args`, as an emit would have: how many it called. */
  forward(...args: Parameters<L>): number;
  /** Removes the listener put in their place, and puts them back in their places, before any added meanwhile. */
  restore(): void;
}

/** @internal Sets aside the process's listeners to `event` and listens with `own` alone instead, until {@link SetAside.restore}. */
export function setAsideListeners<L extends (...args: any[]) => void>(event: 'beforeExit' | 'unhandledRejection', own: L): SetAside<L> {
  const listeners = process.rawListeners(event) as L[];
  for (const l of listeners) process.off(event, l);
  process.on(event, own);
  return {
    forward(...args) {
      for (const l of listeners) l.apply(process, args);
      return listeners.length;
    },
    restore() {
      process.off(event, own);
      for (let i = listeners.length - 1; i >= 0; i--) (process as NodeJS.EventEmitter).prependListener(event, listeners[i]!);
    },
  };
}
