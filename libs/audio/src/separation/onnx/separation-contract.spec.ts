import { OnnxModelError, type ModelValueInfo } from './model-session';
import { readSeparationContract } from './separation-contract';

const tensor = (name: string, shape: Array<number | string>): ModelValueInfo => ({ name, elementType: 'float32', shape });
const read = (inputs: ModelValueInfo[], outputs: ModelValueInfo[]) => readSeparationContract('model.onnx', { inputs, outputs }, 4);

describe('readSeparationContract', () => {
  it('takes names from the model and the fixed length when there is one', () => {
    expect(read([tensor('input', [1, 2, 343980])], [tensor('output', [1, 4, 2, 343980])])).toEqual({
      inputName: 'input',
      outputName: 'output',
      fixedLength: 343980,
    });
  });

  it('accepts symbolic dimensions', () => {
    expect(read([tensor('mix', ['batch', 2, 'time'])], [tensor('stems', ['batch', 4, 'channels', 'time'])]).fixedLength).toBeNull();
  });

  it.each([
    ['a second (spectrogram) input, as split HTDemucs exports have', [tensor('input', [1, 2, 'T']), tensor('x', [1, 4, 2048, 336])], [tensor('output', [1, 4, 2, 'T'])], /2 inputs \(input, x\)/],
    ['a mono input', [tensor('input', [1, 1, 'T'])], [tensor('output', [1, 4, 2, 'T'])], /input "input" has shape \[1, 1, T\]/],
    ['six sources', [tensor('input', [1, 2, 'T'])], [tensor('output', [1, 6, 2, 'T'])], /output "output" has shape \[1, 6, 2, T\]/],
    ['different input and output lengths', [tensor('input', [1, 2, 100])], [tensor('output', [1, 4, 2, 90])], /input length 100 differs from output length 90/],
    ['a float16 input', [{ name: 'input', elementType: 'float16', shape: [1, 2, 'T'] }], [tensor('output', [1, 4, 2, 'T'])], /holds float16/],
  ])('rejects %s', (_label, inputs, outputs, message) => {
    expect(() => read(inputs, outputs)).toThrow(OnnxModelError);
    expect(() => read(inputs, outputs)).toThrow(message);
  });
});
