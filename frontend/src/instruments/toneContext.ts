import * as Tone from 'tone';
import { ensureAudioContext } from '../audio/audioContext';

let attached = false;

/**
 * Tone.js runs on the studio's one AudioContext (stems, instruments and pads share a clock and an
 * output). Called from a user gesture: it resumes the context, so audio starts on the first play.
 */
export async function startTone(): Promise<void> {
  if (!attached) {
    // Tone made a context of its own when it loaded; it is disposed, ours takes its place.
    Tone.setContext(ensureAudioContext(), true);
    attached = true;
  }
  await Tone.start();
}

export { Tone };

/**
 * A gate for one voice's scheduled hits: it admits a hit only if it can still start on time and later than
 * the last one admitted. When the page's main thread falls behind the audio clock, Tone hands over hits
 * whose time has passed and starts them "now", and around a rapid stop and restart its Transport can hand
 * one event over twice; either way two hits on one voice land on the same start time, which Tone refuses
 * by throwing. Such a hit is dropped: played late it would only smear the beat.
 */
export function hitGate(): (time: number) => boolean {
  let last = -Infinity;
  return (time) => {
    if (time < Tone.getContext().currentTime || time <= last) return false;
    last = time;
    return true;
  };
}
