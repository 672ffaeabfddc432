import { Body, Controller, Get, Head, HttpCode, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ObjectStorageAdapter } from '@stemdeck/platform';
import { AudioExportBody, ProjectExportBody } from '@stemdeck/proto';
import type { Request, Response } from 'express';
import { currentUser, SignedInGuard } from '../auth/signed-in.guard';
import { parseInput } from '../http-input';
import { serveObject } from '../storage/serve-object';
import { ExportClient } from './export.client';
import { ExportAndWaitUseCase } from './export-and-wait.usecase';

/** Aborts when the client goes away before the answer is sent. */
function clientGone(res: Response): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort(new Error('the client went away'));
  });
  return controller.signal;
}

/** Audio and project-data exports and their owner-only downloads (someone else's export or project is 404). */
@Controller('api')
@UseGuards(SignedInGuard)
export class ExportController {
  constructor(
    private readonly exports: ExportClient,
    private readonly exportAndWait: ExportAndWaitUseCase,
    private readonly storage: ObjectStorageAdapter,
  ) {}

  /** Exports stems or the mix and answers once the file is stored: `{id, filename, downloadUrl, expiresAt}`. */
  @Post('export/audio')
  @HttpCode(200)
  exportAudio(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Body() body: unknown) {
    return this.exportAndWait.audio(currentUser(req).id, parseInput(AudioExportBody, body), clientGone(res));
  }

  /** Exports the project's data for other tools and answers once the file is stored. */
  @Post('export/project')
  @HttpCode(200)
  exportProject(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Body() body: unknown) {
    return this.exportAndWait.project(currentUser(req).id, parseInput(ProjectExportBody, body), clientGone(res));
  }

  @Get('exports/:id')
  getExport(@Req() req: Request, @Param('id') id: string) {
    return this.exports.getExport(currentUser(req).id, id);
  }

  /**
   * The project's exports still being built or waiting for the user's others to finish (each waiting one with
   * its `queuePosition`), oldest first: what an export panel shows while its request waits for the file.
   */
  @Get('projects/:id/exports')
  runningExports(@Req() req: Request, @Param('id') id: string) {
    return this.exports.runningExports(currentUser(req).id, id);
  }

  /** The finished file, saved under its name, with Range; 410 once expired. */
  @Get('exports/:id/download')
  @Head('exports/:id/download')
  async download(@Req() req: Request, @Res() res: Response, @Param('id') id: string) {
    await serveObject(req, res, this.storage, await this.exports.exportDownload(currentUser(req).id, id), { disposition: 'attachment' });
  }

  /** Which variants (raw, mastered, enhanced, both) the project can be exported in now, and why not the others. */
  @Get('projects/:id/export-options')
  exportOptions(@Req() req: Request, @Param('id') id: string) {
    return this.exports.exportOptions(currentUser(req).id, id);
  }
}
