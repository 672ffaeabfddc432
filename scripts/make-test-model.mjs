// Writes the fixture separation model: a fixed Conv1d with the HTDemucs waveform contract
// ([1, 2, T] in, [1, 4, 2, T] out, sources summing to the mix), so the `hybrid` and `quality`
// engines run end to end where no real weights exist. The fixture is test-only code, kept out of
// libs/audio's build, so this compiles it (and the model reader it checks the result with) from source.
//
//   node scripts/make-test-model.mjs .data/models/test-separation.onnx [--segment-samples 44100 | --dynamic]
//   STEM_MODEL_HYBRID=.data/models/test-separation.onnx npm start
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ONNX = join(ROOT, 'libs', 'audio', 'src', 'separation', 'onnx');

/** The fixture writer and `describeModel`, bundled from libs/audio's sources; packages stay external. */
async function loadFixture() {
  const { build } = await import('esbuild');
  const entry = [
    `export { writeTestSeparationModel } from ${JSON.stringify(join(ONNX, 'testing', 'test-separation-model.ts'))};`,
    `export { describeModel } from ${JSON.stringify(join(ONNX, 'model-session.ts'))};`,
  ].join('\n');
  const bundle = await build({
    stdin: { contents: entry, resolveDir: ONNX, loader: 'ts' },
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
  });
  // Written inside the repository so that the bundle's require() finds the packages in node_modules.
  const file = join(ROOT, 'node_modules', '.cache', 'stemdeck', 'test-separation-model.cjs');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, bundle.outputFiles[0].text);
  return createRequire(import.meta.url)(file);
}

let fixture;
try {
  fixture = await loadFixture();
} catch (error) {
  console.error(`could not compile the test model's writer (npm install first): ${error.message}`);
  process.exit(1);
}

const segmentSamples = values.dynamic ? null : values['segment-samples'] === undefined ? undefined : Number(values['segment-samples']);
let path;
try {
  path = await fixture.writeTestSeparationModel(positionals[0], { segmentSamples });
} catch (error) {
  console.error(`${error.message}\n${usage}`);
  process.exit(2);
}
const { inputs, outputs } = await fixture.describeModel(path);
const shape = ({ name, shape }) => `${name} [${shape.join(', ')}]`;
console.log(`wrote ${path}: ${inputs.map(shape).join(', ')} -> ${outputs.map(shape).join(', ')}`);
