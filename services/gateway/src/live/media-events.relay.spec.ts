import { LiveServerMessage, type MediaEvent, mediaEventSubject, type StemRecord } from '@stemdeck/proto';
import { toLiveMessage } from './media-events.relay';

const record: StemRecord = {
  id: 'p1-fast-vocals',
  projectId: 'p1',
  type: 'vocals',
  engine: 'fast',
  volume: -2,
  muted: true,
  soloed: false,
  quality: 'fast',
  version: 'original',
  enhanced: null,
};
const withUrl = { ...record, url: '/api/stems/p1-fast-vocals/audio' };
const enhanced: StemRecord = { ...record, version: 'enhanced', enhanced: { jobId: 'job-7', createdAt: '2026-11-23T16:00:00.000Z' } };

describe('toLiveMessage', () => {
  it.each<[string, MediaEvent, unknown]>([
    ['stems_ready', { type: 'stems_ready', ownerId: 'u1', projectId: 'p1', engine: 'fast', stems: [record] }, { type: 'stems_ready', projectId: 'p1', engine: 'fast', stems: [withUrl] }],
    [
      'stems_partial',
      { type: 'stems_partial', ownerId: 'u1', projectId: 'p1', engine: 'fast', seconds: 5, stems: [record] },
      { type: 'stems_partial', projectId: 'p1', engine: 'fast', seconds: 5, stems: [withUrl] },
    ],
    [
      'stem_updated',
      { type: 'stem_updated', ownerId: 'u1', origin: 'c1', stem: record, changes: { muted: true } },
      { type: 'stem_updated', stem: withUrl, changes: { muted: true } },
    ],
    [
      'stem_updated (switched to the enhanced version)',
      { type: 'stem_updated', ownerId: 'u1', origin: null, stem: enhanced, changes: { version: 'enhanced' } },
      { type: 'stem_updated', stem: { ...enhanced, url: '/api/stems/p1-fast-vocals/audio?version=enhanced&job=job-7' }, changes: { version: 'enhanced' } },
    ],
    ['project_deleted', { type: 'project_deleted', ownerId: 'u1', projectId: 'p1' }, { type: 'project_deleted', projectId: 'p1' }],
    [
      'project_analysed',
      { type: 'project_analysed', ownerId: 'u1', projectId: 'p1', bpm: 128, key: 'A minor', duration: 29.98 },
      { type: 'project_analysed', projectId: 'p1', bpm: 128, key: 'A minor', duration: 29.98 },
    ],
  ])('turns %s into the live message: no owner or origin, stems with the gateway\'s urls', (_type, event, expected) => {
    const message = toLiveMessage(event);
    expect(message).toEqual(expected);
    expect(LiveServerMessage.safeParse(message).success).toBe(true);
  });
});
