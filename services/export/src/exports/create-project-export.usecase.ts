import { Inject, Injectable } from '@nestjs/common';
import type { ExportRecord, ProjectExportBody } from '@stemdeck/proto';
import { PROJECT_DATA_WRITER, type ProjectDataWriter } from '../project-data/project-data.port';
import { PROJECT_NOT_FOUND } from './create-audio-export.usecase';
import { ExportRefused } from './export-refused';
import { PROJECT_READS, type ProjectReads } from './exports.ports';
import { safeSongName } from './file-names';
import { StartExport } from './start-export';

/**
 * Asks for a project-data export: the project must be the owner's (404); the ProjectDataWriter refuses what
 * it cannot write yet (e.g. no analysis: 409); the export is stored and queued. Several files are downloaded
 * as `<song> - project data.zip` (one file as itself, named when it is written).
 */
@Injectable()
export class CreateProjectExportUseCase {
  constructor(
    @Inject(PROJECT_READS) private readonly projects: Pick<ProjectReads, 'project'>,
    @Inject(PROJECT_DATA_WRITER) private readonly projectData: Pick<ProjectDataWriter, 'check'>,
    private readonly starter: StartExport,
  ) {}

  async execute(ownerId: string, body: ProjectExportBody): Promise<ExportRecord> {
    const project = await this.projects.project(ownerId, body.projectId);
    if (!project) throw new ExportRefused(404, PROJECT_NOT_FOUND);
    await this.projectData.check(ownerId, project.id, body.formats);
    return this.starter.start({
      ownerId,
      projectId: project.id,
      kind: 'project',
      request: body,
      files: [],
      tags: { title: project.name, bpm: project.bpm, key: project.key },
      filename: `${safeSongName(project.name)} - project data.zip`,
    });
  }
}
