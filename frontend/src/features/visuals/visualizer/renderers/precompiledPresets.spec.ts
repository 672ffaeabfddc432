import { presetModuleSource } from '../../../../../build/milkdropPresets';

type Equation = (a: Record<string, unknown>) => Record<string, unknown>;
interface Part {
  baseVals: { enabled?: number };
  init_eqs_str?: string;
  frame_eqs_str?: string;
  point_eqs_str?: string;
  init_eqs?: Equation;
  frame_eqs?: Equation;
  point_eqs?: Equation | '';
}
interface Preset extends Part {
  pixel_eqs_str?: string;
  pixel_eqs?: Equation | '';
  shapes: Part[];
  waves: Part[];
}

// The equations call butterchurn's helpers, which it puts on `window` when it loads.
(globalThis as unknown as { window: unknown }).window = globalThis;
// eslint-disable-next-line @typescript-eslint/no-require-imports
require('butterchurn');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const pack = require('butterchurn-presets/lib/butterchurnPresetsMinimal.min.js') as { getPresets?: () => Record<string, Preset>; default?: { getPresets: () => Record<string, Preset> } };
const original = (pack.getPresets ?? pack.default!.getPresets)();

/** The generated module, evaluated as a module would be (strict mode). */
function precompiled(): Record<string, Preset> {
  const source = presetModuleSource(original);
  const module = new Function(`"use strict"; ${source.replace('export default ', 'return ')}`)() as { getPresets: () => Record<string, Preset> };
  return module.getPresets();
}

/** What butterchurn's loadPreset makes of an equation string. */
const compile = (body: string | undefined): Equation => new Function('a', `${body} return a;`) as Equation;

/** A frame's worth of inputs: every value the equations commonly read, the rest left undefined as in butterchurn. */
function sampleInputs(): Record<string, unknown> {
  const a: Record<string, unknown> = { time: 12.5, fps: 60, frame: 750, bass: 1.2, bass_att: 1.1, mid: 0.9, mid_att: 0.95, treb: 0.7, treb_att: 0.8, meshx: 48, meshy: 36, aspectx: 1, aspecty: 0.5625, pixelsx: 1280, pixelsy: 720, x: 0.3, y: 0.6, rad: 0.4, ang: 1.1, sample: 0.25, value1: 0.1, value2: -0.2, instance: 1, num_inst: 4 };
  for (let q = 1; q <= 32; q++) a[`q${q}`] = q / 10;
  for (let t = 1; t <= 8; t++) a[`t${t}`] = t / 5;
  // butterchurn's buffers (a million entries each there; indices past the end grow them here).
  a.megabuf = new Array(4096).fill(0);
  a.gmegabuf = new Array(4096).fill(0);
  return a;
}

/** Runs an equation with Math.random fixed to the same sequence, as the two versions must see the same numbers. */
function run(equation: Equation): Record<string, unknown> {
  let seed = 1;
  const random = jest.spyOn(Math, 'random').mockImplementation(() => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646);
  try {
    return { ...equation(sampleInputs()) };
  } finally {
    random.mockRestore();
  }
}

describe('precompiled Milkdrop presets', () => {
  const built = precompiled();

  it('hold every preset of the pack, with functions where butterchurn would compile strings', () => {
    expect(Object.keys(built)).toEqual(Object.keys(original));
    expect(Object.keys(built).length).toBeGreaterThan(20);
    for (const preset of Object.values(built)) {
      expect(typeof preset.init_eqs).toBe('function');
      expect(typeof preset.frame_eqs).toBe('function');
      expect(preset.frame_eqs_str).toBeUndefined();
    }
  });

  it('compute exactly what butterchurn compiles from the strings, equation by equation', () => {
    let compared = 0;
    for (const [name, source] of Object.entries(original)) {
      const preset = built[name]!;
      const pairs: Array<[Equation | '' | undefined, string | undefined]> = [
        [preset.init_eqs, source.init_eqs_str],
        [preset.frame_eqs, source.frame_eqs_str],
      ];
      if (source.pixel_eqs_str) pairs.push([preset.pixel_eqs, source.pixel_eqs_str]);
      else expect(preset.pixel_eqs).toBe('');
      source.shapes.forEach((shape, i) => {
        if ((shape.baseVals.enabled ?? 0) === 0) return expect(preset.shapes[i]!.init_eqs).toBeUndefined();
        pairs.push([preset.shapes[i]!.init_eqs, shape.init_eqs_str], [preset.shapes[i]!.frame_eqs, shape.frame_eqs_str]);
      });
      source.waves.forEach((wave, i) => {
        if ((wave.baseVals.enabled ?? 0) === 0) return expect(preset.waves[i]!.init_eqs).toBeUndefined();
        pairs.push([preset.waves[i]!.init_eqs, wave.init_eqs_str], [preset.waves[i]!.frame_eqs, wave.frame_eqs_str]);
        if (wave.point_eqs_str) pairs.push([preset.waves[i]!.point_eqs, wave.point_eqs_str]);
        else expect(preset.waves[i]!.point_eqs).toBe('');
      });
      for (const [equation, body] of pairs) {
        expect(typeof equation).toBe('function');
        expect({ name, result: run(equation as Equation) }).toEqual({ name, result: run(compile(body)) });
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });
});
