import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { EngineName, Project } from '../../api/mediaTypes';
import type { MixerStem } from './stems';

export interface EngineJob {
  status: 'running' | 'failed';
  progress: number;
  message?: string;
  /** Waiting for one of the user's separation slots: its place in their line (1 = next). */
  queuePosition?: number;
}

export interface ProjectState {
  project: Project | null;
  /** The mixer's stems (the project's active engine, or the first seconds of the one separating). */
  stems: MixerStem[];
  /** Seconds of audio the loaded stems hold while they are progressive; null once they are whole. */
  partialSeconds: number | null;
  /** Separations in flight or failed, per engine (progress 0–1 from the server over /ws). */
  jobs: Partial<Record<EngineName, EngineJob>>;
  /** Bumped each time the player has decoded a set of stems (the waveform redraws from them). */
  decodedVersion: number;
}

const initialState: ProjectState = { project: null, stems: [], partialSeconds: null, jobs: {}, decodedVersion: 0 };

export type StemChanges = Partial<Pick<MixerStem, 'volume' | 'muted' | 'soloed'>>;

export const projectSlice = createSlice({
  name: 'project',
  initialState,
  reducers: {
    projectOpened: (state, action: PayloadAction<Project>) => {
      state.project = action.payload;
      state.stems = [];
      state.partialSeconds = null;
      state.jobs = {};
      state.decodedVersion = 0;
    },
    /** The open project was deleted (here or in another tab): the studio goes back to empty. */
    projectClosed: () => initialState,
    projectRenamed: (state, action: PayloadAction<{ id: string; name: string }>) => {
      if (state.project?.id === action.payload.id) state.project.name = action.payload.name;
    },
    /** The upload's job has analysed the recording: tempo, key and its decoded length. */
    projectAnalysed: (state, action: PayloadAction<{ id: string; bpm: number; key: string; duration: number }>) => {
      const { id, ...analysis } = action.payload;
      if (state.project?.id === id) Object.assign(state.project, analysis);
    },
    stemsLoaded: (state, action: PayloadAction<{ stems: MixerStem[]; partialSeconds: number | null }>) => {
      // The same stems loaded again (first seconds → whole, or the server's copy after a missed event) keep
      // the mix set here: the user's latest changes may not be saved yet.
      const previous = new Map(state.stems.map((stem) => [stem.id, stem]));
      state.stems = action.payload.stems.map((stem) => {
        const earlier = previous.get(stem.id);
        return earlier ? { ...stem, volume: earlier.volume, muted: earlier.muted, soloed: earlier.soloed } : stem;
      });
      state.partialSeconds = action.payload.partialSeconds;
      if (!action.payload.stems.length) state.decodedVersion = 0;
      if (state.project && action.payload.partialSeconds === null && action.payload.stems[0]?.engine) {
        state.project.activeEngine = action.payload.stems[0].engine;
      }
    },
    stemsDecoded: (state) => {
      state.decodedVersion++;
    },
    stemChanged: (state, action: PayloadAction<{ id: string; changes: StemChanges }>) => {
      const stem = state.stems.find((s) => s.id === action.payload.id);
      if (stem) Object.assign(stem, action.payload.changes);
    },
    /** A stem plays another of its versions (switched here or elsewhere, or by a finished enhancement): that version's url. */
    stemVersionChanged: (state, action: PayloadAction<Pick<MixerStem, 'id' | 'version' | 'url' | 'enhanced'>>) => {
      const stem = state.stems.find((s) => s.id === action.payload.id);
      if (stem) Object.assign(stem, action.payload);
    },
    jobProgressed: (state, action: PayloadAction<{ engine: EngineName; progress: number; queuePosition?: number }>) => {
      const { engine, progress, queuePosition } = action.payload;
      state.jobs[engine] = queuePosition ? { status: 'running', progress, queuePosition } : { status: 'running', progress };
    },
    jobFinished: (state, action: PayloadAction<{ engine: EngineName }>) => {
      delete state.jobs[action.payload.engine];
    },
    jobFailed: (state, action: PayloadAction<{ engine: EngineName; message: string }>) => {
      state.jobs[action.payload.engine] = { status: 'failed', progress: 0, message: action.payload.message };
    },
  },
});

export const { projectOpened, projectClosed, projectRenamed, projectAnalysed, stemsLoaded, stemsDecoded, stemChanged, stemVersionChanged, jobProgressed, jobFinished, jobFailed } = projectSlice.actions;

/** The mixer's Reset: 0 dB, unmuted, unsoloed. */
export const RESET_MIX: Required<StemChanges> = { volume: 0, muted: false, soloed: false };
