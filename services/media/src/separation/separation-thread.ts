/**
 * Worker-thread entry that runs one ONNX separator off the service's event loop (onnxruntime-node's
 * `run` and the resampler are synchronous; a real model blocks for seconds per window). The parent sends
 * `{mixture}`; the thread answers `{progress}` messages and finally `{stems}` or `{error}`.
 */
import { OnnxSeparator, type OnnxSeparatorSpec, type OnnxEngineName, type StereoAudio } from '@stemdeck/audio';
import { parentPort, workerData } from 'node:worker_threads';

const { engine, spec } = workerData as { engine: OnnxEngineName; spec: OnnxSeparatorSpec };
const separator = new OnnxSeparator(engine, spec);
const port = parentPort!;

port.on('message', (message: { load?: true; mixture?: StereoAudio }) => {
  void (async () => {
    try {
      if (message.load) {
        await separator.load();
        return port.postMessage({ loaded: true });
      }
      const stems = await separator.separate(message.mixture!, ({ fraction }) => port.postMessage({ progress: fraction }));
      const buffers = Object.values(stems).flatMap((stem) => [stem.left.buffer, stem.right.buffer]) as ArrayBuffer[];
      port.postMessage({ stems }, buffers);
    } catch (error) {
      port.postMessage({ error: (error as Error).message });
    }
  })();
});
