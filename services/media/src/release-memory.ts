import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection, run when a job or an ingest ends. The audio passes through many short-lived
 * buffers whose memory lives outside V8's heap; the heap itself is small, so V8 may not collect for a
 * long time after a job and the process would keep hundreds of MB it no longer uses. Collecting at the
 * end of the work gives that memory back while nothing else is running.
 */
let collect: (() => void) | undefined;
try {
  setFlagsFromString('--expose-gc');
  collect = runInNewContext('gc') as () => void;
} catch {
  collect = undefined;
}

export function releaseMemory(): void {
  collect?.();
}
