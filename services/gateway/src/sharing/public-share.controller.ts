import { Controller, Get, Head, Param, Req, Res, UseInterceptors } from '@nestjs/common';
import { ObjectStorageAdapter } from '@stemdeck/platform';
import type { SharedProject } from '@stemdeck/proto';
import type { Request, Response } from 'express';
import { ExportClient } from '../export/export.client';
import { MediaClient } from '../media/media.client';
import { serveObject } from '../storage/serve-object';
import { PublicShareHeaders } from './public-share-headers.interceptor';
import { SharedProjectReader } from './shared-project.reader';

/**
 * What a share link opens, signed out: the shared project's read-only view and its stems' audio. No sign-in
 * guard — holding the token is the permission; only GET and HEAD exist here, which the CSRF check lets pass.
 * Unknown token → 404, revoked or expired → 410, both "This link is no longer available".
 */
@Controller('api/share')
@UseInterceptors(PublicShareHeaders)
export class PublicShareController {
  private readonly reader: SharedProjectReader;

  constructor(
    links: ExportClient,
    media: MediaClient,
    private readonly storage: ObjectStorageAdapter,
  ) {
    this.reader = new SharedProjectReader(links, media);
  }

  @Get(':token')
  view(@Param('token') token: string): Promise<SharedProject> {
    return this.reader.view(token);
  }

  /** The stem's audio with Range support (the player seeks); only a stem of the shared project. */
  @Get(':token/stems/:stemId/audio')
  @Head(':token/stems/:stemId/audio')
  async stemAudio(@Req() req: Request, @Res() res: Response, @Param('token') token: string, @Param('stemId') stemId: string): Promise<void> {
    await serveObject(req, res, this.storage, await this.reader.stemAudio(token, stemId), { cacheControl: 'no-store' });
  }
}
