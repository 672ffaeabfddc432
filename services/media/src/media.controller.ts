import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { answer, parseOrFail } from '@stemdeck/platform';
import {
  AttachEnhancedStemsRequest,
  CreateProjectRequest,
  IngestUploadRequest,
  ListStemsRequest,
  ListProjectsRequest,
  MEDIA_SUBJECTS,
  ProjectRequest,
  RenameProjectRequest,
  RequestSeparationRequest,
  StemAudioRequest,
  UpdateStemRequest,
} from '@stemdeck/proto';
import { CreateProjectUseCase } from './projects/create-project.usecase';
import { DeleteProjectUseCase } from './projects/delete-project.usecase';
import { ProjectQueries } from './projects/project.queries';
import { RenameProjectUseCase } from './projects/rename-project.usecase';
import { EngineRegistry } from './separation/engine-registry';
import { RequestSeparationUseCase } from './separation/request-separation.usecase';
import { AttachEnhancedStemsUseCase } from './stems/attach-enhanced-stems.usecase';
import { StemQueries } from './stems/stem.queries';
import { UpdateStemUseCase } from './stems/update-stem.usecase';
import { IngestUploadUseCase } from './uploads/ingest-upload.usecase';

/** The media service's NATS edge: validate with the proto schema, call one use-case, wrap the reply. */
@Controller()
export class MediaController {
  constructor(
    private readonly ingestUpload: IngestUploadUseCase,
    private readonly createProject: CreateProjectUseCase,
    private readonly projectQueries: ProjectQueries,
    private readonly renameProject: RenameProjectUseCase,
    private readonly stemQueries: StemQueries,
    private readonly requestSeparation: RequestSeparationUseCase,
    private readonly engines: EngineRegistry,
    private readonly deleteProject: DeleteProjectUseCase,
    private readonly updateStemUseCase: UpdateStemUseCase,
    private readonly attachEnhanced: AttachEnhancedStemsUseCase,
  ) {}

  @MessagePattern(MEDIA_SUBJECTS.ingestUpload)
  ingest(@Payload() payload: unknown) {
    return answer(() => this.ingestUpload.execute(parseOrFail(IngestUploadRequest, payload)));
  }

  @MessagePattern(MEDIA_SUBJECTS.createProject)
  create(@Payload() payload: unknown) {
    return answer(() => {
      const { ownerId, ...body } = parseOrFail(CreateProjectRequest, payload);
      return this.createProject.execute(ownerId, body);
    });
  }

  @MessagePattern(MEDIA_SUBJECTS.listProjects)
  list(@Payload() payload: unknown) {
    return answer(() => this.projectQueries.list(parseOrFail(ListProjectsRequest, payload).ownerId));
  }

  @MessagePattern(MEDIA_SUBJECTS.getProject)
  get(@Payload() payload: unknown) {
    return this.forProject(payload, (ownerId, projectId) => this.projectQueries.get(ownerId, projectId));
  }

  @MessagePattern(MEDIA_SUBJECTS.renameProject)
  rename(@Payload() payload: unknown) {
    return answer(() => {
      return this.renameProject.execute(parseOrFail(RenameProjectRequest, payload));
    });
  }

  @MessagePattern(MEDIA_SUBJECTS.deleteProject)
  delete(@Payload() payload: unknown) {
    return this.forProject(payload, (ownerId, projectId) => this.deleteProject.execute(ownerId, projectId));
  }

  @MessagePattern(MEDIA_SUBJECTS.projectAudio)
  audio(@Payload() payload: unknown) {
    return this.forProject(payload, (ownerId, projectId) => this.projectQueries.audioOf(ownerId, projectId));
  }

  @MessagePattern(MEDIA_SUBJECTS.projectAnalysis)
  analysis(@Payload() payload: unknown) {
    return this.forProject(payload, (ownerId, projectId) => this.projectQueries.analysisOf(ownerId, projectId));
  }

  @MessagePattern(MEDIA_SUBJECTS.listStems)
  stems(@Payload() payload: unknown) {
    return answer(() => {
      const { ownerId, projectId, engine } = parseOrFail(ListStemsRequest, payload);
      return this.stemQueries.ofProject(ownerId, projectId, engine);
    });
  }

  @MessagePattern(MEDIA_SUBJECTS.updateStem)
  updateStem(@Payload() payload: unknown) {
    return answer(() => {
      const { origin, ...change } = parseOrFail(UpdateStemRequest, payload);
      return this.updateStemUseCase.execute({ ...change, origin: origin ?? null });
    });
  }

  @MessagePattern(MEDIA_SUBJECTS.stemAudio)
  stemAudio(@Payload() payload: unknown) {
    return answer(() => {
      const { ownerId, stemId, version } = parseOrFail(StemAudioRequest, payload);
      return this.stemQueries.audioOf(ownerId, stemId, version);
    });
  }

  @MessagePattern(MEDIA_SUBJECTS.attachEnhancedStems)
  attachEnhancedStems(@Payload() payload: unknown) {
    return answer(() => this.attachEnhanced.execute(parseOrFail(AttachEnhancedStemsRequest, payload)));
  }

  @MessagePattern(MEDIA_SUBJECTS.requestSeparation)
  separate(@Payload() payload: unknown) {
    return answer(() => this.requestSeparation.execute(parseOrFail(RequestSeparationRequest, payload)));
  }

  @MessagePattern(MEDIA_SUBJECTS.listEngines)
  listEngines() {
    return answer(() => this.engines.list());
  }

  private forProject<T>(payload: unknown, run: (ownerId: string, projectId: string) => Promise<T>) {
    return answer(() => {
      const { ownerId, projectId } = parseOrFail(ProjectRequest, payload);
      return run(ownerId, projectId);
    });
  }
}
