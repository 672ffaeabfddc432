/**
 * Offline renders of the instruments, for the tests that run them in headless Chromium
 * (test/e2e/music-offline.e2e-spec.ts bundles this file with esbuild; it is not part of the app).
 * Each render function uses Tone.Offline (an OfflineAudioContext) and returns channel 0 as base64 of
 * the Float32Array's bytes; `demoStartStop` runs the real-time engine instead.
 */
import * as Tone from 'tone';
import { scheduleTestTones } from '../audioTest';
import { DEMO_SONGS, DemoPlayer } from '../demoSongs';
import { DrumKit, type DrumId } from '../drumKit';
import { instrumentRack } from '../instrumentRack';
import { defaultPattern, emptyPattern, StepSequencer } from '../sequencer';
import { PolySynthVoice, SYNTH_DEFAULTS, type SynthSettings } from '../synth';

export const SAMPLE_RATE = 44100;
const LOOK_AHEAD_S = 0.1;

/**
 * Tone.Offline with the real-time context's look-ahead. Tone's OfflineContext looks 0 s ahead, so its
 * Transport hands events over when their time has already passed and every hit lands on the next
 * 128-sample block (up to 2.9 ms late). Live, Tone schedules 100 ms ahead and hits are exact; giving the
 * offline clock the same look-ahead measures what is heard live.
 */
function offline(schedule: () => void, seconds: number): Promise<Tone.ToneAudioBuffer> {
  return Tone.Offline((context) => {
    schedule(); // at time 0 (no look-ahead yet), like a live start at "now"
    context.lookAhead = LOOK_AHEAD_S;
  }, seconds, 1, SAMPLE_RATE);
}

function encode(buffer: Tone.ToneAudioBuffer): string {
  const samples = buffer.getChannelData(0);
  const bytes = new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The default pattern at `bpm`, only `rows` sounding (all four by default). */
export async function drumPattern(bpm: number, seconds: number, rows?: DrumId[]): Promise<string> {
  const full = defaultPattern();
  const pattern = rows ? { ...emptyPattern(), ...Object.fromEntries(rows.map((row) => [row, full[row]])) } : full;
  const buffer = await offline(() => {
    const kit = new DrumKit();
    kit.output.toDestination();
    const sequencer = new StepSequencer(kit, undefined, pattern);
    sequencer.bpm = bpm;
    sequencer.start(0);
  }, seconds);
  return encode(buffer);
}

/** One synth note (MIDI 69, A4) held for `hold` seconds, then released. */
export async function synthNote(settings: Partial<SynthSettings>, hold: number, seconds: number): Promise<string> {
  const buffer = await offline(() => {
    const synth = new PolySynthVoice({ ...SYNTH_DEFAULTS, cutoff: 8000, waveform: 'sine', ...settings });
    synth.output.toDestination();
    synth.noteOn(69, 1, 0);
    synth.noteOff(69, hold);
  }, seconds);
  return encode(buffer);
}

export async function demoSong(id: string, seconds: number): Promise<string> {
  const song = DEMO_SONGS.find((s) => s.id === id)!;
  const buffer = await offline(() => {
    new DemoPlayer(song, Tone.getDestination()).start(0);
  }, seconds);
  return encode(buffer);
}

export async function testTones(): Promise<string> {
  const buffer = await offline(() => void scheduleTestTones(Tone.getDestination(), 0), 1);
  return encode(buffer);
}


const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Real time, on the page's AudioContext (call it after a user gesture): plays and stops the demo songs
 * `cycles` times through the music engine, stopping at varying moments while notes still ring. After each
 * start the main thread stays busy for `busyMs`, as on a page doing other work, so the Transport hands
 * over hits whose time has already passed. Resolves once every stopped song has had time to wind down.
 */
export async function demoStartStop(cycles: number, busyMs: number): Promise<void> {
  const engine = await instrumentRack();
  const fullTrack = DEMO_SONGS.find((song) => song.id === 'full-track')!;
  for (let i = 0; i < cycles; i++) {
    engine.playDemo(i % 2 === 0 ? fullTrack : DEMO_SONGS[(i >> 1) % DEMO_SONGS.length]!);
    const busyUntil = performance.now() + busyMs;
    while (performance.now() < busyUntil);
    await sleep(250 + (i % 4) * 110);
    engine.stopAll();
    await sleep(40);
  }
  await sleep(3000);
}
