import { configureStore } from '@reduxjs/toolkit';
import { api } from '../api/api';
import { liveSlice } from '../features/live/liveSlice';
import { projectSlice } from '../features/project/projectSlice';
import { transportSlice } from '../features/transport/transportSlice';

export function createStore() {
  return configureStore({
    reducer: {
      [api.reducerPath]: api.reducer,
      live: liveSlice.reducer,
      project: projectSlice.reducer,
      transport: transportSlice.reducer,
    },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
}

export type AppStore = ReturnType<typeof createStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];
