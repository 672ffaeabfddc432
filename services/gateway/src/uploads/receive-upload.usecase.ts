import { Inject, Injectable, Logger } from '@nestjs/common';
import { ObjectStorageAdapter } from '@stemdeck/platform';
import { DomainError } from '../errors/domain-error';
import { MediaClient } from '../media/media.client';
import type { StoredUpload } from './multipart-upload.adapter';

/**
 * Hands a stored upload to the media service, which checks its content and answers with the new project
 * (or 415/422 and its reason). From the hand-over on, the upload's objects are media's: it removes them when
 * it refuses the file. Only when media never answered (unreachable, or slower than it allows itself) does
 * the gateway discard the object it wrote, so a failed upload leaves nothing behind either way.
 */
@Injectable()
export class ReceiveUploadUseCase {
  private readonly logger = new Logger(ReceiveUploadUseCase.name);

  constructor(
    @Inject(MediaClient) private readonly media: Pick<MediaClient, 'ingestUpload'>,
    @Inject(ObjectStorageAdapter) private readonly storage: Pick<ObjectStorageAdapter, 'discard'>,
  ) {}

  async execute(ownerId: string, upload: StoredUpload) {
    try {
      return await this.media.ingestUpload({ ownerId, ...upload });
    } catch (error) {
      if (!(error instanceof DomainError)) {
        this.logger.error(`media did not answer for upload ${upload.projectId}: ${(error as Error).message}; discarding it`);
        await this.storage.discard(upload.objectKey);
      }
      throw error;
    }
  }
}
