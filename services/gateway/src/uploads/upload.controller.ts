import { Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { currentUser, SignedInGuard } from '../auth/signed-in.guard';
import { MultipartUploadAdapter } from './multipart-upload.adapter';
import { OpenUploadRoomUseCase } from './open-upload-room.usecase';
import { ReceiveUploadUseCase } from './receive-upload.usecase';

@Controller('api')
@UseGuards(SignedInGuard)
export class UploadController {
  constructor(
    private readonly multipart: MultipartUploadAdapter,
    private readonly receiveUpload: ReceiveUploadUseCase,
    private readonly openUploadRoom: OpenUploadRoomUseCase,
  ) {}

  /**
   * multipart/form-data with the file in `audio` or `file` → {project, job} once the file is known to be a
   * song; its analysis (`project_analysed`) and stems follow over /ws. 413 (nothing stored) when the file does
   * not fit in what is left of the user's storage (with their other uploads in flight counted in).
   */
  @Post('upload')
  @HttpCode(201)
  async upload(@Req() req: Request) {
    const ownerId = currentUser(req).id;
    const room = await this.openUploadRoom.execute(ownerId, this.multipart.check(req));
    let stored;
    try {
      stored = await this.multipart.store(ownerId, req, room.usage);
    } finally {
      // The room is held while the file streams; once stored, the object itself counts in the usage.
      // Not waited for: a slow release must not hold up the answer (a lost one lapses by itself).
      void room.release();
    }
    return await this.receiveUpload.execute(ownerId, stored);
  }
}

