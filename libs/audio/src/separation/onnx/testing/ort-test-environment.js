// Jest environment for specs that run onnxruntime-node: its native binding returns output tensors
// as typed arrays from Node's own realm, while jest's sandbox has separate typed-array constructors,
// so onnxruntime-common's `instanceof Float32Array` check rejects every output. Sharing the host's
// constructors with the sandbox fixes that. Use with:
//   /** @jest-environment ./libs/audio/src/separation/onnx/testing/ort-test-environment.js */
const { TestEnvironment } = require('jest-environment-node');

const SHARED_CONSTRUCTORS = [
  'ArrayBuffer', 'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array',
  'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array',
];

class OrtTestEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of SHARED_CONSTRUCTORS) this.global[name] = globalThis[name];
  }
}

module.exports = OrtTestEnvironment;
