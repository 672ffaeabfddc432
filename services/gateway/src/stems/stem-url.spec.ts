import type { StemRecord } from '@stemdeck/proto';
import { withStemUrl } from './stem-url';

const stem: StemRecord = {
  id: 'p1-fast-vocals',
  projectId: 'p1',
  type: 'vocals',
  engine: 'fast',
  volume: 0,
  muted: false,
  soloed: false,
  quality: 'fast',
  version: 'original',
  enhanced: null,
};
const enhanced = (jobId: string) => ({ jobId, createdAt: '2026-11-23T16:00:00.000Z' });

describe('withStemUrl', () => {
  it('serves the original at the plain url, also when an enhanced version exists but is not played', () => {
    expect(withStemUrl(stem).url).toBe('/api/stems/p1-fast-vocals/audio');
    expect(withStemUrl({ ...stem, enhanced: enhanced('job-1') }).url).toBe('/api/stems/p1-fast-vocals/audio');
  });

  it('names the version and the job in the enhanced url, so each job has its own url and none is the original one', () => {
    const first = withStemUrl({ ...stem, version: 'enhanced', enhanced: enhanced('job-1') }).url;
    const second = withStemUrl({ ...stem, version: 'enhanced', enhanced: enhanced('job 2') }).url;
    expect(first).toBe('/api/stems/p1-fast-vocals/audio?version=enhanced&job=job-1');
    expect(second).toBe('/api/stems/p1-fast-vocals/audio?version=enhanced&job=job%202');
  });
});
