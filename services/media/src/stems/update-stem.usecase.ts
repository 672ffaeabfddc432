import { Inject, Injectable } from '@nestjs/common';
import { RpcFailure } from '@stemdeck/platform';
import type { StemRecord, UpdateStemBody } from '@stemdeck/proto';
import { SEPARATION_EVENTS, type SeparationEvents } from '../separation/separation.ports';
import { STEM_STORE, type StemStore } from './stem.ports';
import { toStem } from './stem.repository';

export interface UpdateStemCommand {
  ownerId: string;
  stemId: string;
  changes: UpdateStemBody;
  /** The live connection that made the change (it already shows it), or null. */
  origin: string | null;
}

/**
 * A mixer change to one stem (volume, mute, solo), wherever it came from (`PUT /api/stems/:id` or
 * `stem_update` on /ws): stored for the owner, then announced as `stem_updated` so every other open view
 * of the stem follows. The event goes out only after the write is acknowledged, so what a tab shows is
 * what a reload would load.
 */
@Injectable()
export class UpdateStemUseCase {
  constructor(
    @Inject(STEM_STORE) private readonly stems: Pick<StemStore, 'updateOwned'>,
    @Inject(SEPARATION_EVENTS) private readonly events: SeparationEvents,
  ) {}

  async execute({ ownerId, stemId, changes, origin }: UpdateStemCommand): Promise<StemRecord> {
    const stored = await this.stems.updateOwned(ownerId, stemId, changes);
    if (!stored) throw new RpcFailure(404, 'Stem not found');
    const stem = toStem(stored);
    this.events.publish({ type: 'stem_updated', ownerId, origin, stem, changes });
    return stem;
  }
}
