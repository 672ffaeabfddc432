import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { answer, parseOrFail, RpcFailure } from '@stemdeck/platform';
import { AudioExportRequest, EXPORT_SUBJECTS, ExportOptionsRequest, ExportRequest, ProjectExportRequest, RunningExportsRequest } from '@stemdeck/proto';
import type { ZodType } from 'zod';
import { CreateAudioExportUseCase } from './create-audio-export.usecase';
import { CreateProjectExportUseCase } from './create-project-export.usecase';
import { ExportQueries } from './export.queries';
import { ExportRefused } from './export-refused';

/** The requests as parsed (defaults applied): parseOrFail's schema type has equal input and output. */
const AUDIO_EXPORT_REQUEST = AudioExportRequest as unknown as ZodType<AudioExportRequest>;
const PROJECT_EXPORT_REQUEST = ProjectExportRequest as unknown as ZodType<ProjectExportRequest>;

/** Runs a handler and wraps its reply; a refusal keeps its status and words (400, 404, 409, 410). */
const reply = <T>(run: () => Promise<T>) =>
  answer(async () => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof ExportRefused) throw new RpcFailure(error.status, error.message);
      throw error;
    }
  });

/** The export service's NATS edge for exports: validate with the proto schema, call one use-case, wrap the reply. */
@Controller()
export class ExportsController {
  constructor(
    private readonly createAudio: CreateAudioExportUseCase,
    private readonly createProject: CreateProjectExportUseCase,
    private readonly queries: ExportQueries,
  ) {}

  @MessagePattern(EXPORT_SUBJECTS.createAudioExport)
  createAudioExport(@Payload() payload: unknown) {
    return reply(() => {
      const { ownerId, body } = parseOrFail(AUDIO_EXPORT_REQUEST, payload);
      return this.createAudio.execute(ownerId, body);
    });
  }

  @MessagePattern(EXPORT_SUBJECTS.createProjectExport)
  createProjectExport(@Payload() payload: unknown) {
    return reply(() => {
      const { ownerId, body } = parseOrFail(PROJECT_EXPORT_REQUEST, payload);
      return this.createProject.execute(ownerId, body);
    });
  }

  @MessagePattern(EXPORT_SUBJECTS.getExport)
  getExport(@Payload() payload: unknown) {
    return reply(() => {
      const { ownerId, exportId } = parseOrFail(ExportRequest, payload);
      return this.queries.get(ownerId, exportId);
    });
  }

  @MessagePattern(EXPORT_SUBJECTS.runningExports)
  runningExports(@Payload() payload: unknown) {
    return reply(() => {
      const { ownerId, projectId } = parseOrFail(RunningExportsRequest, payload);
      return this.queries.running(ownerId, projectId);
    });
  }

  @MessagePattern(EXPORT_SUBJECTS.exportDownload)
  exportDownload(@Payload() payload: unknown) {
    return reply(() => {
      const { ownerId, exportId } = parseOrFail(ExportRequest, payload);
      return this.queries.download(ownerId, exportId);
    });
  }

  @MessagePattern(EXPORT_SUBJECTS.exportOptions)
  exportOptions(@Payload() payload: unknown) {
    return reply(() => {
      const { ownerId, projectId } = parseOrFail(ExportOptionsRequest, payload);
      return this.queries.options(ownerId, projectId);
    });
  }
}
