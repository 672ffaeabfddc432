/**
 * The upload panel's state machine: no file → selected → uploading (bytes sent)
 * → processing (the server probes, decodes and analyses) → back to idle on success or failure. Pure, so
 * it runs under useReducer and in tests alike.
 */
export interface SelectedFile {
  name: string;
  size: number;
  type: string;
}

export type UploadState =
  | { phase: 'idle' }
  | { phase: 'selected'; file: SelectedFile }
  | { phase: 'uploading'; file: SelectedFile; loaded: number; total: number }
  | { phase: 'processing'; file: SelectedFile };

export type UploadAction =
  | { type: 'select'; file: SelectedFile }
  | { type: 'remove' }
  | { type: 'start' }
  | { type: 'progress'; loaded: number; total: number }
  | { type: 'sent' }
  | { type: 'succeeded' }
  | { type: 'failed' };

export const initialUploadState: UploadState = { phase: 'idle' };

export function uploadReducer(state: UploadState, action: UploadAction): UploadState {
  const busy = state.phase === 'uploading' || state.phase === 'processing';
  switch (action.type) {
    case 'select':
      return busy ? state : { phase: 'selected', file: action.file };
    case 'remove':
      return busy ? state : initialUploadState;
    case 'start':
      return state.phase === 'selected' ? { phase: 'uploading', file: state.file, loaded: 0, total: state.file.size } : state;
    case 'progress':
      return state.phase === 'uploading' ? { ...state, loaded: action.loaded, total: action.total } : state;
    case 'sent':
      return state.phase === 'uploading' ? { phase: 'processing', file: state.file } : state;
    case 'succeeded':
    case 'failed':
      return busy ? initialUploadState : state;
  }
}

export const isBusy = (state: UploadState): boolean => state.phase === 'uploading' || state.phase === 'processing';

/** 0–100: bytes sent while uploading, full once the server has the file. */
export function uploadPercent(state: UploadState): number {
  if (state.phase === 'processing') return 100;
  if (state.phase !== 'uploading' || state.total <= 0) return 0;
  return Math.min(100, Math.round((state.loaded / state.total) * 100));
}

export const sizeInMb = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
