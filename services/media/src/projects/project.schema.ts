import { Schema } from 'mongoose';
import type { MediaProbe } from '@stemdeck/audio';
import type { EngineName, ProjectSource, SpotifyFeatures } from '@stemdeck/proto';

export const PROJECT_MODEL = 'Project';

export interface ProjectDocument {
  _id: string;
  ownerId: string;
  name: string;
  originalFile: string;
  duration: number;
  bpm: number | null;
  key: string | null;
  source: ProjectSource;
  /** The uploaded file as received (kept for later features, e.g. video). */
  originalKey: string | null;
  /** Audio the engines and the player read: the original for audio uploads, the extracted track for video. */
  audioKey: string | null;
  audioContentType: string | null;
  /** What ffprobe found in the audio object (the upload's check stored it), so its jobs need not probe it again. */
  audioProbe?: MediaProbe | null;
  analysis: { loudnessLufs: number; spotifyFeatures: SpotifyFeatures } | null;
  activeEngine: EngineName | null;
  createdAt: Date;
}

export const ProjectSchema = new Schema<ProjectDocument>(
  {
    _id: { type: String, required: true },
    ownerId: { type: String, required: true, index: true },
    name: { type: String, required: true },
    originalFile: { type: String, required: true },
    duration: { type: Number, required: true },
    bpm: { type: Number, default: null },
    key: { type: String, default: null },
    source: { type: String, required: true },
    originalKey: { type: String, default: null },
    audioKey: { type: String, default: null },
    audioContentType: { type: String, default: null },
    audioProbe: { type: Schema.Types.Mixed, default: null },
    analysis: { type: Schema.Types.Mixed, default: null },
    activeEngine: { type: String, default: null },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false, collection: 'projects' },
);
