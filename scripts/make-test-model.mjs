// Writes the fixture separation model: a fixed Conv1d with the HTDemucs waveform contract
// ([1, 2, T] in, [1, 4, 2, T] out, sources summing to the mix), so the `hybrid` and `quality`
// engines run end to end where no real weights exist. Needs libs/audio built (npm run build:server).
//
//   node scripts/make-test-model.mjs .data/models/test-separation.onnx [--segment-samples 44100 | --dynamic]
//   STEM_MODEL_HYBRID=.data/models/test-separation.onnx npm start
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const usage = 'usage: node scripts/make-test-model.mjs <out.onnx> [--segment-samples N | --dynamic]';
let values, positionals;
try {
  ({ values, positionals } = parseArgs({
    allowPositionals: true,
    options: { 'segment-samples': { type: 'string' }, dynamic: { type: 'boolean' } },
  }));
} catch (error) {
  console.error(`${error.message}\n${usage}`);
  process.exit(2);
}
if (positionals.length !== 1 || (values.dynamic && values['segment-samples'])) {
  console.error(usage);
  process.exit(2);
}

let audio;
try {
  audio = createRequire(import.meta.url)('@stemdeck/audio');
} catch (error) {
  console.error(`could not load @stemdeck/audio (build it first: npm run build:server): ${error.message}`);
  process.exit(1);
}

const segmentSamples = values.dynamic ? null : values['segment-samples'] === undefined ? undefined : Number(values['segment-samples']);
let path;
try {
  path = await audio.writeTestSeparationModel(positionals[0], { segmentSamples });
} catch (error) {
  console.error(`${error.message}\n${usage}`);
  process.exit(2);
}
const { inputs, outputs } = await audio.describeModel(path);
const shape = ({ name, shape }) => `${name} [${shape.join(', ')}]`;
console.log(`wrote ${path}: ${inputs.map(shape).join(', ')} -> ${outputs.map(shape).join(', ')}`);
