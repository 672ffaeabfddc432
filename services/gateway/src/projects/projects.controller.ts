import { Body, Controller, Delete, Get, Head, HttpCode, Param, Patch, Post, Put, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ObjectStorageAdapter } from '@stemdeck/platform';
import { CreateProjectBody, RenameProjectBody, RequestSeparationBody, StemAudioRequest, StemsQuery, UpdateStemBody } from '@stemdeck/proto';
import type { Request, Response } from 'express';
import { currentUser, SignedInGuard } from '../auth/signed-in.guard';
import { parseInput } from '../http-input';
import { MediaClient } from '../media/media.client';
import { serveObject } from '../storage/serve-object';

/** `?version=original|enhanced` on a stem's audio (the version it plays when absent); other parameters, such as the url's `job`, are ignored. */
const StemAudioQuery = StemAudioRequest.pick({ version: true });

/** Header naming the browser tab's /ws connection (its id from `welcome`). */
export const LIVE_CONNECTION_HEADER = 'x-stemdeck-live-connection';

/** Projects, stems, analysis and audio — owner-scoped in the media service (someone else's is 404). */
@Controller('api')
@UseGuards(SignedInGuard)
export class ProjectsController {
  constructor(
    private readonly media: MediaClient,
    private readonly storage: ObjectStorageAdapter,
  ) {}

  @Post('projects')
  createProject(@Req() req: Request, @Body() body: unknown) {
    return this.media.createProject(currentUser(req).id, parseInput(CreateProjectBody, body));
  }

  @Get('projects')
  listProjects(@Req() req: Request) {
    return this.media.listProjects(currentUser(req).id);
  }

  @Get('projects/:id')
  getProject(@Req() req: Request, @Param('id') id: string) {
    return this.media.getProject(currentUser(req).id, id);
  }

  /** Renames a project: the name is trimmed and must be 1–120 characters (400 says which rule failed). */
  @Patch('projects/:id')
  renameProject(@Req() req: Request, @Param('id') id: string, @Body() body: unknown) {
    return this.media.renameProject(currentUser(req).id, id, parseInput(RenameProjectBody, body));
  }

  /** Deletes a project with its stems, jobs and every stored object; 204 when done. */
  @Delete('projects/:id')
  @HttpCode(204)
  async deleteProject(@Req() req: Request, @Param('id') id: string): Promise<void> {
    await this.media.deleteProject(currentUser(req).id, id);
  }

  /** The active engine's stems; `?engine=` names another engine (a running job's first seconds, for instance). */
  @Get('projects/:id/stems')
  listStems(@Req() req: Request, @Param('id') id: string, @Query() query: unknown) {
    return this.media.listStems(currentUser(req).id, id, parseInput(StemsQuery, query).engine);
  }

  @Get('projects/:id/analysis')
  analysis(@Req() req: Request, @Param('id') id: string) {
    return this.media.projectAnalysis(currentUser(req).id, id);
  }

  /** Starts (or joins) separation with an engine; progress and stems arrive over /ws. 409 when the engine is not installed. */
  @Post('projects/:id/separate')
  @HttpCode(202)
  separate(@Req() req: Request, @Param('id') id: string, @Body() body: unknown) {
    return this.media.requestSeparation(currentUser(req).id, id, parseInput(RequestSeparationBody, body).engine);
  }

  @Get('projects/:id/audio')
  @Head('projects/:id/audio')
  async projectAudio(@Req() req: Request, @Res() res: Response, @Param('id') id: string) {
    await serveObject(req, res, this.storage, await this.media.projectAudio(currentUser(req).id, id));
  }

  /**
   * A mixer change (volume, mute, solo, or `version`: 409 while the stem has no enhanced version): stored,
   * then `stem_updated` goes to the owner's sockets. A browser names its own live connection in
   * `x-stemdeck-live-connection` so the change is not echoed back to the tab that made it.
   */
  @Put('stems/:id')
  updateStem(@Req() req: Request, @Param('id') id: string, @Body() body: unknown) {
    const origin = req.header(LIVE_CONNECTION_HEADER);
    return this.media.updateStem(currentUser(req).id, id, parseInput(UpdateStemBody, body), origin && origin.length <= 100 ? origin : null);
  }

  /** A stem's audio: `?version=` picks the original or the enhanced version (404 while it has none). */
  @Get('stems/:id/audio')
  @Head('stems/:id/audio')
  async stemAudio(@Req() req: Request, @Res() res: Response, @Param('id') id: string, @Query() query: unknown) {
    const { version } = parseInput(StemAudioQuery, query);
    await serveObject(req, res, this.storage, await this.media.stemAudio(currentUser(req).id, id, version));
  }

  /** Which separation engines this deployment has (the UI shows missing ones as unavailable). */
  @Get('engines')
  engines() {
    return this.media.listEngines();
  }
}
