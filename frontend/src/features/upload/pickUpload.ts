import { MAX_UPLOAD_BYTES } from '@stemdeck/proto/vocabulary';

export type PickResult<F> = { ok: true; file: F } | { ok: false; title: string; description: string };

const isMedia = (file: { type: string }) => file.type.startsWith('audio/') || file.type.startsWith('video/');

/**
 * Chooses what to upload from a drop or the file dialog: the first audio or video file; none → "Invalid
 * file type" naming the (first) file; over 500 MB → "File is larger than N bytes". Nothing is sent on an error.
 */
export function pickUpload<F extends { name: string; type: string; size: number }>(files: readonly F[]): PickResult<F> {
  if (files.length === 0) return { ok: false, title: 'Invalid file type', description: 'Please upload an audio or video file' };
  const file = files.find(isMedia);
  if (!file) return { ok: false, title: 'Invalid file type', description: `${files[0]!.name} is not a valid audio or video file` };
  if (file.size > MAX_UPLOAD_BYTES) return { ok: false, title: 'File too large', description: `File is larger than ${MAX_UPLOAD_BYTES} bytes` };
  return { ok: true, file };
}

/** What a drag carries, as far as the browser tells while dragging (item types; names come only on drop). */
export type DraggedKind = 'media' | 'other' | 'unknown';

/**
 * 'media' when a dragged file is audio or video (a drop would use it, whatever else comes along), 'other'
 * when every dragged file's type is known and none is, 'unknown' when the browser hides the types.
 */
export function draggedKind(items: ArrayLike<{ kind: string; type: string }> | null | undefined): DraggedKind {
  const files = Array.from(items ?? []).filter((item) => item.kind === 'file');
  if (files.some(isMedia)) return 'media';
  return files.length > 0 && files.every((item) => item.type !== '') ? 'other' : 'unknown';
}

export type DropZoneState = 'idle' | 'dialog' | 'drag-accept' | 'drag-reject';

/** Drop zone states: idle, file dialog open, drag active (accepting or rejecting what is dragged). */
export function dropZoneState(flags: { isFileDialogActive: boolean; isDragActive: boolean; isDragReject: boolean }): DropZoneState {
  if (flags.isDragActive) return flags.isDragReject ? 'drag-reject' : 'drag-accept';
  return flags.isFileDialogActive ? 'dialog' : 'idle';
}
