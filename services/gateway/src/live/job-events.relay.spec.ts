import { LiveServerMessage, type JobEvent, type JobRecord } from '@stemdeck/proto';
import { toLiveJobMessage } from './job-events.relay';

const running: JobRecord = { id: 'j 1', projectId: 'p1', type: 'mastering', provider: 'local', status: 'processing', progress: 42, createdAt: '2026-01-02T00:00:00.000Z' };
const figures = { integratedLufs: -14, lra: 4, truePeakDbtp: -1.2 };

describe('toLiveJobMessage', () => {
  it('drops the owner and keeps the job as it is while it runs', () => {
    const message = toLiveJobMessage({ type: 'job_progress', ownerId: 'u1', job: running });
    expect(message).toEqual({ type: 'job_progress', job: running });
    expect(LiveServerMessage.safeParse(message).success).toBe(true);
  });

  it('gives a completed job\'s outputs the gateway\'s urls', () => {
    const event: JobEvent = {
      type: 'job_completed',
      ownerId: 'u1',
      job: { ...running, status: 'completed', progress: 100, result: { outputs: [{ name: 'master.flac' }], before: figures, after: figures } },
    };
    const message = toLiveJobMessage(event);
    expect(message).toMatchObject({ type: 'job_completed', job: { result: { outputs: [{ name: 'master.flac', url: '/api/jobs/j%201/outputs/master.flac' }] } } });
    expect(LiveServerMessage.safeParse(message).success).toBe(true);
  });
});
