import { jobToast, loudnessMatchGains, masteringButton, START_FAILED_TOAST, START_OK_TOAST } from './masteringState';

const processing = (progress: number) => ({ status: 'processing' as const, progress });

describe('the Start Mastering button', () => {
  it('goes Start Mastering → Starting... → Processing... with the job progress → Start Mastering', () => {
    const idle = masteringButton({ hasProject: true, starting: false, job: null });
    expect(idle).toEqual({ label: 'Start Mastering', disabled: false, progress: null });
    expect(masteringButton({ hasProject: true, starting: true, job: null })).toEqual({ label: 'Starting...', disabled: true, progress: null });
    expect(masteringButton({ hasProject: true, starting: false, job: processing(0) })).toEqual({ label: 'Processing...', disabled: true, progress: 0 });
    expect(masteringButton({ hasProject: true, starting: false, job: processing(42.5) }).progress).toBe(42.5);
    expect(masteringButton({ hasProject: true, starting: false, job: { status: 'completed', progress: 100 } })).toEqual(idle);
    expect(masteringButton({ hasProject: true, starting: false, job: { status: 'failed', progress: 30 } })).toEqual(idle);
  });

  it('is disabled without an open project', () => {
    expect(masteringButton({ hasProject: false, starting: false, job: null })).toEqual({ label: 'Start Mastering', disabled: true, progress: null });
  });

  it('says Starting... while the request is pending even when an older job is shown', () => {
    expect(masteringButton({ hasProject: true, starting: true, job: { status: 'completed', progress: 100 } }).label).toBe('Starting...');
  });
});

describe('the mastering toasts', () => {
  it('has the exact start texts', () => {
    expect(START_OK_TOAST).toEqual({ title: 'Mastering started', type: 'success' });
    expect(START_FAILED_TOAST).toEqual({ title: 'Mastering failed', description: 'Failed to start LANDR mastering', type: 'error' });
  });

  it('announces a job seen processing that completes or fails', () => {
    expect(jobToast('processing', { status: 'completed' })).toEqual({ title: 'Mastering complete!', type: 'success' });
    expect(jobToast('processing', { status: 'failed' })).toEqual({
      title: 'Mastering failed',
      description: 'Please try again with different settings.',
      type: 'error',
    });
  });

  it('stays quiet for progress, for a job first seen finished, and for the same news twice', () => {
    expect(jobToast('processing', { status: 'processing' })).toBeNull();
    expect(jobToast(null, { status: 'processing' })).toBeNull();
    // Opening the panel on an earlier master is no news.
    expect(jobToast(null, { status: 'completed' })).toBeNull();
    expect(jobToast(null, { status: 'failed' })).toBeNull();
    // The poll and the live event both report the completion: one toast.
    expect(jobToast('completed', { status: 'completed' })).toBeNull();
    expect(jobToast('failed', { status: 'failed' })).toBeNull();
  });
});

describe('loudness matching', () => {
  it('turns a louder master down by the measured difference', () => {
    const gains = loudnessMatchGains({ integratedLufs: -20 }, { integratedLufs: -14 }, true);
    expect(gains.original).toBe(1);
    expect(20 * Math.log10(gains.master)).toBeCloseTo(-6, 10);
  });

  it('turns a louder original down when the master is quieter', () => {
    const gains = loudnessMatchGains({ integratedLufs: -9 }, { integratedLufs: -12 }, true);
    expect(gains.master).toBe(1);
    expect(20 * Math.log10(gains.original)).toBeCloseTo(-3, 10);
  });

  it('plays both as they are when matching is off or a figure is missing', () => {
    expect(loudnessMatchGains({ integratedLufs: -20 }, { integratedLufs: -14 }, false)).toEqual({ original: 1, master: 1 });
    expect(loudnessMatchGains({ integratedLufs: -Infinity }, { integratedLufs: -14 }, true)).toEqual({ original: 1, master: 1 });
  });
});
