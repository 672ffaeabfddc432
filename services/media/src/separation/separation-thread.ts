/**
 * Worker-thread entry that runs one ONNX separator off the service's event loop (onnxruntime-node's
 * `run` and the resampler are synchronous; a real model blocks for seconds per window). Each request
 * gets `{progress}` replies while it computes and then one final reply: `{stems}` (possibly none yet,
 * for a stream chunk), `{done}` or `{error}`.
 */
import { OnnxSeparator, type OnnxEngineName, type OnnxSeparationStream, type OnnxSeparatorSpec, type StemSet, type StereoAudio } from '@stemdeck/audio';
import { parentPort, workerData } from 'node:worker_threads';

export type ThreadRequest =
  | { load: true }
  | { mixture: StereoAudio }
  | { open: { sampleRate: number; expectedFrames?: number } }
  | { chunk: StereoAudio }
  | { end: true }
  | { close: true };

export interface ThreadReply {
  progress?: number;
  stems?: StemSet;
  done?: true;
  error?: string;
}

if (parentPort) {
  const { engine, spec } = workerData as { engine: OnnxEngineName; spec: OnnxSeparatorSpec };
  const separator = new OnnxSeparator(engine, spec);
  const port = parentPort;
  const onProgress = ({ fraction }: { fraction: number }) => port.postMessage({ progress: fraction } satisfies ThreadReply);
  const sendStems = (stems: StemSet) => {
    const buffers = Object.values(stems).flatMap((stem) => [stem.left.buffer, stem.right.buffer]) as ArrayBuffer[];
    port.postMessage({ stems } satisfies ThreadReply, buffers);
  };
  let stream: OnnxSeparationStream | null = null;

  const handle = async (message: ThreadRequest): Promise<void> => {
    if ('load' in message) {
      await separator.load();
      return port.postMessage({ done: true } satisfies ThreadReply);
    }
    if ('mixture' in message) return sendStems(await separator.separate(message.mixture, onProgress));
    if ('open' in message) {
      stream = await separator.openStream(message.open.sampleRate, { expectedFrames: message.open.expectedFrames, onProgress });
      return port.postMessage({ done: true } satisfies ThreadReply);
    }
    if ('close' in message) {
      stream = null;
      return port.postMessage({ done: true } satisfies ThreadReply);
    }
    if (!stream) throw new Error('no separation stream is open');
    if ('chunk' in message) return sendStems(await stream.push(message.chunk));
    const last = stream;
    stream = null;
    sendStems(await last.end());
  };

  port.on('message', (message: ThreadRequest) => {
    handle(message).catch((error: Error) => {
      if ('chunk' in message || 'end' in message) stream = null;
      port.postMessage({ error: error.message } satisfies ThreadReply);
    });
  });
}
