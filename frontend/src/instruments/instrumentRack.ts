import * as Tone from 'tone';
import { masterBus } from '../audio/masterEffects';
import { beatEvent, PlaybackEventStream, transportEvent } from '../audio/playbackEvents';
import { scheduleTestTones } from './audioTest';
import { DemoPlayer, type DemoSong } from './demoSongs';
import { DrumKit } from './drumKit';
import { StepSequencer } from './sequencer';
import { PolySynthVoice } from './synth';
import { onInstrumentRack, publishInstrumentRack } from './rackRegistry';
import { startTone } from './toneContext';

/** The instruments' master chain: compressor threshold −24 dB, master gain 0.8, analyser size 2048. */
const COMPRESSOR_THRESHOLD_DB = -24;
const MASTER_GAIN = 0.8;
const ANALYSER_SIZE = 2048;

export type TransportOwner = 'sequencer' | 'demo' | null;

/**
 * The music page's (and Create Music section's) instruments on one master chain:
 * instruments → master volume (0–100 → /100) → compressor → master gain → destination, with an analyser
 * on the output. Created on the first user gesture. Only one thing drives the Transport at a time.
 */
export class InstrumentRack {
  readonly kit: DrumKit;
  readonly synth: PolySynthVoice;
  readonly sequencer: StepSequencer;
  readonly analyser: Tone.Analyser;
  /** Transport and beat events of the sequencer and demo songs (the same stream type as stem playback). */
  readonly events = new PlaybackEventStream();
  private readonly volume: Tone.Gain;
  private readonly meter: Tone.Meter;
  private demo: DemoPlayer | null = null;
  private stepListeners = new Set<(step: number) => void>();
  private ownerListeners = new Set<(owner: TransportOwner) => void>();
  private currentOwner: TransportOwner = null;
  /** Bumped whenever playback starts or stops: beats drawn for an earlier run are dropped. */
  private beatRun = 0;

  constructor() {
    this.volume = new Tone.Gain(1);
    const compressor = new Tone.Compressor({ threshold: COMPRESSOR_THRESHOLD_DB, ratio: 4 });
    const master = new Tone.Gain(MASTER_GAIN);
    this.analyser = new Tone.Analyser('waveform', ANALYSER_SIZE);
    this.meter = new Tone.Meter({ normalRange: true, smoothing: 0 });
    // Through the studio's master bus, so the performance pads' effects reach the instruments too.
    this.volume.chain(compressor, master);
    Tone.connect(master, masterBus(Tone.getContext().rawContext as AudioContext).input);
    master.connect(this.analyser);
    this.kit = new DrumKit();
    this.kit.output.connect(this.volume);
    this.synth = new PolySynthVoice();
    this.synth.output.connect(this.volume);
    this.sequencer = new StepSequencer(this.kit, (step) => this.stepListeners.forEach((listener) => listener(step)));
  }

  /** Master volume 0–100, applied as volume / 100. */
  setVolume(volume: number): void {
    this.volume.gain.rampTo(Math.min(100, Math.max(0, volume)) / 100, 0.02);
  }

  onStep(listener: (step: number) => void): () => void {
    this.stepListeners.add(listener);
    return () => this.stepListeners.delete(listener);
  }

  /** What drives the Transport now: the sequencer, a demo song, or nothing. */
  get owner(): TransportOwner {
    return this.currentOwner;
  }

  onOwner(listener: (owner: TransportOwner) => void): () => void {
    this.ownerListeners.add(listener);
    return () => this.ownerListeners.delete(listener);
  }

  playPattern(): void {
    this.stopAll();
    this.sequencer.start();
    this.setOwner('sequencer');
  }

  playDemo(song: DemoSong): void {
    this.stopAll();
    this.demo = new DemoPlayer(song, this.volume);
    this.demo.start();
    this.setOwner('demo');
  }

  stopAll(): void {
    this.sequencer.stop();
    this.demo?.stop();
    this.demo = null;
    this.setOwner(null);
  }

  /** The transport's tempo (the sequencer's or the demo song's). */
  get bpm(): number {
    return Tone.getTransport().bpm.value;
  }

  private setOwner(owner: TransportOwner): void {
    const was = this.currentOwner;
    this.currentOwner = owner;
    if (owner && !was) this.announceBeats();
    if (!owner && was) {
      this.beatRun++;
      this.events.emit(transportEvent('stop', 0, false, Date.now()));
    }
    for (const listener of this.ownerListeners) listener(owner);
  }

  /** Transport start, then a beat event on every quarter note, emitted when it is heard (Tone.Draw). */
  private announceBeats(): void {
    const transport = Tone.getTransport();
    this.events.emit(transportEvent('play', 0, false, Date.now()));
    const run = ++this.beatRun;
    let beat = 0;
    transport.scheduleRepeat((time) => {
      const index = beat++;
      Tone.getDraw().schedule(() => run === this.beatRun && this.events.emit(beatEvent(index, this.bpm, transport.seconds, Date.now())), time);
    }, '4n', 0);
  }

  get demoPlaying(): DemoSong | null {
    return this.demo?.song ?? null;
  }

  /**
   * Plays the four test tones and listens to them on the way out: working when the context runs and the
   * tones were measured at the output, failed otherwise (a suspended context, a muted or broken graph).
   */
  async testAudio(): Promise<boolean> {
    const probe = new Tone.Gain(1);
    probe.connect(this.volume);
    probe.connect(this.meter);
    const end = scheduleTestTones(probe, Tone.now() + 0.05);
    let heard = 0;
    while (Tone.now() < end) {
      heard = Math.max(heard, Number(this.meter.getValue()));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    probe.dispose();
    return Tone.getContext().state === 'running' && heard > 0.01;
  }
}

let rack: InstrumentRack | null = null;

/** The rack, created (and the audio context resumed) on first use, which must be a user gesture. */
export async function instrumentRack(): Promise<InstrumentRack> {
  await startTone();
  if (!rack) {
    rack = new InstrumentRack();
    publishInstrumentRack(rack);
  }
  return rack;
}

export { onInstrumentRack };
