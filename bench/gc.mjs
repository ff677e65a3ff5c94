// V8's full collection for the bench, in JavaScript, for its processes under plain `node` too.
import v8 from 'node:v8';
import vm from 'node:vm';

let gc;
try {
  // Exposed without a command-line flag, which a worker given the process's options would refuse.
  v8.setFlagsFromString('--expose-gc');
  gc = vm.runInNewContext('gc');
  // And the flag put back, the function kept: V8's flags set apart from their defaults, a thread
  // Node starts compiles Node's own modules anew, its code cache made for the defaults (a worker's
  // start took 38-41 ms of CPU time, 21 with them put back), which a user's process does not pay.
  v8.setFlagsFromString('--no-expose-gc');
} catch {
  gc = undefined;
}

/** Runs a full garbage collection when possible (outside timed regions only), so that runs start from a clean heap. */
export function collectGarbage() {
  gc?.();
}
