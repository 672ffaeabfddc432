import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export type PlaybackStatus = 'stopped' | 'playing' | 'paused';

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

/** Playback state machine (seed 000 §4): stopped → playing ⇄ paused; stop returns to 0. */
export const transportSlice = createSlice({
  name: 'transport',
  initialState,
  reducers: {
    fileLoaded: (state, action: PayloadAction<CurrentFile | null>) => {
      state.file = action.payload;
      state.status = 'stopped';
      state.position = 0;
    },
    played: (state) => {
      if (state.file) state.status = 'playing';
    },
    paused: (state) => {
      if (state.status === 'playing') state.status = 'paused';
    },
    stopped: (state) => {
      state.status = 'stopped';
      state.position = 0;
    },
    positionChanged: (state, action: PayloadAction<number>) => {
      const duration = state.file?.duration ?? 0;
      state.position = Math.min(Math.max(0, action.payload), duration);
      if (state.status === 'playing' && duration > 0 && state.position >= duration) {
        state.status = 'stopped';
        state.position = 0;
      }
    },
  },
});

export const { fileLoaded, played, paused, stopped, positionChanged } = transportSlice.actions;
