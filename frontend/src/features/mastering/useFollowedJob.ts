import { skipToken } from '@reduxjs/toolkit/query';
import type { JobType } from '@stemdeck/proto/vocabulary';
import { useEffect, useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { toaster } from '../../ui/toaster';
import { serverMessage } from '../project/studioProject';
import { jobsApi, useCancelJobMutation, useGetJobQuery, useProjectJobsQuery, type Job } from './jobsApi';
import { jobButton, jobToast, JOB_WORDS, projectBlocker, waitingWords, type JobButton, type ToastChoice } from './jobState';

const POLL_MS = 1000;

const showToast = ({ title, description, type }: ToastChoice) => toaster.create({ title, description, type });

export interface FollowedJob {
  /** The job shown: the one started here, else the project's newest of this type. */
  job: Job | null;
  /** The project's jobs of every type, newest first. */
  projectJobs: Job[];
  button: JobButton;
  /** Sends the start request; toasts its outcome and follows the job it answers. */
  start(request: () => Promise<Job>): Promise<void>;
  /** Cancels the job shown while it runs. */
  cancel(): Promise<void>;
  cancelling: boolean;
  /** The server's reason the last start was refused (e.g. the stems are not ready), until the next start. */
  startError: string | null;
}

/**
 * Follows one job of a project from Start to its end, for either AI Mastering panel: GET /api/jobs/:id polled
 * every second while it runs, the live job events (useJobLiveEvents) landing in the same cache in between,
 * one toast per change of status whichever of them brings it, the project's job list refreshed at the end.
 */
export function useFollowedJob(type: JobType, projectId: string | null, blocked: string | null): FollowedJob {
  const words = JOB_WORDS[type];
  const dispatch = useAppDispatch();
  const [startedJobId, setStartedJobId] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);
  const { data: projectJobs = [] } = useProjectJobsQuery(projectId ?? skipToken);

  // The one started here, else the project's newest of this type (one started before this panel opened).
  const shownJobId = startedJobId ?? projectJobs.find((job) => job.type === type)?.id ?? null;
  const [processing, setProcessing] = useState(false);
  const { data: polled } = useGetJobQuery(shownJobId ?? skipToken, { pollingInterval: processing ? POLL_MS : 0, skipPollingIfUnfocused: false });
  const job: Job | null = polled && polled.projectId === projectId && polled.type === type ? polled : null;
  useEffect(() => setProcessing(job?.status === 'processing'), [job?.status]);

  const cancelledHere = useRef(new Set<string>());
  // One toast per change of status, whichever of the poll and the live event brought it.
  const seen = useRef<{ id: string; status: Job['status'] } | null>(null);
  useEffect(() => {
    if (!job) return;
    const previous = seen.current?.id === job.id ? seen.current.status : null;
    // A poll sent before the job finished may answer after its live event: a finished job stays finished.
    if (previous && previous !== 'processing' && job.status === 'processing') return;
    seen.current = { id: job.id, status: job.status };
    const toast = jobToast(words, previous, job, cancelledHere.current.has(job.id));
    if (!toast) return;
    showToast(toast);
    // The poll may bring the news before (or without) the live event: the job list is refreshed either way.
    dispatch(jobsApi.util.invalidateTags(['Jobs']));
  }, [job, dispatch, words]);

  // The project a start request belongs to: its answer is dropped when another project was opened meanwhile.
  const currentProject = useRef(projectId);
  useEffect(() => {
    currentProject.current = projectId;
    setStartedJobId(null);
    setStartError(null);
  }, [projectId]);

  const [cancelJob, { isLoading: cancelling }] = useCancelJobMutation();

  // Started, and its first answer not shown yet: still starting (the button must not come back meanwhile).
  const starting = pending || (startedJobId !== null && job?.id !== startedJobId);
  const button = jobButton({ idleLabel: words.start, starting, job, blocked });

  const start = async (request: () => Promise<Job>) => {
    setPending(true);
    setStartError(null);
    try {
      const created = await request();
      if (created.projectId !== currentProject.current) return;
      seen.current = { id: created.id, status: 'processing' };
      void dispatch(jobsApi.util.upsertQueryData('getJob', created.id, created));
      setStartedJobId(created.id);
      // Started, or accepted behind the user's other jobs: the toast says its place.
      showToast(created.queuePosition ? { ...words.started, description: waitingWords(created.queuePosition) } : words.started);
    } catch (error) {
      setStartError(serverMessage(error));
      showToast(words.startFailed);
    } finally {
      setPending(false);
    }
  };

  const cancel = async () => {
    if (!job || job.status !== 'processing') return;
    cancelledHere.current.add(job.id);
    try {
      const answer = await cancelJob(job.id).unwrap();
      void dispatch(jobsApi.util.upsertQueryData('getJob', answer.id, answer));
    } catch (error) {
      cancelledHere.current.delete(job.id);
      // Most often the job finished meanwhile: the server says so.
      showToast({ title: 'Could not cancel', description: serverMessage(error) ?? undefined, type: 'error' });
    }
  };

  return { job, projectJobs, button, start, cancel, cancelling, startError };
}

/** Why no job can start on the open project right now (no project, stems not whole yet), or null. */
export function useProjectBlocker(): string | null {
  return useAppSelector(({ project }) =>
    projectBlocker({
      hasProject: project.project !== null,
      stemCount: project.stems.length,
      partialSeconds: project.partialSeconds,
      separating: Object.values(project.jobs).some((job) => job?.status === 'running'),
    }),
  );
}
