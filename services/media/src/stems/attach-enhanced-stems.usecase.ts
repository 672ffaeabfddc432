import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock, RpcFailure } from '@stemdeck/platform';
import type { AttachEnhancedStemsRequest, StemRecord } from '@stemdeck/proto';
import { enhanceJobPrefix } from '@stemdeck/proto';
import { PROJECT_STORE, type ProjectStore } from '../projects/project.ports';
import { PROJECT_NOT_FOUND } from '../projects/project.repository';
import { SEPARATION_EVENTS, type SeparationEvents } from '../separation/separation.ports';
import { STEM_STORE, type StemStore } from './stem.ports';
import { toStem } from './stem.repository';

export const STEM_NOT_FOUND = 'Stem not found';

/**
 * An enhance job's outputs become its stems' enhanced versions (the jobs service calls this once they are
 * stored): each stem points at its new object and the mixer switches to it. The original object is never
 * touched, so the mixer can switch back. A newer job replaces an older job's pointer; the older job's
 * objects stay the jobs service's to keep or remove.
 *
 * Every stem must be the owner's and of the named project, and every object must lie in that job's folder
 * (so no stem can be pointed at someone else's file); otherwise nothing changes. Each change is announced
 * as `stem_updated` once stored, the event a mixer change makes, so open mixers switch too.
 */
@Injectable()
export class AttachEnhancedStemsUseCase {
  constructor(
    @Inject(PROJECT_STORE) private readonly projects: Pick<ProjectStore, 'findOwned'>,
    @Inject(STEM_STORE) private readonly stems: Pick<StemStore, 'findOwned' | 'setEnhanced'>,
    @Inject(SEPARATION_EVENTS) private readonly events: SeparationEvents,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ ownerId, projectId, jobId, stems }: AttachEnhancedStemsRequest): Promise<StemRecord[]> {
    if (!(await this.projects.findOwned(ownerId, projectId))) throw new RpcFailure(404, PROJECT_NOT_FOUND);
    const folder = enhanceJobPrefix(ownerId, projectId, jobId);
    if (stems.some(({ objectKey }) => !objectKey.startsWith(folder) || objectKey.length === folder.length)) {
      throw new RpcFailure(400, `stems.objectKey: must be a file in the job's folder ${folder}`);
    }
    if (new Set(stems.map(({ stemId }) => stemId)).size !== stems.length) throw new RpcFailure(400, 'stems.stemId: each stem can be named once');
    const found = await Promise.all(stems.map(({ stemId }) => this.stems.findOwned(ownerId, stemId)));
    if (found.some((stem) => !stem || stem.projectId !== projectId)) throw new RpcFailure(404, STEM_NOT_FOUND);

    const createdAt = new Date(this.clock.now());
    const attached: StemRecord[] = [];
    for (const { stemId, objectKey } of stems) {
      const stored = await this.stems.setEnhanced(ownerId, projectId, stemId, { jobId, objectKey, createdAt });
      // Gone since the check: the project is being deleted, and its stems with it.
      if (!stored) throw new RpcFailure(404, STEM_NOT_FOUND);
      const stem = toStem(stored);
      this.events.publish({ type: 'stem_updated', ownerId, origin: null, stem, changes: { version: 'enhanced' } });
      attached.push(stem);
    }
    return attached;
  }
}
