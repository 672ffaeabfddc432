import * as Tone from 'tone';

/**
 * The drum machine's 12 voices, synthesized (no samples to license): membranes for kick and toms, filtered
 * noise for snare, clap and hats, metal for cymbals and cowbell. Keys are the number row, so they never
 * collide with the synthesizer's A–K keys.
 */
export const DRUMS = [
  { id: 'kick', name: 'Kick', key: '1' },
  { id: 'snare', name: 'Snare', key: '2' },
  { id: 'hihat', name: 'Hi-Hat', key: '3' },
  { id: 'openhat', name: 'Open Hat', key: '4' },
  { id: 'clap', name: 'Clap', key: '5' },
  { id: 'crash', name: 'Crash', key: '6' },
  { id: 'ride', name: 'Ride', key: '7' },
  { id: 'tom1', name: 'Tom 1', key: '8' },
  { id: 'tom2', name: 'Tom 2', key: '9' },
  { id: 'tom3', name: 'Tom 3', key: '0' },
  { id: 'rim', name: 'Rim', key: '-' },
  { id: 'cowbell', name: 'Cowbell', key: '=' },
] as const;

export type DrumId = (typeof DRUMS)[number]['id'];

type Voice = (time: number, velocity: number) => void;

export class DrumKit {
  readonly output: Tone.Gain;
  private readonly voices: Record<DrumId, Voice>;
  private readonly nodes: Tone.ToneAudioNode[] = [];

  constructor() {
    this.output = new Tone.Gain(0.8);
    const membrane = (pitch: Tone.Unit.Frequency, decay: number, octaves = 6) => {
      const synth = this.own(new Tone.MembraneSynth({ pitchDecay: 0.04, octaves, envelope: { attack: 0.001, attackCurve: 'linear', decay, sustain: 0, release: 0.05 } }));
      return (time: number, velocity: number) => synth.triggerAttackRelease(pitch, decay, time, velocity);
    };
    const noise = (type: 'white' | 'pink', filter: Tone.FilterOptions['type'], frequency: number, decay: number) => {
      const synth = new Tone.NoiseSynth({ noise: { type }, envelope: { attack: 0.001, decay, sustain: 0, release: 0.02 } });
      const band = this.own(new Tone.Filter({ type: filter, frequency, Q: 0.8 }));
      this.own(synth).connect(band);
      return (time: number, velocity: number) => synth.triggerAttackRelease(decay, time, velocity);
    };
    const metal = (frequency: number, decay: number, harmonicity = 5.1) => {
      const synth = this.own(new Tone.MetalSynth({ harmonicity, modulationIndex: 32, resonance: 4000, octaves: 1.5, envelope: { attack: 0.001, decay, release: 0.05 } }));
      synth.frequency.value = frequency;
      return (time: number, velocity: number) => synth.triggerAttackRelease(frequency, decay, time, velocity * 0.4);
    };
    const snareBody = membrane('G3', 0.08, 2);
    const snareNoise = noise('white', 'highpass', 1800, 0.16);
    const clapNoise = noise('pink', 'bandpass', 1200, 0.12);
    this.voices = {
      kick: membrane('C1', 0.45),
      snare: (time, velocity) => {
        snareBody(time, velocity * 0.6);
        snareNoise(time, velocity);
      },
      hihat: noise('white', 'highpass', 8000, 0.05),
      openhat: noise('white', 'highpass', 7000, 0.35),
      clap: (time, velocity) => {
        for (const [offset, level] of [[0, 0.7], [0.012, 0.6], [0.024, 1]] as const) clapNoise(time + offset, velocity * level);
      },
      crash: metal(300, 1.4, 8.5),
      ride: metal(500, 0.9, 5.1),
      tom1: membrane('A2', 0.3, 3),
      tom2: membrane('E2', 0.35, 3),
      tom3: membrane('B1', 0.4, 3),
      rim: membrane('E5', 0.03, 1),
      cowbell: metal(560, 0.25, 1.5),
    };
  }

  /** Plays a drum at a time on the audio clock (now when omitted), velocity 0–1. */
  trigger(id: DrumId, time: number = Tone.now(), velocity = 1): void {
    this.voices[id](time, velocity);
  }

  dispose(): void {
    for (const node of this.nodes) node.dispose();
    this.output.dispose();
  }

  private own<T extends Tone.ToneAudioNode>(node: T): T {
    this.nodes.push(node);
    // Sources connect to their filter (noise voices); everything else goes to the kit's output.
    if (!(node instanceof Tone.NoiseSynth)) node.connect(this.output);
    return node;
  }
}
