import type { CollaborationPad } from '@stemdeck/proto/vocabulary';

/** Plays one collaboration pad's drum sound now, through the studio's master bus. velocity 0–127. (Body follows.) */
export async function playCollaborationPad(pad: CollaborationPad, velocity: number): Promise<void> {
  void pad;
  void velocity;
}
