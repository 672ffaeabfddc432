import { spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import { decodeWav, type StereoAudio } from '@stemdeck/audio';

/** The development set's soundfont (Debian fluid-soundfont-gm). */
export const SOUNDFONT = '/usr/share/sounds/sf2/FluidR3_GM.sf2';

/** fluidsynth's reverb unit (all 0..1). */
export interface FluidReverb {
  roomSize: number;
  damping: number;
  width: number;
  level: number;
}

export interface StemRenderOptions {
  soundfont: string;
  reverb: FluidReverb;
}

/** The development set's sound: FluidR3 and a small room. */
export const DEV_RENDER: StemRenderOptions = {
  soundfont: SOUNDFONT,
  reverb: { roomSize: 0.4, damping: 0.4, width: 0.8, level: 0.6 },
};

/**
 * Renders one stem's MIDI file with fluidsynth (offline, float WAV) — or, when `soundfont` is a TiMidity++
 * configuration (`.cfg`, GUS patches), with timidity — and fits it to exactly `frames` samples. Each stem is
 * rendered alone, so its reverb tail belongs to it: the ground truth stays exact. Chorus is off; the reverb
 * is a small room unless told otherwise.
 */
export async function renderMidiStem(
  midiPath: string,
  wavPath: string,
  sampleRate: number,
  frames: number,
  { soundfont, reverb }: StemRenderOptions = DEV_RENDER,
): Promise<StereoAudio> {
  if (soundfont.endsWith('.cfg')) return renderWithTimidity(midiPath, wavPath, sampleRate, frames, { soundfont, reverb });
  const args = [
    '-ni',
    '-q',
    '-F', wavPath,
    '-r', String(sampleRate),
    '-g', '0.4',
    '-R', '1',
    '-C', '0',
    '-O', 'float',
    '-T', 'wav',
    '-o', `synth.reverb.room-size=${reverb.roomSize}`,
    '-o', `synth.reverb.damp=${reverb.damping}`,
    '-o', `synth.reverb.width=${reverb.width}`,
    '-o', `synth.reverb.level=${reverb.level}`,
    '-o', 'synth.cpu-cores=1',
    soundfont,
    midiPath,
  ];
  await run('fluidsynth', args);
  return readRender('fluidsynth', wavPath, sampleRate, frames);
}

/**
 * timidity's own synthesis (its envelopes, resampling and Freeverb; only the reverb level can be set from the
 * command line), 24-bit. Voice reduction is off, but timidity still switches interpolation by its audio queue now
 * and then, so two renders of one file can differ by about −70 dB (measured); the stems and the mixture written
 * from one render stay exact.
 */
async function renderWithTimidity(midiPath: string, wavPath: string, sampleRate: number, frames: number, { soundfont, reverb }: StemRenderOptions): Promise<StereoAudio> {
  const level = Math.max(1, Math.min(127, Math.round(reverb.level * 127)));
  const args = ['-c', soundfont, '-Ow', '--output-24bit', '--output-stereo', '-s', String(sampleRate), '-EFns=0', `--reverb=f,${level}`, '--chorus=d', '-k', '0', '--no-polyphony-reduction', '-p', '256', '-o', wavPath, midiPath];
  await run('timidity', args);
  return readRender('timidity', wavPath, sampleRate, frames);
}

/** Reads back the WAV a synthesizer (`tool`) rendered, removes the file, checks its rate and fits it to `frames`. */
export async function readRender(tool: string, wavPath: string, sampleRate: number, frames: number): Promise<StereoAudio> {
  const audio = decodeWav(await fs.readFile(wavPath));
  await fs.rm(wavPath, { force: true });
  if (audio.sampleRate !== sampleRate) throw new Error(`${tool} wrote ${audio.sampleRate} Hz, wanted ${sampleRate}`);
  return fitLength(audio, frames);
}

export function fitLength(audio: StereoAudio, frames: number): StereoAudio {
  const fit = (ch: Float32Array) => {
    const out = new Float32Array(frames);
    out.set(ch.subarray(0, Math.min(frames, ch.length)));
    return out;
  };
  return { sampleRate: audio.sampleRate, left: fit(audio.left), right: fit(audio.right) };
}

export function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited ${code}: ${stderr.trim()}`))));
  });
}

/** Runs at most `limit` tasks at a time (fluidsynth processes; the machine has two cores). */
export function limiter(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= limit) await new Promise<void>((r) => waiting.push(r));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

/** A file or a command a set's sources need, and the Debian package that installs it. */
export type Need = { file: string; pkg: string } | { command: string; pkg: string };

/** `<file or command> (Debian package <pkg>)` for each need this machine lacks (commands looked up in /usr/bin and /usr/local/bin). */
export function missingTools(needs: readonly Need[]): string[] {
  return needs
    .filter((n) => ('file' in n ? !existsSync(n.file) : !['/usr/bin', '/usr/local/bin'].some((dir) => existsSync(`${dir}/${n.command}`))))
    .map((n) => `${'file' in n ? n.file : n.command} (Debian package ${n.pkg})`);
}
