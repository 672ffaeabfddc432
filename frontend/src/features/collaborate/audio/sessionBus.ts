import { masterBus } from '../../../audio/masterEffects';

const buses = new WeakMap<BaseAudioContext, GainNode>();

/**
 * The session's own level on the studio's context: the shared stems and the collaboration pads both go
 * through it into the studio's master bus (so the master effects, analyser and meters see them), and the
 * Live Session tab's master volume sets it. One per context, made on first use.
 */
export function sessionBus(context: AudioContext): GainNode {
  let bus = buses.get(context);
  if (!bus) {
    bus = context.createGain();
    bus.connect(masterBus(context).input);
    buses.set(context, bus);
  }
  return bus;
}
