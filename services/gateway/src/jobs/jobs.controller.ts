import { Body, Controller, Delete, Get, Head, HttpCode, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ObjectStorageAdapter } from '@stemdeck/platform';
import { CreateEnhanceJobBody, CreateMasteringJobBody, CreateVideoJobBody } from '@stemdeck/proto';
import type { Request, Response } from 'express';
import { currentUser, SignedInGuard } from '../auth/signed-in.guard';
import { parseInput } from '../http-input';
import { serveObject } from '../storage/serve-object';
import { JobsClient } from './jobs.client';

/** AI Mastering, enhancement and music-video jobs — owner-scoped in the jobs service (someone else's job or project is 404). */
@Controller('api')
@UseGuards(SignedInGuard)
export class JobsController {
  constructor(
    private readonly jobs: JobsClient,
    private readonly storage: ObjectStorageAdapter,
  ) {}

  /** Starts mastering a project's mix; progress arrives over /ws (job_progress) and at GET /api/jobs/:id. */
  @Post('jobs/landr-master')
  @HttpCode(202)
  createMastering(@Req() req: Request, @Body() body: unknown) {
    return this.jobs.createMastering(currentUser(req).id, parseInput(CreateMasteringJobBody, body));
  }

  /**
   * Starts enhancing the chosen stems of a project (at least one enhancement, at least one stem); when it
   * completes, each becomes its stem's enhanced version in the mixer.
   */
  @Post('jobs/dolby-enhance')
  @HttpCode(202)
  createEnhance(@Req() req: Request, @Body() body: unknown) {
    return this.jobs.createEnhance(currentUser(req).id, parseInput(CreateEnhanceJobBody, body));
  }

  /**
   * Starts a music video of a project's song (prompt, duration full|chorus|custom, resolution); the configured
   * provider renders it (the local renderer unless Runway is configured) and the job names which.
   */
  @Post('jobs/runway-video')
  @HttpCode(202)
  createVideo(@Req() req: Request, @Body() body: unknown) {
    return this.jobs.createVideo(currentUser(req).id, parseInput(CreateVideoJobBody, body));
  }

  @Get('jobs/:id')
  getJob(@Req() req: Request, @Param('id') id: string) {
    return this.jobs.getJob(currentUser(req).id, id);
  }

  /** Cancels a running job: it stops and leaves no objects. */
  @Delete('jobs/:id')
  cancelJob(@Req() req: Request, @Param('id') id: string) {
    return this.jobs.cancelJob(currentUser(req).id, id);
  }

  /** An output, played in the page (with Range for seeking), or saved under its download name with `?download=1`. */
  @Get('jobs/:id/outputs/:name')
  @Head('jobs/:id/outputs/:name')
  async output(@Req() req: Request, @Res() res: Response, @Param('id') id: string, @Param('name') name: string, @Query('download') download?: string) {
    const location = await this.jobs.jobOutput(currentUser(req).id, id, name);
    await serveObject(req, res, this.storage, location, { disposition: download === '1' ? 'attachment' : 'inline' });
  }

  /** The project's jobs, newest first. */
  @Get('projects/:id/jobs')
  listProjectJobs(@Req() req: Request, @Param('id') id: string) {
    return this.jobs.listProjectJobs(currentUser(req).id, id);
  }
}
