/** @jest-environment ./libs/audio/src/separation/onnx/testing/ort-test-environment.js */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTestSeparationModel } from './testing/test-separation-model';
import { describeModel, OnnxModelError } from './model-session';

describe('describeModel', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stemdeck-onnx-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reports input and output names and shapes, fixed or symbolic', async () => {
    const fixed = await writeTestSeparationModel(join(dir, 'fixed.onnx'), { segmentSamples: 1000 });
    expect(await describeModel(fixed)).toEqual({
      inputs: [{ name: 'mix', elementType: 'float32', shape: [1, 2, 1000] }],
      outputs: [{ name: 'sources', elementType: 'float32', shape: [1, 4, 2, 1000] }],
    });
    const dynamic = await writeTestSeparationModel(join(dir, 'dynamic.onnx'), { segmentSamples: null });
    expect((await describeModel(dynamic)).inputs[0].shape).toEqual([1, 2, 'time']);
  });

  it('says clearly when the file is missing', async () => {
    const missing = join(dir, 'missing.onnx');
    await expect(describeModel(missing)).rejects.toThrow(OnnxModelError);
    await expect(describeModel(missing)).rejects.toThrow(`ONNX model file not found or not readable: ${missing}`);
  });

  it('says clearly when the file is not an ONNX model', async () => {
    const corrupt = join(dir, 'corrupt.onnx');
    await writeFile(corrupt, 'this is not a protobuf');
    await expect(describeModel(corrupt)).rejects.toThrow(OnnxModelError);
    await expect(describeModel(corrupt)).rejects.toThrow(new RegExp(`^Could not load ONNX model ${corrupt}: .*Protobuf parsing failed`));
  });
});
