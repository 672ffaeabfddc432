import * as Tone from 'tone';

export const WAVEFORMS = ['sine', 'square', 'sawtooth', 'triangle'] as const;
export type Waveform = (typeof WAVEFORMS)[number];

export interface SynthSettings {
  waveform: Waveform;
  /** Low-pass cutoff, 100–8000 Hz (step 100). */
  cutoff: number;
  attack: number;
  decay: number;
  sustain: number;
  release: number;
  /** 0–1. */
  volume: number;
}

/** The synthesizer's starting settings and each control's range and step. */
export const SYNTH_DEFAULTS: SynthSettings = { waveform: 'sawtooth', cutoff: 2000, attack: 0.1, decay: 0.2, sustain: 0.5, release: 0.3, volume: 0.5 };
export const SYNTH_LIMITS = {
  cutoff: { min: 100, max: 8000, step: 100 },
  attack: { min: 0, max: 1, step: 0.01 },
  decay: { min: 0, max: 1, step: 0.01 },
  sustain: { min: 0, max: 1, step: 0.01 },
  release: { min: 0, max: 2, step: 0.01 },
  volume: { min: 0, max: 1, step: 0.01 },
} as const;

/** Computer keys → semitones above C4 (the usual DAW layout: A–K white keys, W E T Y U black keys). */
export const KEY_TO_SEMITONE: Record<string, number> = { a: 0, w: 1, s: 2, e: 3, d: 4, f: 5, t: 6, g: 7, y: 8, h: 9, u: 10, j: 11, k: 12 };
export const BASE_MIDI_NOTE = 60;

/**
 * Polyphonic subtractive synth: oscillators with an ADSR envelope → low-pass filter → volume. Notes are
 * MIDI numbers; releasing a note fades it over the release time (the envelope's release).
 */
export class PolySynthVoice {
  readonly output: Tone.Gain;
  private readonly synth: Tone.PolySynth<Tone.Synth>;
  private readonly filter: Tone.Filter;
  private settings: SynthSettings;

  constructor(settings: SynthSettings = SYNTH_DEFAULTS) {
    this.settings = settings;
    this.output = new Tone.Gain(settings.volume);
    this.filter = new Tone.Filter({ type: 'lowpass', frequency: settings.cutoff, rolloff: -24 }).connect(this.output);
    this.synth = new Tone.PolySynth({ voice: Tone.Synth, maxPolyphony: 16 }).connect(this.filter);
    this.apply(settings);
  }

  apply(settings: SynthSettings): void {
    this.settings = settings;
    this.synth.set({
      oscillator: { type: settings.waveform },
      envelope: { attack: settings.attack, decay: settings.decay, sustain: settings.sustain, release: settings.release },
    });
    this.filter.frequency.rampTo(settings.cutoff, 0.02);
    this.output.gain.rampTo(settings.volume, 0.02);
  }

  noteOn(midi: number, velocity = 1, time?: number): void {
    this.synth.triggerAttack(Tone.Frequency(midi, 'midi').toFrequency(), time, velocity);
  }

  noteOff(midi: number, time?: number): void {
    this.synth.triggerRelease(Tone.Frequency(midi, 'midi').toFrequency(), time);
  }

  allOff(): void {
    this.synth.releaseAll();
  }

  dispose(): void {
    this.synth.dispose();
    this.filter.dispose();
    this.output.dispose();
  }
}
