import { Injectable } from '@nestjs/common';
import { NatsRpcClient, ObjectStorageAdapter } from '@stemdeck/platform';
import { ProjectDataExporter } from './project-data.exporter';
import { MediaProjectReader } from './project-media';
import { FfmpegStemAudio } from './stem-audio';

/**
 * The ProjectDataWriter the export service runs: project-data exports read from the media service over
 * NATS and from object storage through ffmpeg. Bind it to PROJECT_DATA_WRITER.
 */
@Injectable()
export class ProjectDataFileWriter extends ProjectDataExporter {
  constructor(rpc: NatsRpcClient, storage: ObjectStorageAdapter) {
    super(new MediaProjectReader(rpc), new FfmpegStemAudio(storage));
  }
}
