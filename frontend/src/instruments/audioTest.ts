import * as Tone from 'tone';

/** The audio test plays four tones (A4, C5, E5, G5) 200 ms apart. */
export const TEST_TONES = [440, 523, 659, 784];
export const TEST_TONE_SPACING_S = 0.2;
const TONE_LENGTH_S = 0.18;

/** Schedules the four test tones on the audio clock from `at`; resolves the time the last one ends. */
export function scheduleTestTones(output: Tone.InputNode, at: number = Tone.now()): number {
  const synth = new Tone.Synth({ oscillator: { type: 'sine' }, envelope: { attack: 0.005, decay: 0, sustain: 1, release: 0.01 } }).connect(output);
  synth.volume.value = -10;
  TEST_TONES.forEach((frequency, i) => synth.triggerAttackRelease(frequency, TONE_LENGTH_S, at + i * TEST_TONE_SPACING_S));
  const end = at + TEST_TONES.length * TEST_TONE_SPACING_S;
  synth.context.setTimeout(() => synth.dispose(), end - synth.context.currentTime + 0.2);
  return end;
}
