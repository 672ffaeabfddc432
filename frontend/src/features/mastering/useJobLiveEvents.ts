import { useEffect } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { useLiveChannel } from '../live/useLiveConnection';
import { jobsApi } from './jobsApi';

/**
 * Jobs' live events (`job_progress`, `job_completed`, `job_failed`, validated by the live connection) land in
 * the job's cached answer at once, between the 1 s polls; a finished job refreshes the project's job list.
 */
export function useJobLiveEvents(): void {
  const live = useLiveChannel();
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (!live) return;
    return live.subscribe((message) => {
      switch (message.type) {
        case 'job_progress':
        case 'job_completed':
        case 'job_failed':
          void dispatch(jobsApi.util.upsertQueryData('getJob', message.job.id, message.job));
          if (message.type !== 'job_progress') dispatch(jobsApi.util.invalidateTags(['Jobs']));
      }
    });
  }, [live, dispatch]);
}
