import type { Job } from '../../mastering/jobsApi';
import { clock, customSpan, durationLabels, lookLine, parseClock, secondsRemaining, spanLine, videoOutput } from './videoPanelState';

describe('video panel state', () => {
  it('labels the durations with the song\'s real length', () => {
    expect(durationLabels(263)).toEqual({ full: 'Full Track (4:23)', chorus: 'Chorus Loop (0:30)', custom: 'Custom Range' });
    expect(durationLabels(24.4)).toMatchObject({ full: 'Full Track (0:24)', chorus: 'Chorus Loop (0:24)' });
    expect(durationLabels(null)).toMatchObject({ full: 'Full Track', chorus: 'Chorus Loop (0:30)' });
    expect(clock(59.6)).toBe('1:00');
  });

  it('reads a custom range as m:ss or seconds, refusing one outside the song or backwards', () => {
    expect(parseClock('1:05')).toBe(65);
    expect(parseClock('65.5')).toBe(65.5);
    expect(parseClock('1:75')).toBeNull();
    expect(customSpan({ start: '0:30', end: '1:00' }, 200)).toEqual({ startSeconds: 30, endSeconds: 60 });
    expect(customSpan({ start: '1:00', end: '0:30' }, 200)).toBe('The end must come after the start.');
    expect(customSpan({ start: '0', end: '3:30' }, 200)).toBe('The end must be within the song (3:20).');
    expect(customSpan({ start: 'a', end: '3' }, 200)).toBe('Enter the start and end as m:ss.');
  });

  it('measures the time left from the progress rate, not a fixed formula', () => {
    expect(secondsRemaining([])).toBeNull();
    expect(secondsRemaining([{ at: 0, progress: 0 }, { at: 1000, progress: 0 }])).toBeNull();
    // 10 % in 2 s: 5 % a second, 80 % left → 16 s.
    expect(secondsRemaining([{ at: 0, progress: 10 }, { at: 1000, progress: 15 }, { at: 2000, progress: 20 }])).toBe(16);
    // A render twice as fast says half the time.
    expect(secondsRemaining([{ at: 0, progress: 10 }, { at: 1000, progress: 20 }])).toBe(8);
    // Readings older than 20 s are left out: the rate is the recent one (2 % a second → 40 s for the last 80 %).
    expect(secondsRemaining([{ at: 0, progress: 0 }, { at: 30_000, progress: 18 }, { at: 31_000, progress: 20 }])).toBe(40);
  });

  it('describes a finished video: its span and size, and the look or the looped clip', () => {
    const facts = { resolution: '1080p' as const, width: 1920, height: 1080, fps: 30, startSeconds: 42, endSeconds: 72, look: { palette: 'neon', mode: 'bars', motion: 'pulse' } };
    const job = { id: 'v1', projectId: 'p1', type: 'video', provider: 'local', status: 'completed', progress: 100, createdAt: '', result: { outputs: [{ name: 'video.mp4', url: '/api/jobs/v1/outputs/video.mp4', video: facts }] } } as Job;
    expect(videoOutput(job)).toEqual({ url: '/api/jobs/v1/outputs/video.mp4', facts });
    expect(videoOutput({ ...job, status: 'processing' })).toBeNull();
    expect(spanLine(facts)).toBe('0:42–1:12 of the song · 1080p (1920×1080) · 30 fps');
    expect(lookLine(facts)).toBe('Look: neon colours, bars, pulse motion');
    expect(lookLine({ ...facts, look: undefined, clipSeconds: 10 })).toBe('A 10-second generated clip, looped to the music');
  });
});
