import { ensureAudioContext } from './audioContext';
import { MARKS } from '../lib/marks';
import { masterBus } from './masterEffects';
import { StemPlayer } from './stemPlayer';

/** The studio's one stem player, on the shared AudioContext (created on the first Play, a user gesture). */
export const studioPlayer = new StemPlayer({
  context: ensureAudioContext,
  output: (context) => masterBus(context).input,
  onAudible: () => performance.mark(MARKS.firstAudible),
});
