import * as Tone from 'tone';
import { DrumKit } from './drumKit';
import { defaultPattern, patternSequence } from './sequencer';

export interface DemoSong {
  id: 'basic-beat' | 'melody-chords' | 'full-track';
  name: string;
  bpm: number;
  description: string;
}

/** Seed 001 §2 / §9. */
export const DEMO_SONGS: DemoSong[] = [
  { id: 'basic-beat', name: 'Basic Beat', bpm: 120, description: 'A 16-step drum pattern at 120 BPM' },
  { id: 'melody-chords', name: 'Melody & Chords', bpm: 140, description: 'An arpeggio at 140 BPM over C, G, Am and F, a chord a second' },
  { id: 'full-track', name: 'Full Track', bpm: 128, description: 'Drums at 128 BPM, a 16-step bass line and a square-wave lead' },
];

const CHORDS = [
  ['C4', 'E4', 'G4'],
  ['G3', 'B3', 'D4'],
  ['A3', 'C4', 'E4'],
  ['F3', 'A3', 'C4'],
];
const ARPEGGIO = ['C5', 'E5', 'G5', 'C6', 'G5', 'E5'];
const BASS_LINE = ['C2', 'C2', 'C3', 'C2', 'G1', 'G1', 'G2', 'G1', 'A1', 'A1', 'A2', 'A1', 'F1', 'F1', 'F2', 'G1'];
const LEAD = ['E5', 'G5', 'A5', 'G5', 'E5', 'D5', 'C5', 'D5'];
/** Seed 001 §9: the lead's notes are 300 ms apart, whatever the tempo. */
const LEAD_SPACING_S = 0.3;
/** Seed 001 §9: chords change every second. */
const CHORD_INTERVAL_S = 1;

/**
 * A demo song playing on Tone's Transport into `output`; everything is scheduled ahead on the audio clock.
 * `stop()` silences it and frees its instruments.
 */
export class DemoPlayer {
  private readonly disposables: Array<{ dispose(): unknown }> = [];

  constructor(
    readonly song: DemoSong,
    private readonly output: Tone.InputNode,
  ) {}

  start(at?: number): void {
    const transport = Tone.getTransport();
    transport.stop();
    transport.cancel(0);
    transport.position = 0;
    const start = at ?? transport.now();
    transport.bpm.setValueAtTime(this.song.bpm, start);
    if (this.song.id === 'basic-beat') this.drums();
    if (this.song.id === 'melody-chords') this.melodyAndChords();
    if (this.song.id === 'full-track') this.fullTrack();
    transport.start(start);
  }

  stop(): void {
    const transport = Tone.getTransport();
    transport.stop();
    transport.cancel(0);
    for (const item of this.disposables.splice(0)) item.dispose();
  }

  private keep<T extends { dispose(): unknown }>(item: T): T {
    this.disposables.push(item);
    return item;
  }

  private drums(): void {
    const kit = this.keep(new DrumKit());
    kit.output.connect(this.output);
    const pattern = defaultPattern();
    this.keep(patternSequence(kit, () => pattern));
  }

  private melodyAndChords(): void {
    const pad = this.keep(new Tone.PolySynth(Tone.Synth, { oscillator: { type: 'triangle' }, envelope: { attack: 0.05, decay: 0.2, sustain: 0.6, release: 0.6 } }));
    pad.volume.value = -12;
    pad.connect(this.output);
    const arp = this.keep(new Tone.Synth({ oscillator: { type: 'sine' }, envelope: { attack: 0.005, decay: 0.15, sustain: 0.2, release: 0.2 } }));
    arp.volume.value = -8;
    arp.connect(this.output);
    this.keep(new Tone.Sequence<string>((time, note) => arp.triggerAttackRelease(note, '16n', time), ARPEGGIO, '8n').start(0));
    let chord = 0;
    this.keep(
      new Tone.Loop((time) => {
        pad.triggerAttackRelease(CHORDS[chord % CHORDS.length]!, CHORD_INTERVAL_S * 0.9, time);
        chord++;
      }, CHORD_INTERVAL_S).start(0),
    );
  }

  private fullTrack(): void {
    this.drums();
    const bass = this.keep(new Tone.MonoSynth({ oscillator: { type: 'sawtooth' }, filter: { Q: 2, type: 'lowpass' }, envelope: { attack: 0.005, decay: 0.2, sustain: 0.4, release: 0.1 }, filterEnvelope: { attack: 0.005, decay: 0.15, sustain: 0.2, baseFrequency: 120, octaves: 2.5 } }));
    bass.volume.value = -6;
    bass.connect(this.output);
    // 8th notes at 128 BPM: 234 ms apart (seed 001 §9).
    this.keep(new Tone.Sequence<string>((time, note) => bass.triggerAttackRelease(note, '16n', time), BASS_LINE, '8n').start(0));
    const lead = this.keep(new Tone.Synth({ oscillator: { type: 'square' }, envelope: { attack: 0.01, decay: 0.1, sustain: 0.3, release: 0.1 } }));
    lead.volume.value = -16;
    lead.connect(this.output);
    let note = 0;
    this.keep(
      new Tone.Loop((time) => {
        lead.triggerAttackRelease(LEAD[note % LEAD.length]!, 0.25, time);
        note++;
      }, LEAD_SPACING_S).start(0),
    );
  }
}
