import { Schema } from 'mongoose';
import type { AudioExportBody, ExportStatus, ProjectExportBody } from '@stemdeck/proto';
import type { AudioTags, RenderStem } from './audio/audio-renderer';

export const EXPORT_MODEL = 'Export';
export type ExportKind = 'audio' | 'project';

/**
 * One file of an audio export, decided when it was asked for: its name inside the download and how it is
 * made — one stored object converted, or the stems mixed as the mixer then stood (dB volumes, mute, solo).
 */
export type PlannedAudioFile = { name: string; kind: 'convert'; objectKey: string } | { name: string; kind: 'mix'; stems: RenderStem[] };

export interface ExportDocument {
  _id: string;
  ownerId: string;
  projectId: string;
  kind: ExportKind;
  /** The body it was asked with (validated). */
  request: AudioExportBody | ProjectExportBody;
  /** Audio: the files to render (empty for project data). */
  files: PlannedAudioFile[];
  /** The project's title, tempo and key when it was asked for (written as tags where the format has them). */
  tags: AudioTags;
  status: ExportStatus;
  /** 0–100. */
  progress: number;
  /** The name the download is saved as. */
  filename: string;
  /** Where the finished file is (null until completed). */
  objectKey: string | null;
  contentType: string | null;
  /** Words for users when it failed. */
  error: string | null;
  /** The HTTP status those words go with when it was refused while being built (null: a failure, 500). */
  errorStatus?: number | null;
  /** Deliveries that started working on it. */
  attempts: number;
  /**
   * Stored, but waiting for one of its owner's export slots (each user has EXPORTS_PER_USER built at once, the
   * rest wait oldest first): not on the work queue yet. False once handed to it (ExportSlots).
   */
  waiting?: boolean;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
  /** After this the download is gone (until completion: the time it would expire if it completed at once). */
  expiresAt: Date;
  /** When the expiry sweep removed its objects (null while they are stored). */
  purgedAt: Date | null;
}

const RenderStemSchema = new Schema<RenderStem>(
  { type: { type: String, required: true }, objectKey: { type: String, required: true }, volume: Number, muted: Boolean, soloed: Boolean },
  { _id: false },
);

const PlannedFileSchema = new Schema(
  { name: { type: String, required: true }, kind: { type: String, required: true }, objectKey: String, stems: { type: [RenderStemSchema], default: undefined } },
  { _id: false },
);

export const ExportSchema = new Schema<ExportDocument>(
  {
    _id: { type: String, required: true },
    ownerId: { type: String, required: true },
    projectId: { type: String, required: true },
    kind: { type: String, required: true },
    request: { type: Schema.Types.Mixed, required: true },
    files: { type: [PlannedFileSchema], default: [] },
    tags: { type: new Schema({ title: String, bpm: { type: Number, default: null }, key: { type: String, default: null } }, { _id: false }), required: true },
    status: { type: String, required: true },
    progress: { type: Number, required: true },
    filename: { type: String, required: true },
    objectKey: { type: String, default: null },
    contentType: { type: String, default: null },
    error: { type: String, default: null },
    errorStatus: { type: Number, default: null },
    attempts: { type: Number, required: true },
    waiting: { type: Boolean, default: false },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    completedAt: { type: Date, default: null },
    expiresAt: { type: Date, required: true },
    purgedAt: { type: Date, default: null },
  },
  { versionKey: false, collection: 'exports' },
);
ExportSchema.index({ ownerId: 1, projectId: 1 });
ExportSchema.index({ status: 1, expiresAt: 1 });
ExportSchema.index({ waiting: 1, ownerId: 1, createdAt: 1 });
