import { jobButton, jobToast, JOB_WORDS, NO_PROJECT, NO_STEMS, projectBlocker, providerLine, STEMS_NOT_READY, waitingWords } from './jobState';

const processing = (progress: number) => ({ status: 'processing' as const, progress });

describe.each([
  ['mastering', 'Start Mastering'],
  ['enhance', 'Start Enhancement'],
] as const)('the %s Start button', (type, idleLabel) => {
  const button = (starting: boolean, job: Parameters<typeof jobButton>[0]['job'], blocked: string | null = null) => jobButton({ idleLabel: JOB_WORDS[type].start, starting, job, blocked });

  it(`goes ${idleLabel} → Starting... → Processing... with the job progress → ${idleLabel}`, () => {
    const idle = button(false, null);
    expect(idle).toEqual({ label: idleLabel, disabled: false, progress: null, blocked: null });
    expect(button(true, null)).toEqual({ label: 'Starting...', disabled: true, progress: null, blocked: null });
    expect(button(false, processing(0))).toEqual({ label: 'Processing...', disabled: true, progress: 0, blocked: null });
    expect(button(false, processing(42.5)).progress).toBe(42.5);
    // Accepted behind the user's other jobs: Waiting..., its place in line instead of a bar, still cancellable.
    expect(button(false, { ...processing(0), queuePosition: 3 })).toEqual({ label: 'Waiting...', disabled: true, progress: 0, queuePosition: 3, blocked: null });
    expect(button(false, { status: 'completed', progress: 100 })).toEqual(idle);
    expect(button(false, { status: 'failed', progress: 30 })).toEqual(idle);
  });

  it('is disabled while idle and blocked, saying why; a running job outranks the reason', () => {
    expect(button(false, null, NO_PROJECT)).toEqual({ label: idleLabel, disabled: true, progress: null, blocked: NO_PROJECT });
    expect(button(false, { status: 'completed', progress: 100 }, STEMS_NOT_READY).blocked).toBe(STEMS_NOT_READY);
    expect(button(false, processing(10), STEMS_NOT_READY)).toEqual({ label: 'Processing...', disabled: true, progress: 10, blocked: null });
  });

  it('says Starting... while the request is pending even when an older job is shown', () => {
    expect(button(true, { status: 'completed', progress: 100 }).label).toBe('Starting...');
  });
});

describe('why a job cannot start on the open project', () => {
  const ready = { hasProject: true, stemCount: 4, partialSeconds: null, separating: false };

  it('needs a project', () => {
    expect(projectBlocker({ ...ready, hasProject: false, stemCount: 0 })).toBe('No project selected');
  });

  it('waits for whole stems: none yet while separating, or only the first seconds', () => {
    expect(projectBlocker({ ...ready, stemCount: 0, separating: true })).toBe(STEMS_NOT_READY);
    expect(projectBlocker({ ...ready, partialSeconds: 12, separating: true })).toBe(STEMS_NOT_READY);
    expect(STEMS_NOT_READY).toMatch(/still being separated/);
  });

  it('says so when a project has no stems and nothing is separating (a failed separation)', () => {
    expect(projectBlocker({ ...ready, stemCount: 0 })).toBe(NO_STEMS);
  });

  it('lets whole stems be mastered while another engine reprocesses them', () => {
    expect(projectBlocker(ready)).toBeNull();
    expect(projectBlocker({ ...ready, separating: true })).toBeNull();
  });
});

describe('the job toasts', () => {
  it('has the exact mastering texts', () => {
    const words = JOB_WORDS.mastering;
    expect(words.started).toEqual({ title: 'Mastering started', type: 'success' });
    expect(words.startFailed).toEqual({ title: 'Mastering failed', description: 'Failed to start LANDR mastering', type: 'error' });
    expect(jobToast(words, 'processing', { status: 'completed' })).toEqual({ title: 'Mastering complete!', type: 'success' });
    expect(jobToast(words, 'processing', { status: 'failed' })).toEqual({ title: 'Mastering failed', description: 'Please try again with different settings.', type: 'error' });
  });

  it('has the exact enhancement texts', () => {
    const words = JOB_WORDS.enhance;
    expect(words.started).toEqual({ title: 'Enhancement started', type: 'success' });
    expect(words.startFailed).toEqual({ title: 'Enhancement failed', description: 'Failed to start Dolby enhancement', type: 'error' });
    expect(jobToast(words, 'processing', { status: 'completed' })).toEqual({ title: 'Enhancement complete!', type: 'success' });
    expect(jobToast(words, 'processing', { status: 'failed' })).toEqual({ title: 'Enhancement failed', description: 'Please try again with different settings.', type: 'error' });
  });

  it('announces a job cancelled here as cancelled, not as a failure', () => {
    expect(jobToast(JOB_WORDS.enhance, 'processing', { status: 'failed' }, true)).toEqual({ title: 'Enhancement cancelled', type: 'info' });
    expect(jobToast(JOB_WORDS.mastering, 'processing', { status: 'failed' }, true)).toEqual({ title: 'Mastering cancelled', type: 'info' });
  });

  it('stays quiet for progress, for a job first seen finished, and for the same news twice', () => {
    const words = JOB_WORDS.enhance;
    expect(jobToast(words, 'processing', { status: 'processing' })).toBeNull();
    expect(jobToast(words, null, { status: 'processing' })).toBeNull();
    // Opening the panel on an earlier job is no news.
    expect(jobToast(words, null, { status: 'completed' })).toBeNull();
    expect(jobToast(words, null, { status: 'failed' })).toBeNull();
    // The poll and the live event both report the completion: one toast.
    expect(jobToast(words, 'completed', { status: 'completed' })).toBeNull();
    expect(jobToast(words, 'failed', { status: 'failed' })).toBeNull();
  });
});

describe('who did the work', () => {
  it('says locally for the local engine and names a cloud provider otherwise', () => {
    expect(providerLine('enhance', 'local')).toBe('Enhanced locally');
    expect(providerLine('mastering', 'local')).toBe('Mastered locally');
    expect(providerLine('enhance', 'dolby')).toBe('Enhanced by Dolby.io');
    expect(providerLine('mastering', 'landr')).toBe('Mastered by LANDR');
  });
});

describe('a waiting job in words', () => {
  it("says its place in the user's line, for jobs and for exports", () => {
    expect(waitingWords(1)).toBe('Waiting for your other jobs to finish: 1st in line');
    expect(waitingWords(2)).toBe('Waiting for your other jobs to finish: 2nd in line');
    expect(waitingWords(13, 'exports')).toBe('Waiting for your other exports to finish: 13th in line');
  });
});
