import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { InferenceSession } from 'onnxruntime-node';

/** A model input or output as the session reports it; symbolic (dynamic) dimensions are strings. */
export interface ModelValueInfo {
  name: string;
  /** e.g. 'float32'; null for a non-tensor value (sequence, map). */
  elementType: string | null;
  shape: Array<number | string>;
}

export interface ModelDescription {
  inputs: ModelValueInfo[];
  outputs: ModelValueInfo[];
}

/** A model file that is missing, unreadable, not ONNX, or not a separation model of the expected shape. */
export class OnnxModelError extends Error {}

export interface ModelSessionOptions {
  /** Threads inside one operator; default: every core (separation jobs run one at a time per model). */
  threads?: number;
}

export async function openModelSession(modelPath: string, options: ModelSessionOptions = {}): Promise<InferenceSession> {
  try {
    await access(modelPath, constants.R_OK);
  } catch {
    throw new OnnxModelError(`ONNX model file not found or not readable: ${modelPath}`);
  }
  try {
    return await InferenceSession.create(modelPath, {
      intraOpNumThreads: options.threads ?? availableParallelism(),
      // One graph branch at a time: parallel branches would only compete for the same few cores.
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
    });
  } catch (error) {
    // The binding's messages already start with 'Error: '; keep just the reason.
    const reason = (error instanceof Error ? error.message : String(error)).replace(/^Error: /, '');
    throw new OnnxModelError(`Could not load ONNX model ${modelPath}: ${reason}`, { cause: error });
  }
}

export function describeSession(session: InferenceSession): ModelDescription {
  const describe = (metadata: readonly InferenceSession.ValueMetadata[]): ModelValueInfo[] =>
    metadata.map((value) =>
      value.isTensor
        ? { name: value.name, elementType: value.type, shape: [...value.shape] }
        : { name: value.name, elementType: null, shape: [] },
    );
  return { inputs: describe(session.inputMetadata), outputs: describe(session.outputMetadata) };
}

/** Input/output names and shapes of a model file, e.g. to validate configuration at boot. */
export async function describeModel(modelPath: string): Promise<ModelDescription> {
  const session = await openModelSession(modelPath, { threads: 1 });
  try {
    return describeSession(session);
  } finally {
    await session.release();
  }
}
