import { MAX_UPLOAD_BYTES } from '@stemdeck/proto/vocabulary';
import { draggedKind, dropZoneState, pickUpload } from './pickUpload';
import { initialUploadState, uploadPercent, uploadReducer, type UploadAction, type UploadState } from './uploadMachine';

const song = { name: 'song.mp3', size: 4_000_000, type: 'audio/mpeg' };
const run = (actions: UploadAction[], from: UploadState = initialUploadState) => actions.reduce(uploadReducer, from);

describe('upload state machine', () => {
  it('goes selected → uploading (real bytes) → processing → idle on success', () => {
    let state = run([{ type: 'select', file: song }, { type: 'start' }]);
    expect(state).toEqual({ phase: 'uploading', file: song, loaded: 0, total: song.size });
    state = uploadReducer(state, { type: 'progress', loaded: 1_000_000, total: 4_000_000 });
    expect(uploadPercent(state)).toBe(25);
    state = uploadReducer(state, { type: 'sent' });
    expect(state.phase).toBe('processing');
    expect(uploadPercent(state)).toBe(100);
    expect(uploadReducer(state, { type: 'succeeded' })).toEqual(initialUploadState);
  });

  it('returns to idle on failure and ignores selection changes while busy', () => {
    const busy = run([{ type: 'select', file: song }, { type: 'start' }]);
    expect(uploadReducer(busy, { type: 'select', file: { ...song, name: 'other.wav' } })).toBe(busy);
    expect(uploadReducer(busy, { type: 'remove' })).toBe(busy);
    expect(uploadReducer(busy, { type: 'failed' })).toEqual(initialUploadState);
  });

  it('starts only from a selected file; remove clears the selection', () => {
    expect(run([{ type: 'start' }])).toEqual(initialUploadState);
    expect(run([{ type: 'select', file: song }, { type: 'remove' }])).toEqual(initialUploadState);
    expect(uploadPercent(initialUploadState)).toBe(0);
  });
});

describe('pickUpload', () => {
  it('takes the first audio or video file of a drop', () => {
    const picked = pickUpload([{ name: 'notes.txt', size: 10, type: 'text/plain' }, { name: 'clip.mp4', size: 10, type: 'video/mp4' }, song]);
    expect(picked).toEqual({ ok: true, file: { name: 'clip.mp4', size: 10, type: 'video/mp4' } });
  });

  it('names the file that is not audio or video', () => {
    expect(pickUpload([{ name: 'cover.png', size: 10, type: 'image/png' }])).toEqual({
      ok: false,
      title: 'Invalid file type',
      description: 'cover.png is not a valid audio or video file',
    });
  });

  it('refuses more than 500 MB by one byte', () => {
    expect(pickUpload([{ ...song, size: MAX_UPLOAD_BYTES }]).ok).toBe(true);
    expect(pickUpload([{ ...song, size: MAX_UPLOAD_BYTES + 1 }])).toEqual({ ok: false, title: 'File too large', description: 'File is larger than 524288000 bytes' });
  });
});

describe('dropZoneState', () => {
  it('distinguishes idle, dialog, drag accept and drag reject', () => {
    const flags = { isFileDialogActive: false, isDragActive: false, isDragReject: false };
    expect(dropZoneState(flags)).toBe('idle');
    expect(dropZoneState({ ...flags, isFileDialogActive: true })).toBe('dialog');
    expect(dropZoneState({ ...flags, isDragActive: true })).toBe('drag-accept');
    expect(dropZoneState({ ...flags, isDragActive: true, isDragReject: true })).toBe('drag-reject');
  });
});

describe('draggedKind', () => {
  const file = (type: string) => ({ kind: 'file', type });
  it('rejects a drag whose files are all known not to be audio or video', () => {
    expect(draggedKind([file('image/png')])).toBe('other');
    expect(draggedKind([file('image/png'), file('text/plain')])).toBe('other');
  });
  it('accepts a drag holding an audio or video file among others (the drop uses it)', () => {
    expect(draggedKind([file('image/png'), file('audio/mpeg')])).toBe('media');
    expect(draggedKind([file('video/mp4')])).toBe('media');
  });
  it('cannot tell when the browser hides the types', () => {
    expect(draggedKind([file('')])).toBe('unknown');
    expect(draggedKind([{ kind: 'string', type: 'text/plain' }])).toBe('unknown');
    expect(draggedKind(undefined)).toBe('unknown');
  });
});
