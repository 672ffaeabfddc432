import * as Tone from 'tone';
import { ensureAudioContext } from '../audio/audioEngine';

let attached = false;

/**
 * Tone.js runs on the studio's one AudioContext (stems, instruments and pads share a clock and an
 * output). Called from a user gesture: it resumes the context ("the audio engine resumes on first play").
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
