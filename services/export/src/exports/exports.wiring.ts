import type { ModelDefinition } from '@nestjs/mongoose';
import type { Provider, Type } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import { DatabaseSlotBoard, ObjectStorageAdapter } from '@stemdeck/platform';
import type { Connection } from 'mongoose';
import { EXPORT_CONFIG, type ExportConfig } from '../config';
import { PROJECT_DATA_WRITER } from '../project-data/project-data.port';
import { ProjectDataFileWriter } from '../project-data/project-data.writer';
import { AUDIO_RENDERER } from './audio/audio-renderer';
import { FfmpegAudioRenderer } from './audio/ffmpeg-audio-renderer';
import { CreateAudioExportUseCase } from './create-audio-export.usecase';
import { CreateProjectExportUseCase } from './create-project-export.usecase';
import { DeleteProjectExportsUseCase } from './delete-project-exports.usecase';
import { ExpiredExportsSweep } from './expired-exports.sweep';
import { ExportBuilder } from './export-builder';
import { ExportScratch } from './export-scratch';
import { EXPORT_SLOTS, ExportSlots } from './export-slots';
import { ExportQueries } from './export.queries';
import { ExportRepository } from './export.repository';
import { EXPORT_MODEL, ExportSchema } from './export.schema';
import { ExportsQueue } from './exports-queue';
import { ExportsController } from './exports.controller';
import { EXPORT_QUEUE, EXPORT_STORAGE, EXPORT_STORE, MASTERING_RESULTS, PROJECT_READS, SLOT_BOARD } from './exports.ports';
import { ExportsWorker } from './exports.worker';
import { MasteringResultsAdapter } from './peers/mastering-results.adapter';
import { MediaProjectsAdapter } from './peers/media-projects.adapter';
import { DeletedProjectExportsListener } from './project-deleted.listener';
import { PurgeExpiredExportsUseCase } from './purge-expired-exports.usecase';
import { RunExportUseCase } from './run-export.usecase';
import { StartExport } from './start-export';

/** Audio and project-data exports: their models, NATS handlers and providers (wired by ExportModule). */
export const EXPORTS_MODELS: ModelDefinition[] = [{ name: EXPORT_MODEL, schema: ExportSchema }];
export const EXPORTS_CONTROLLERS: Type[] = [ExportsController];
export const EXPORTS_PROVIDERS: Provider[] = [
  {
    provide: ExportsQueue,
    inject: [EXPORT_CONFIG],
    useFactory: async (config: ExportConfig) => {
      const queue = new ExportsQueue(config);
      await queue.connect();
      return queue;
    },
  },
  { provide: ExportScratch, inject: [EXPORT_CONFIG], useFactory: (config: ExportConfig) => new ExportScratch(config.EXPORT_WORK_DIR) },
  { provide: AUDIO_RENDERER, inject: [ObjectStorageAdapter], useFactory: (storage: ObjectStorageAdapter) => new FfmpegAudioRenderer(storage) },
  ProjectDataFileWriter,
  { provide: PROJECT_DATA_WRITER, useExisting: ProjectDataFileWriter },
  ExportRepository,
  MediaProjectsAdapter,
  MasteringResultsAdapter,
  { provide: EXPORT_STORE, useExisting: ExportRepository },
  { provide: PROJECT_READS, useExisting: MediaProjectsAdapter },
  { provide: MASTERING_RESULTS, useExisting: MasteringResultsAdapter },
  { provide: EXPORT_STORAGE, useExisting: ObjectStorageAdapter },
  { provide: EXPORT_QUEUE, useExisting: ExportsQueue },
  { provide: SLOT_BOARD, inject: [getConnectionToken()], useFactory: (connection: Connection) => new DatabaseSlotBoard(connection) },
  ExportSlots,
  { provide: EXPORT_SLOTS, useExisting: ExportSlots },
  StartExport,
  CreateAudioExportUseCase,
  CreateProjectExportUseCase,
  ExportQueries,
  ExportBuilder,
  RunExportUseCase,
  ExportsWorker,
  PurgeExpiredExportsUseCase,
  ExpiredExportsSweep,
  DeleteProjectExportsUseCase,
  DeletedProjectExportsListener,
];
