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

export const NO_ENHANCED_VERSION_YET = 'This stem has no enhanced version yet';

/**
 * A mixer change to one stem (volume, mute, solo, which version plays), wherever it came from
 * (`PUT /api/stems/:id` or `stem_update` on /ws): stored for the owner, then announced as `stem_updated` so
 * every other open view of the stem follows. The event goes out only after the write is acknowledged, so
 * what a tab shows is what a reload would load. Switching to the enhanced version needs one (409 before an
 * enhance job has made it); nothing ever removes an enhanced version, so the check holds for the write.
 */
@Injectable()
export class UpdateStemUseCase {
  constructor(
    @Inject(STEM_STORE) private readonly stems: Pick<StemStore, 'findOwned' | 'updateOwned'>,
    @Inject(SEPARATION_EVENTS) private readonly events: SeparationEvents,
  ) {}

  async execute({ ownerId, stemId, changes, origin }: UpdateStemCommand): Promise<StemRecord> {
    if (changes.version === 'enhanced') {
      const current = await this.stems.findOwned(ownerId, stemId);
      if (!current) throw new RpcFailure(404, 'Stem not found');
      if (!current.enhanced) throw new RpcFailure(409, NO_ENHANCED_VERSION_YET);
    }
    const stored = await this.stems.updateOwned(ownerId, stemId, changes);
    if (!stored) throw new RpcFailure(404, 'Stem not found');
    const stem = toStem(stored);
    this.events.publish({ type: 'stem_updated', ownerId, origin, stem, changes });
    return stem;
  }
}
