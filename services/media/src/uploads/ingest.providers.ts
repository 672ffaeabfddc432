import type { Provider } from '@nestjs/common';
import { ObjectStorageAdapter } from '@stemdeck/platform';
import { DeleteProjectUseCase } from '../projects/delete-project.usecase';
import { RequestSeparationUseCase } from '../separation/request-separation.usecase';
import { INGEST_STEPS } from '../separation/separation.ports';
import { FIRST_JOB, PROJECT_REMOVAL, UPLOAD_STORAGE } from './ingest.ports';
import { IngestJobSteps } from './ingest-steps';
import { IngestUploadUseCase } from './ingest-upload.usecase';

/** The upload's content check and its first job's ingest steps, with their tokens bound to the real adapters and use-cases. */
export const INGEST_PROVIDERS: Provider[] = [
  IngestUploadUseCase,
  IngestJobSteps,
  { provide: INGEST_STEPS, useExisting: IngestJobSteps },
  { provide: UPLOAD_STORAGE, useExisting: ObjectStorageAdapter },
  { provide: FIRST_JOB, useExisting: RequestSeparationUseCase },
  { provide: PROJECT_REMOVAL, useExisting: DeleteProjectUseCase },
];
