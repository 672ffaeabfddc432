import type { PlaybackEvent } from '../audio/playbackEvents';
import type { StemPlayer } from '../audio/stemPlayer';
import { controlOutputs } from './controlOutputs';
import { onInstrumentRack } from './rackRegistry';

/**
 * Sends what the studio plays to OSC and MIDI: the stem player's transport, beats and stem levels, and
 * the sequencer's or demo song's transport and beats; MIDI clock runs while either plays, at its tempo.
 */
export function connectControlOutputs(player: StemPlayer): () => void {
  const offs: Array<() => void> = [];
  const follow = (tempo: () => number) => (event: PlaybackEvent) => {
    controlOutputs.playback(event);
    if (event.type !== 'transport') return;
    if (event.action === 'play') controlOutputs.startClock(tempo());
    else controlOutputs.stopClock();
  };
  offs.push(player.events.subscribe(follow(() => player.bpm)));
  offs.push(onInstrumentRack((rack) => offs.push(rack.events.subscribe(follow(() => rack.bpm)))));
  return () => offs.forEach((off) => off());
}
