import { Inject, Injectable } from '@nestjs/common';
import { exportsPrefix } from '@stemdeck/proto';
import { EXPORT_STORAGE, EXPORT_STORE, type ExportStorage, type ExportStore } from './exports.ports';

/**
 * A deleted project's exports go with it: their documents and their files. An export still being built
 * finds its document gone at its next progress store or at completion, and removes what it wrote.
 */
@Injectable()
export class DeleteProjectExportsUseCase {
  constructor(
    @Inject(EXPORT_STORE) private readonly exports: Pick<ExportStore, 'deleteForProject'>,
    @Inject(EXPORT_STORAGE) private readonly storage: Pick<ExportStorage, 'removePrefix'>,
  ) {}

  async execute(ownerId: string, projectId: string): Promise<void> {
    await this.exports.deleteForProject(ownerId, projectId);
    await this.storage.removePrefix(exportsPrefix(ownerId, projectId));
  }
}
