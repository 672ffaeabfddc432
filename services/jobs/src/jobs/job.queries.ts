import { Inject, Injectable } from '@nestjs/common';
import { RpcFailure } from '@stemdeck/platform';
import type { JobRecord, ObjectLocation } from '@stemdeck/proto';
import { JOB_NOT_FOUND } from './cancel-job.usecase';
import { PROJECT_NOT_FOUND } from './create-job.usecase';
import { toJobRecord } from './job-record';
import type { JobDocument } from './job.schema';
import { JOB_STORE, MEDIA_PROJECTS, type JobStore, type MediaProjects } from './jobs.ports';

/** Reads of the owner's jobs (another user's job or project is absent: 404); a waiting one carries its place in the owner's line. */
@Injectable()
export class JobQueries {
  constructor(
    @Inject(JOB_STORE) private readonly jobs: Pick<JobStore, 'findOwned' | 'listForProject' | 'waitingIds'>,
    @Inject(MEDIA_PROJECTS) private readonly media: Pick<MediaProjects, 'exists' | 'project'>,
  ) {}

  async get(ownerId: string, jobId: string): Promise<JobRecord> {
    const job = await this.jobs.findOwned(ownerId, jobId);
    if (!job) throw new RpcFailure(404, JOB_NOT_FOUND);
    return (await this.withPlaces(ownerId, [job]))[0]!;
  }

  /** Newest first. */
  async listForProject(ownerId: string, projectId: string): Promise<JobRecord[]> {
    if (!(await this.media.exists(ownerId, projectId))) throw new RpcFailure(404, PROJECT_NOT_FOUND);
    return this.withPlaces(ownerId, await this.jobs.listForProject(ownerId, projectId));
  }

  /** The jobs as clients see them, a waiting one with its place in the owner's line (1 = next). */
  private async withPlaces(ownerId: string, jobs: JobDocument[]): Promise<JobRecord[]> {
    const line = jobs.some((job) => job.waiting && job.status === 'processing') ? await this.jobs.waitingIds(ownerId) : [];
    return jobs.map((job) => toJobRecord(job, line.indexOf(job._id) + 1 || undefined));
  }

  /** Where a completed job's output is, for the gateway to stream; a video is saved under the song's name. */
  async output(ownerId: string, jobId: string, name: string): Promise<ObjectLocation> {
    const job = await this.jobs.findOwned(ownerId, jobId);
    const output = job?.status === 'completed' ? job.outputs.find((candidate) => candidate.name === name) : undefined;
    if (!output) throw new RpcFailure(404, 'Output not found');
    const song = job!.type === 'video' ? (await this.media.project(ownerId, job!.projectId))?.name : undefined;
    return { objectKey: output.objectKey, contentType: output.contentType, fileName: song ? videoFileName(song) : output.name };
  }
}

/** Bytes a download's name may take (file systems allow 255; room is left for a browser's " (1)"). */
const NAME_MAX_BYTES = 150;

/** "<song> - video.mp4": the song's name without control or format characters (bidi overrides…) or path separators, cut at a whole character. */
export function videoFileName(song: string): string {
  const clean = song.replace(/[\p{Cc}\p{Cf}\/\\]/gu, ' ').replace(/\s+/g, ' ').trim() || 'Song';
  let name = '';
  for (const char of clean) {
    if (Buffer.byteLength(name + char) > NAME_MAX_BYTES) break;
    name += char;
  }
  return `${name.trim()} - video.mp4`;
}
