import * as Tone from 'tone';
import { DrumKit } from './drumKit';
import { defaultPattern, patternSequence } from './sequencer';
import { hitGate } from './toneContext';

export interface DemoSong {
  id: 'basic-beat' | 'melody-chords' | 'full-track';
  name: string;
  bpm: number;
  description: string;
}

/** The three demo songs, with their tempo and what each plays. */
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
/** The lead's notes are 300 ms apart, whatever the tempo. */
const LEAD_SPACING_S = 0.3;
/** Chords change every second. */
const CHORD_INTERVAL_S = 1;

/** Longest a stopped song's notes can still ring: notes scheduled ahead, the chord pad's 0.9 s plus its release, the crash. */
const WIND_DOWN_S = 3;
const FADE_OUT_S = 0.015;

/**
 * A demo song playing on Tone's Transport into `output`; everything is scheduled ahead on the audio clock.
 * `stop()` silences it at once and frees its instruments once their last notes have ended.
 */
export class DemoPlayer {
  private readonly disposables: Array<{ dispose(): unknown }> = [];
  /** The song's own fader: stopping fades it out while its instruments wind down unheard. */
  private readonly bus: Tone.Gain;

  constructor(
    readonly song: DemoSong,
    output: Tone.InputNode,
  ) {
    this.bus = new Tone.Gain(1);
    this.bus.connect(output);
  }

  start(at?: number): void {
    const transport = Tone.getTransport();
    transport.stop();
    transport.cancel(0);
    transport.position = 0;
    // The tempo first: loops given in seconds (lead, chords) become ticks at the tempo in force now.
    transport.bpm.value = this.song.bpm;
    if (this.song.id === 'basic-beat') this.drums();
    if (this.song.id === 'melody-chords') this.melodyAndChords();
    if (this.song.id === 'full-track') this.fullTrack();
    // "Now" is read after the instruments are built: building them can take longer than Tone's look-ahead,
    // and a start time read before would already be past, making the first hits late.
    transport.start(at ?? transport.now());
  }

  stop(): void {
    const transport = Tone.getTransport();
    transport.stop();
    transport.cancel(0);
    const now = Tone.immediate();
    this.bus.gain.cancelScheduledValues(now);
    this.bus.gain.setValueAtTime(this.bus.gain.getValueAtTime(now), now);
    this.bus.gain.linearRampToValueAtTime(0, now + FADE_OUT_S);
    // Not disposed yet: a voice freed while a note it started is still sounding throws when that note
    // ends (Tone disconnects the ended oscillator from the disposed voice).
    const items = this.disposables.splice(0);
    Tone.getContext().setTimeout(() => {
      for (const item of items) item.dispose();
      this.bus.dispose();
    }, WIND_DOWN_S);
  }

  private keep<T extends { dispose(): unknown }>(item: T): T {
    this.disposables.push(item);
    return item;
  }

  private drums(): void {
    const kit = this.keep(new DrumKit());
    kit.output.connect(this.bus);
    const pattern = defaultPattern();
    this.keep(patternSequence(kit, () => pattern));
  }

  private melodyAndChords(): void {
    const pad = this.keep(new Tone.PolySynth(Tone.Synth, { oscillator: { type: 'triangle' }, envelope: { attack: 0.05, decay: 0.2, sustain: 0.6, release: 0.6 } }));
    pad.volume.value = -12;
    pad.connect(this.bus);
    const arp = this.keep(new Tone.Synth({ oscillator: { type: 'sine' }, envelope: { attack: 0.005, decay: 0.15, sustain: 0.2, release: 0.2 } }));
    arp.volume.value = -8;
    arp.connect(this.bus);
    const arpGate = hitGate();
    this.keep(new Tone.Sequence<string>((time, note) => arpGate(time) && arp.triggerAttackRelease(note, '16n', time), ARPEGGIO, '8n').start(0));
    const padGate = hitGate();
    let chord = 0;
    this.keep(
      new Tone.Loop((time) => {
        if (padGate(time)) pad.triggerAttackRelease(CHORDS[chord % CHORDS.length]!, CHORD_INTERVAL_S * 0.9, time);
        chord++;
      }, CHORD_INTERVAL_S).start(0),
    );
  }

  private fullTrack(): void {
    this.drums();
    const bass = this.keep(new Tone.MonoSynth({ oscillator: { type: 'sawtooth' }, filter: { Q: 2, type: 'lowpass' }, envelope: { attack: 0.005, decay: 0.2, sustain: 0.4, release: 0.1 }, filterEnvelope: { attack: 0.005, decay: 0.15, sustain: 0.2, baseFrequency: 120, octaves: 2.5 } }));
    bass.volume.value = -6;
    bass.connect(this.bus);
    // 8th notes at 128 BPM: 234 ms apart.
    const bassGate = hitGate();
    this.keep(new Tone.Sequence<string>((time, note) => bassGate(time) && bass.triggerAttackRelease(note, '16n', time), BASS_LINE, '8n').start(0));
    const lead = this.keep(new Tone.Synth({ oscillator: { type: 'square' }, envelope: { attack: 0.01, decay: 0.1, sustain: 0.3, release: 0.1 } }));
    lead.volume.value = -16;
    lead.connect(this.bus);
    const leadGate = hitGate();
    let note = 0;
    this.keep(
      new Tone.Loop((time) => {
        if (leadGate(time)) lead.triggerAttackRelease(LEAD[note % LEAD.length]!, 0.25, time);
        note++;
      }, LEAD_SPACING_S).start(0),
    );
  }
}
