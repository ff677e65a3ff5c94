// V8's full collection for the bench, in JavaScript, for its processes under plain `node` too.
import v8 from 'node:v8';
import vm from 'node:vm';

let gc;
try {
  // Exposed without a command-line flag, which a worker given the process's options would refuse.
  v8.setFlagsFromString('--expose-gc');
  gc = vm.runInNewContext('gc');
} catch {
  gc = undefined;
}

/** Runs a full garbage collection when possible (outside timed regions only), so that runs start from a clean heap. */
export function collectGarbage() {
  gc?.();
}
