import type { JobType } from '@stemdeck/proto/vocabulary';
import { ordinal } from '../project/library';
import type { Job } from './jobsApi';

/**
 * What both AI Mastering panels (mastering and enhancement) share: the Start button's state machine, why it
 * cannot be pressed, and the toasts a job's life brings. Plain functions, no React.
 */

export interface ToastChoice {
  title: string;
  description?: string;
  type: 'success' | 'error' | 'info';
}

/** The words a kind of job uses: its Start label and its toasts (exact texts users and tests rely on). */
export interface JobWords {
  start: string;
  started: ToastChoice;
  startFailed: ToastChoice;
  completed: ToastChoice;
  failed: ToastChoice;
  cancelled: ToastChoice;
}

const TRY_AGAIN = 'Please try again with different settings.';

export const JOB_WORDS: Record<JobType, JobWords> = {
  mastering: {
    start: 'Start Mastering',
    started: { title: 'Mastering started', type: 'success' },
    startFailed: { title: 'Mastering failed', description: 'Failed to start LANDR mastering', type: 'error' },
    completed: { title: 'Mastering complete!', type: 'success' },
    failed: { title: 'Mastering failed', description: TRY_AGAIN, type: 'error' },
    cancelled: { title: 'Mastering cancelled', type: 'info' },
  },
  enhance: {
    start: 'Start Enhancement',
    started: { title: 'Enhancement started', type: 'success' },
    startFailed: { title: 'Enhancement failed', description: 'Failed to start Dolby enhancement', type: 'error' },
    completed: { title: 'Enhancement complete!', type: 'success' },
    failed: { title: 'Enhancement failed', description: TRY_AGAIN, type: 'error' },
    cancelled: { title: 'Enhancement cancelled', type: 'info' },
  },
  video: {
    start: 'Generate Video',
    started: { title: 'Video generation started', type: 'success' },
    startFailed: { title: 'Generation failed', description: 'Failed to start video generation', type: 'error' },
    completed: { title: 'Video generation complete!', type: 'success' },
    failed: { title: 'Video generation failed', description: 'Please try again with different parameters.', type: 'error' },
    cancelled: { title: 'Video generation cancelled', type: 'info' },
  },
};

/** What the Start button says, whether it can be pressed, and if not (while idle) why. */
export interface JobButton {
  label: string;
  disabled: boolean;
  /** The job's real progress (0–100) while it runs, else null (no bar). */
  progress: number | null;
  /** While the job waits for the user's other jobs to finish: its place in their line (1 = next), shown instead of the bar. */
  queuePosition?: number;
  /** Why an idle button cannot be pressed, in plain words; null when it can (or while a job is on). */
  blocked: string | null;
}

/**
 * The button's state machine: idle → Starting... (the request is on its way) → Processing... (the job runs,
 * with its progress; Waiting... with its place in line while the user's other jobs run first) → idle again
 * once it has completed or failed. Idle, it is disabled while `blocked` names a reason (no project, stems
 * not ready, nothing chosen).
 */
export function jobButton({ idleLabel, starting, job, blocked }: { idleLabel: string; starting: boolean; job: Pick<Job, 'status' | 'progress' | 'queuePosition'> | null; blocked: string | null }): JobButton {
  if (starting) return { label: 'Starting...', disabled: true, progress: null, blocked: null };
  if (job?.status === 'processing' && job.queuePosition) return { label: 'Waiting...', disabled: true, progress: job.progress, queuePosition: job.queuePosition, blocked: null };
  if (job?.status === 'processing') return { label: 'Processing...', disabled: true, progress: job.progress, blocked: null };
  return { label: idleLabel, disabled: blocked !== null, progress: null, blocked };
}

/** What a job (or an export) waiting for the user's others to finish says instead of its progress. */
export const waitingWords = (position: number, what: 'jobs' | 'exports' = 'jobs'): string => `Waiting for your other ${what} to finish: ${ordinal(position)} in line`;

export const NO_PROJECT = 'No project selected';
export const STEMS_NOT_READY = 'The stems are still being separated. You can start once they are ready.';
export const NO_STEMS = 'This project has no stems yet.';

/** The open project as the studio holds it: enough to say whether its whole stems are there. */
export interface ProjectReadiness {
  hasProject: boolean;
  stemCount: number;
  /** Seconds the loaded stems hold while they are only the first seconds; null once whole. */
  partialSeconds: number | null;
  /** A separation is running for it. */
  separating: boolean;
}

/**
 * Why no job can start on the open project, or null when one can: mastering and enhancement take the
 * project's whole stems, so they wait for its separation (the server would refuse with "not ready").
 */
export function projectBlocker({ hasProject, stemCount, partialSeconds, separating }: ProjectReadiness): string | null {
  if (!hasProject) return NO_PROJECT;
  if (partialSeconds !== null || (stemCount === 0 && separating)) return STEMS_NOT_READY;
  if (stemCount === 0) return NO_STEMS;
  return null;
}

/**
 * The toast for a job's change of status, seen from the status shown before (null: not seen yet): only a
 * job that was seen processing and has now finished or failed gets one, once (polling and live events both
 * report the same change). A job cancelled here is announced as cancelled, not as a failure.
 */
export function jobToast(words: JobWords, previous: Job['status'] | null, next: Pick<Job, 'status'>, cancelledHere = false): ToastChoice | null {
  if (previous !== 'processing' || next.status === 'processing') return null;
  if (next.status === 'completed') return words.completed;
  return cancelledHere ? words.cancelled : words.failed;
}

/** How a job reads in the project's list: its kind and who did the work, in words. */
export const JOB_TYPE_NAMES: Record<JobType, string> = { mastering: 'Master', enhance: 'Enhancement', video: 'Music video' };
export const PROVIDER_NAMES: Record<Job['provider'], string> = { local: 'Local engine', landr: 'LANDR', dolby: 'Dolby.io', runway: 'Runway' };
const DONE_VERBS: Record<JobType, string> = { mastering: 'Mastered', enhance: 'Enhanced', video: 'Rendered' };

/** "Enhanced locally" / "Mastered by LANDR": who did the work, never pretending a cloud ran. */
export function providerLine(type: JobType, provider: Job['provider']): string {
  const verb = DONE_VERBS[type];
  return provider === 'local' ? `${verb} locally` : `${verb} by ${PROVIDER_NAMES[provider]}`;
}
