import { OnnxModelError, type ModelDescription, type ModelValueInfo } from './model-session';

/** How to call a waveform separation model: HTDemucs-style [1, 2, T] in, [1, sources, 2, T] out. */
export interface SeparationContract {
  inputName: string;
  outputName: string;
  /** T when the model was exported with a fixed length (as HTDemucs exports are); null when dynamic. */
  fixedLength: number | null;
}

export function readSeparationContract(modelPath: string, model: ModelDescription, sourceCount: number): SeparationContract {
  const fail = (problem: string) =>
    new OnnxModelError(`${modelPath} is not a waveform separation model ([1, 2, T] in, [1, ${sourceCount}, 2, T] out): ${problem}`);
  if (model.inputs.length !== 1) throw fail(`it has ${model.inputs.length} inputs (${names(model.inputs)}); expected one`);
  if (model.outputs.length !== 1) throw fail(`it has ${model.outputs.length} outputs (${names(model.outputs)}); expected one`);
  const [input] = model.inputs;
  const [output] = model.outputs;
  for (const value of [input, output]) {
    if (value.elementType !== 'float32') throw fail(`"${value.name}" holds ${value.elementType ?? 'a non-tensor value'}, not float32`);
  }
  if (!fits(input.shape, [1, 2, null])) throw fail(`input "${input.name}" has shape ${format(input.shape)}`);
  if (!fits(output.shape, [1, sourceCount, 2, null])) throw fail(`output "${output.name}" has shape ${format(output.shape)}`);
  const inputLength = fixedSize(input.shape[2]);
  const outputLength = fixedSize(output.shape[3]);
  if (inputLength !== null && outputLength !== null && inputLength !== outputLength) {
    throw fail(`input length ${inputLength} differs from output length ${outputLength}`);
  }
  return { inputName: input.name, outputName: output.name, fixedLength: inputLength };
}

/** Each fixed dimension must match; symbolic ones (and null expectations) match anything. */
function fits(shape: ReadonlyArray<number | string>, expected: ReadonlyArray<number | null>): boolean {
  if (shape.length !== expected.length) return false;
  return expected.every((size, i) => size === null || fixedSize(shape[i]) === null || fixedSize(shape[i]) === size);
}

/** ORT reports symbolic dimensions as names and unknown ones as non-positive numbers. */
function fixedSize(dim: number | string | undefined): number | null {
  return typeof dim === 'number' && dim > 0 ? dim : null;
}

function names(values: ModelValueInfo[]): string {
  return values.map((value) => value.name).join(', ') || 'none';
}

function format(shape: ReadonlyArray<number | string>): string {
  return `[${shape.join(', ')}]`;
}
