import { Controller, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { currentUser, SignedInGuard } from '../auth/signed-in.guard';
import { errorBody } from '../errors/error-body';
import { MultipartUploadAdapter, UploadTooLargeError } from './multipart-upload.adapter';
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
  async upload(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const ownerId = currentUser(req).id;
    try {
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
    } catch (error) {
      if (error instanceof UploadTooLargeError) stopReading(req, res, error);
      throw error;
    }
  }
}

/**
 * Answers 413 and closes the connection instead of draining the rest of an oversized body. The socket is
 * destroyed shortly after the answer is flushed, giving the client a moment to read it.
 */
function stopReading(req: Request, res: Response, error: UploadTooLargeError): void {
  if (res.headersSent) return;
  res.setHeader('Connection', 'close');
  res.status(413).json(errorBody(413, error.message));
  res.on('finish', () => setTimeout(() => req.socket.destroy(), 500).unref());
}
