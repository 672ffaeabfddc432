import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { LiveStatus } from './liveConnection';

export const liveSlice = createSlice({
  name: 'live',
  initialState: { status: 'disconnected' as LiveStatus },
  reducers: {
    liveStatusChanged: (state, action: PayloadAction<LiveStatus>) => {
      state.status = action.payload;
    },
  },
});

export const { liveStatusChanged } = liveSlice.actions;
