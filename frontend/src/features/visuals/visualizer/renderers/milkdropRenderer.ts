import butterchurnModule, { type ButterchurnVisualizer } from 'butterchurn';
import presetsModule from 'butterchurn-presets/lib/butterchurnPresetsMinimal.min.js';
import { isSilent, type Size, type VisualFrame } from '../visualFrame';
import type { GLRenderer } from './glRenderer';

/** butterchurn reads 1024 time-domain samples per frame. */
const BUTTERCHURN_SAMPLES = 1024;
/** A new preset every this many beats, blended over PRESET_BLEND_S. */
const BEATS_PER_PRESET = 32;
const PRESET_BLEND_S = 2.5;
/** Bright, busy presets first (the pack's first by name is mostly black until the music has run a while). */
const FIRST_PRESETS = [
  'Flexi - mindblob [shiny mix]',
  'Geiss - Cauldron - painterly 2 (saturation remix)',
  'Flexi, martin + geiss - dedicated to the sherwin maxawow',
  'martin - witchcraft reloaded',
  'Zylot - Paint Spill (Music Reactive Paint Mix)',
  'Krash + Illusion - Spiral Movement',
];

// Both are CommonJS bundles: depending on the bundler's interop the API is the default export or inside it.
const butterchurn = 'createVisualizer' in butterchurnModule ? butterchurnModule : butterchurnModule.default;
const presetPack = 'getPresets' in presetsModule ? presetsModule : presetsModule.default;

/**
 * Milkdrop presets through butterchurn (WebGL 2), fed the frames' waveform instead of an audio node, so an
 * output window without audio draws it too. Silence renders nothing new: the picture stands still.
 */
export class MilkdropRenderer implements GLRenderer {
  readonly canvas: HTMLCanvasElement;
  private readonly visualizer: ButterchurnVisualizer;
  private readonly presets: object[];
  private readonly samples = new Uint8Array(BUTTERCHURN_SAMPLES);
  private preset = 0;
  private beats = 0;
  private lastTimeMs: number | null = null;

  constructor(size: Size = { width: 1280, height: 720 }) {
    this.canvas = document.createElement('canvas');
    this.canvas.width = size.width;
    this.canvas.height = size.height;
    this.visualizer = butterchurn.createVisualizer(null, this.canvas, { width: size.width, height: size.height, pixelRatio: 1, textureRatio: 1 });
    const all = presetPack.getPresets();
    const names = Object.keys(all).sort();
    const first = FIRST_PRESETS.filter((name) => name in all);
    this.presets = [...first, ...names.filter((name) => !first.includes(name))].map((name) => all[name]!);
    this.visualizer.loadPreset(this.presets[0]!, 0);
  }

  resize({ width, height }: Size): void {
    this.canvas.width = width;
    this.canvas.height = height;
    this.visualizer.setRendererSize(width, height);
  }

  draw(frame: VisualFrame): void {
    const elapsed = this.lastTimeMs === null ? 1 / 60 : Math.min(0.1, Math.max(0.001, (frame.timeMs - this.lastTimeMs) / 1000));
    this.lastTimeMs = frame.timeMs;
    if (isSilent(frame) && frame.pulse === 0) return;
    if (frame.beat && ++this.beats % BEATS_PER_PRESET === 0) {
      this.preset = (this.preset + 1) % this.presets.length;
      this.visualizer.loadPreset(this.presets[this.preset]!, PRESET_BLEND_S);
    }
    const stride = frame.waveform.length / BUTTERCHURN_SAMPLES;
    for (let i = 0; i < BUTTERCHURN_SAMPLES; i++) this.samples[i] = frame.waveform[Math.floor(i * stride)] ?? 128;
    this.visualizer.render({ audioLevels: { timeByteArray: this.samples, timeByteArrayL: this.samples, timeByteArrayR: this.samples }, elapsedTime: elapsed });
  }

  dispose(): void {
    // butterchurn has no dispose of its own: losing the context frees its textures, buffers and programs.
    this.canvas.getContext('webgl2')?.getExtension('WEBGL_lose_context')?.loseContext();
    this.canvas.width = 1;
    this.canvas.height = 1;
  }
}
