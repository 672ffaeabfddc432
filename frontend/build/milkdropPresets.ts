import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

/** The preset pack the Milkdrop renderer imports (frontend/src/features/visuals/visualizer/renderers/milkdropRenderer.ts). */
const PRESET_PACK = /[\\/]butterchurn-presets[\\/]lib[\\/]butterchurnPresetsMinimal\.min\.js$/;

interface EquationSet {
  baseVals?: { enabled?: number };
  init_eqs_str?: string;
  frame_eqs_str?: string;
  point_eqs_str?: string;
}
interface PresetData extends EquationSet {
  pixel_eqs_str?: string;
  shapes?: EquationSet[];
  waves?: EquationSet[];
}

/**
 * butterchurn turns a preset's equations (JavaScript in strings) into functions with `new Function` when it
 * loads the preset, which a Content-Security-Policy without 'unsafe-eval' refuses, unless the preset already
 * has them. This writes them as functions into the bundle instead, exactly as butterchurn's loadPreset would
 * make them (body + " return a;", pixel and point equations only when present, shapes' and waves' only when
 * enabled; their `enabled` defaults to 0), and leaves out the strings nothing reads any more.
 */
export function presetModuleSource(presets: Record<string, PresetData>): string {
  const fn = (body: string | undefined) => `function (a) {${body ?? ''} return a;\n}`;
  const optional = (body: string | undefined) => (body ? fn(body) : "''");
  const data = (value: object) => {
    const { init_eqs_str: _init, frame_eqs_str: _frame, point_eqs_str: _point, pixel_eqs_str: _pixel, shapes: _shapes, waves: _waves, ...rest } = value as PresetData;
    return JSON.stringify(rest);
  };
  const enabled = (part: EquationSet) => (part.baseVals?.enabled ?? 0) !== 0;
  const shape = (part: EquationSet) =>
    enabled(part) ? `Object.assign(${data(part)}, { init_eqs: ${fn(part.init_eqs_str)}, frame_eqs: ${fn(part.frame_eqs_str)} })` : JSON.stringify(part);
  const wave = (part: EquationSet) =>
    enabled(part)
      ? `Object.assign(${data(part)}, { init_eqs: ${fn(part.init_eqs_str)}, frame_eqs: ${fn(part.frame_eqs_str)}, point_eqs: ${optional(part.point_eqs_str)} })`
      : JSON.stringify(part);
  const entries = Object.entries(presets).map(
    ([name, preset]) =>
      `  ${JSON.stringify(name)}: Object.assign(${data(preset)}, {\n    init_eqs: ${fn(preset.init_eqs_str)},\n    frame_eqs: ${fn(preset.frame_eqs_str)},\n` +
      `    pixel_eqs: ${optional(preset.pixel_eqs_str)},\n    shapes: [${(preset.shapes ?? []).map(shape).join(', ')}],\n    waves: [${(preset.waves ?? []).map(wave).join(', ')}],\n  })`,
  );
  // Nothing else is declared in this module: the equations call butterchurn's global helpers (sqr, below, …).
  return `export default { getPresets: () => ({\n${entries.join(',\n')}\n}) };\n`;
}

/** Replaces the Milkdrop preset pack in the production bundle with its precompiled form. */
export function precompiledMilkdropPresets(): Plugin {
  const require = createRequire(import.meta.url);
  return {
    name: 'stemdeck:precompiled-milkdrop-presets',
    enforce: 'pre',
    apply: 'build',
    load(id) {
      const file = id.split('?')[0]!;
      if (!PRESET_PACK.test(file)) return null;
      const pack = require(file) as { getPresets?: () => Record<string, PresetData>; default?: { getPresets: () => Record<string, PresetData> } };
      const getPresets = pack.getPresets ?? pack.default!.getPresets;
      return presetModuleSource(getPresets());
    },
  };
}
