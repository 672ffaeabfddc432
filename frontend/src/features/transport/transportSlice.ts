import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { PlaybackStatus } from '../../audio/stemPlayer';

export type { PlaybackStatus };

export interface CurrentFile {
  name: string;
  /** Seconds. */
  duration: number;
}

export interface TransportState {
  file: CurrentFile | null;
  status: PlaybackStatus;
  /** Seconds. */
  position: number;
}

const initialState: TransportState = { file: null, status: 'stopped', position: 0 };

/**
 * What the top bar and timeline show of playback. The stem player is the source of truth
 * (stopped → playing ⇄ paused, stop returns to 0, it stops by itself at the end); it reports here.
 */
export const transportSlice = createSlice({
  name: 'transport',
  initialState,
  reducers: {
    fileLoaded: (state, action: PayloadAction<CurrentFile | null>) => {
      state.file = action.payload;
      state.status = 'stopped';
      state.position = 0;
    },
    playerSynced: (state, action: PayloadAction<{ position: number; status: PlaybackStatus }>) => {
      const duration = state.file?.duration ?? 0;
      state.status = action.payload.status;
      state.position = Math.min(Math.max(0, action.payload.position), duration);
    },
  },
});

export const { fileLoaded, playerSynced } = transportSlice.actions;
