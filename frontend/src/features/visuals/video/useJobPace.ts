import { useEffect, useRef, useState } from 'react';
import type { Job } from '../../mastering/jobsApi';
import { secondsRemaining, type ProgressSample } from './videoPanelState';

export interface JobPace {
  /** The highest progress seen for the running job (a poll answered late never moves the bar back); null when none runs. */
  progress: number | null;
  /** Seconds left at the measured rate; null until the progress has moved. */
  remaining: number | null;
}

/** The running job's progress as shown, and the time it has left at the rate measured from its readings. */
export function useJobPace(job: Pick<Job, 'id' | 'status' | 'progress'> | null, now: () => number = Date.now): JobPace {
  const samples = useRef<{ id: string; readings: ProgressSample[] } | null>(null);
  const [pace, setPace] = useState<JobPace>({ progress: null, remaining: null });
  const running = job?.status === 'processing';
  useEffect(() => {
    if (!job || !running) {
      samples.current = null;
      setPace({ progress: null, remaining: null });
      return;
    }
    if (samples.current?.id !== job.id) samples.current = { id: job.id, readings: [] };
    const readings = samples.current.readings;
    const last = readings.at(-1);
    // Only progress forward is a reading: an older answer arriving after a newer one is left out.
    if (!last || job.progress > last.progress) readings.push({ at: now(), progress: job.progress });
    if (readings.length > 120) readings.splice(0, readings.length - 120);
    setPace({ progress: readings.at(-1)!.progress, remaining: secondsRemaining(readings) });
  }, [job, running, now]);
  return pace;
}
