import type { Job, LoudnessFigures } from './jobsApi';

/** What the Start button says and whether it can be pressed. */
export interface MasteringButton {
  label: 'Start Mastering' | 'Starting...' | 'Processing...';
  disabled: boolean;
  /** The job's real progress (0–100) while it runs, else null (no bar). */
  progress: number | null;
}

/**
 * The button's state machine: idle → Starting... (the request is on its way) → Processing... (the job runs,
 * with its progress) → idle again once it has completed or failed. No open project: disabled.
 */
export function masteringButton({ hasProject, starting, job }: { hasProject: boolean; starting: boolean; job: Pick<Job, 'status' | 'progress'> | null }): MasteringButton {
  if (starting) return { label: 'Starting...', disabled: true, progress: null };
  if (job?.status === 'processing') return { label: 'Processing...', disabled: true, progress: job.progress };
  return { label: 'Start Mastering', disabled: !hasProject, progress: null };
}

export interface ToastChoice {
  title: string;
  description?: string;
  type: 'success' | 'error';
}

export const START_OK_TOAST: ToastChoice = { title: 'Mastering started', type: 'success' };
export const START_FAILED_TOAST: ToastChoice = { title: 'Mastering failed', description: 'Failed to start LANDR mastering', type: 'error' };

/**
 * The toast for a job's change of status, seen from the status shown before (null: not seen yet): only a
 * job that was seen processing and has now finished or failed gets one, once (polling and live events both
 * report the same change).
 */
export function jobToast(previous: Job['status'] | null, next: Pick<Job, 'status'>): ToastChoice | null {
  if (previous !== 'processing' || next.status === 'processing') return null;
  if (next.status === 'completed') return { title: 'Mastering complete!', type: 'success' };
  return { title: 'Mastering failed', description: 'Please try again with different settings.', type: 'error' };
}

/**
 * Gains for a fair A/B: the louder of original and master is turned down by the measured difference of
 * their integrated loudness, so louder does not sound better. Without matching both play as they are.
 */
export function loudnessMatchGains(before: Pick<LoudnessFigures, 'integratedLufs'>, after: Pick<LoudnessFigures, 'integratedLufs'>, match: boolean): { original: number; master: number } {
  const difference = after.integratedLufs - before.integratedLufs;
  if (!match || !Number.isFinite(difference)) return { original: 1, master: 1 };
  return difference > 0 ? { original: 1, master: 10 ** (-difference / 20) } : { original: 10 ** (difference / 20), master: 1 };
}
