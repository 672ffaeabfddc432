import { useEffect, useRef, useState } from 'react';
import type { Job } from '../../mastering/jobsApi';
import { secondsRemaining, type ProgressSample } from './videoPanelState';

/** Seconds left for the running job at its measured rate (null until its progress has moved, or when none runs). */
export function useRemainingSeconds(job: Pick<Job, 'id' | 'status' | 'progress'> | null, now: () => number = Date.now): number | null {
  const samples = useRef<{ id: string; readings: ProgressSample[] } | null>(null);
  const [remaining, setRemaining] = useState<number | null>(null);
  const running = job?.status === 'processing';
  useEffect(() => {
    if (!job || !running) {
      samples.current = null;
      setRemaining(null);
      return;
    }
    if (samples.current?.id !== job.id) samples.current = { id: job.id, readings: [] };
    const readings = samples.current.readings;
    if (readings.at(-1)?.progress !== job.progress) readings.push({ at: now(), progress: job.progress });
    if (readings.length > 120) readings.splice(0, readings.length - 120);
    setRemaining(secondsRemaining(readings));
  }, [job, job?.id, job?.progress, running, now]);
  return remaining;
}
