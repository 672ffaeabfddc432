import type { CollaborationPad } from '@stemdeck/proto/vocabulary';
import { DrumKit } from '../../../instruments/drumKit';
import { startTone, Tone } from '../../../instruments/toneContext';
import { CollaborationPads } from './padVoices';
import { sessionBus } from './sessionBus';

const studioPads = new CollaborationPads({
  start: () => startTone().then(() => Tone.getContext().state === 'running'),
  running: () => Tone.getContext().state === 'running',
  now: () => Tone.immediate(),
  makeKit: () => {
    const kit = new DrumKit();
    Tone.connect(kit.output, sessionBus(Tone.getContext().rawContext as AudioContext));
    return kit;
  },
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
});

/**
 * Plays a collaboration pad's drum sound now, for one's own press and for another participant's
 * (`pad_triggered`) alike: Kick, Snare, Hi-Hat, Open Hat, Crash, Ride, Tom 1 and Tom 2 are the studio drum
 * machine's synthesized voices of those names; velocity 0–127. It sounds on the studio's AudioContext
 * through the session bus (the Live Session tab's master volume) into the studio's master bus, so the
 * master meters and visuals move with it. Resolves whether it sounded: a hit that arrives before the page
 * has had a click (the browser keeps audio off until then) is dropped.
 */
export function playCollaborationPad(pad: CollaborationPad, velocity: number): Promise<boolean> {
  return studioPads.play(pad, velocity);
}
