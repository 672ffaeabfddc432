import { Inject, Injectable } from '@nestjs/common';
import type { AudioExportBody, ExportRecord, StemVersion } from '@stemdeck/proto';
import type { RenderStem } from './audio/audio-renderer';
import { planAudioExport, type PlannedRef, type SourceRef } from './export-plan';
import { ExportRefused } from './export-refused';
import type { PlannedAudioFile } from './export.schema';
import { MASTERING_RESULTS, PROJECT_READS, type MasteringResults, type ProjectReads } from './exports.ports';
import { safeSongName } from './file-names';
import { StartExport } from './start-export';

export const PROJECT_NOT_FOUND = 'Project not found';

/**
 * Asks for an audio export: the project must be the owner's (404), its stems ready (409), the listed stems
 * its own (400) and the asked-for result there (409 saying what to run first: planAudioExport). The files
 * are decided now, from the mixer's saved state and the results there are, with the objects they read; the
 * export is stored and queued (StartExport).
 */
@Injectable()
export class CreateAudioExportUseCase {
  constructor(
    @Inject(PROJECT_READS) private readonly projects: ProjectReads,
    @Inject(MASTERING_RESULTS) private readonly masters: MasteringResults,
    private readonly starter: StartExport,
  ) {}

  async execute(ownerId: string, body: AudioExportBody): Promise<ExportRecord> {
    const project = await this.projects.project(ownerId, body.projectId);
    if (!project) throw new ExportRefused(404, PROJECT_NOT_FOUND);
    const stems = await this.projects.stems(ownerId, body.projectId);
    // Only a mastered variant reads the jobs service.
    const masters = stems.length > 0 && (body.mastering === 'landr' || body.mastering === 'both') ? await this.masters.completedMasters(ownerId, body.projectId) : [];
    const plan = planAudioExport({ song: safeSongName(project.name), stems, masters }, body);
    const files = await Promise.all(plan.files.map((file) => this.resolve(ownerId, file)));
    return this.starter.start({
      ownerId,
      projectId: project.id,
      kind: 'audio',
      request: body,
      files,
      tags: { title: project.name, bpm: project.bpm, key: project.key },
      filename: plan.filename,
    });
  }

  /** A planned file with the object keys it reads. */
  private async resolve(ownerId: string, file: PlannedRef): Promise<PlannedAudioFile> {
    if (file.kind === 'convert') return { name: file.name, kind: 'convert', objectKey: await this.objectOf(ownerId, file.source) };
    const stems = await Promise.all(
      file.stems.map(async ({ stem, version }): Promise<RenderStem> => ({
        type: stem.type,
        objectKey: await this.stemObject(ownerId, stem.id, version),
        volume: stem.volume,
        muted: stem.muted,
        soloed: stem.soloed,
      })),
    );
    return { name: file.name, kind: 'mix', stems };
  }

  private objectOf(ownerId: string, source: SourceRef): Promise<string> {
    return source.kind === 'stem' ? this.stemObject(ownerId, source.stem.id, source.version) : this.masters.outputObject(ownerId, source.jobId, source.output);
  }

  private stemObject(ownerId: string, stemId: string, version?: StemVersion): Promise<string> {
    return this.projects.stemObject(ownerId, stemId, version);
  }
}
