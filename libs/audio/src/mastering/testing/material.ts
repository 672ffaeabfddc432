/**
 * Synthetic test material for the mastering specs, made by ffmpeg's lavfi sources (deterministic: aevalsrc's
 * random() and anoisesrc start from fixed seeds): a drum-like groove (a decaying 55 Hz kick on the beat, a noise
 * snare on the off-beat, 120 BPM), two tones per channel, and pink noise; the first half 6 dB quieter than the second,
 * so the loudness range is not zero.
 */
import { runFfmpeg } from '../tool';

export interface TestSongOptions {
  seconds?: number;
  sampleRate?: number;
  channels?: 1 | 2;
  /** Gain on the whole mix, dB (the material peaks near −4.5 dBFS at 0). */
  gainDb?: number;
}

export async function makeTestSong(path: string, options: TestSongOptions = {}): Promise<void> {
  const { seconds = 10, sampleRate = 44100, channels = 2, gainDb = -6 } = options;
  const half = seconds / 2;
  const drums = (seed: number) =>
    `0.6*sin(2*PI*55*t)*exp(-mod(t,0.5)*14)+0.3*(random(${seed})*2-1)*exp(-mod(t+0.25,0.5)*40)`;
  const left = `(${drums(0)}+0.1*sin(2*PI*220*t)+0.07*sin(2*PI*660*t+1))*if(lt(t,${half}),0.5,1)`;
  const right = `(${drums(1)}+0.1*sin(2*PI*277*t)+0.07*sin(2*PI*880*t))*if(lt(t,${half}),0.5,1)`;
  await runFfmpeg({
    args: [
      '-f', 'lavfi', '-i', `aevalsrc=exprs='${left}|${right}':s=${sampleRate}:d=${seconds}`,
      '-f', 'lavfi', '-i', `anoisesrc=color=pink:amplitude=0.05:d=${seconds}:r=${sampleRate}:seed=7`,
      '-filter_complex', `[1]aformat=channel_layouts=stereo[n];[0][n]amix=inputs=2:normalize=0,volume=${gainDb}dB`,
      '-ac', String(channels), '-c:a', 'pcm_s16le', path,
    ],
  });
}

/** A sine (both channels alike when stereo: one expression per channel, ffmpeg's upmix would lower it 3 dB), as 32-bit float WAV. */
export async function makeTone(path: string, options: { hz: number; seconds: number; amplitude: number; sampleRate?: number; channels?: 1 | 2 }): Promise<void> {
  const { hz, seconds, amplitude, sampleRate = 44100, channels = 2 } = options;
  const expression = `${amplitude}*sin(2*PI*${hz}*t)`;
  await runFfmpeg({
    args: [
      '-f', 'lavfi', '-i', `aevalsrc=exprs='${new Array(channels).fill(expression).join('|')}':s=${sampleRate}:d=${seconds}`,
      '-c:a', 'pcm_f32le', path,
    ],
  });
}

/** Deterministic noise (anoisesrc, white or pink; the same on both channels, 3 dB below `amplitude`), as 32-bit float WAV. */
export async function makeNoise(path: string, options: { color: 'white' | 'pink'; seconds: number; amplitude: number; seed: number; lowpassHz?: number }): Promise<void> {
  const { color, seconds, amplitude, seed, lowpassHz } = options;
  await runFfmpeg({
    args: [
      '-f', 'lavfi', '-i', `anoisesrc=color=${color}:amplitude=${amplitude}:d=${seconds}:r=44100:seed=${seed}`,
      ...(lowpassHz ? ['-af', `lowpass=f=${lowpassHz},lowpass=f=${lowpassHz}`] : []),
      '-ac', '2', '-c:a', 'pcm_f32le', path,
    ],
  });
}
