import { PlayerError, type PlayerErrorCode } from '../../audio/stemPlayer';
import { studioPlayer } from '../../audio/studioPlayer';
import { toaster } from '../../ui/toaster';

/** What a playback failure tells the person, by its code: a toast's title and description. */
const PLAYBACK_ERRORS: Record<PlayerErrorCode, { title: string; description: string }> = {
  'no-audio': { title: 'No audio loaded', description: 'Please load an audio file first' },
  'context-failed': { title: 'Audio Context Error', description: 'Failed to initialize audio context' },
  'context-not-ready': { title: 'Audio context not ready', description: 'Please try again in a moment' },
  'load-failed': { title: 'Failed to load audio', description: 'The selected file could not be processed' },
};

export async function play(): Promise<void> {
  try {
    await studioPlayer.play();
  } catch (error) {
    const known = error instanceof PlayerError ? PLAYBACK_ERRORS[error.code] : PLAYBACK_ERRORS['context-failed'];
    toaster.create({ ...known, type: 'error' });
  }
}

export const pause = (): void => studioPlayer.pause();
export const stop = (): void => studioPlayer.stop();
export const seek = (seconds: number): void => studioPlayer.seek(seconds);
