import type { EngineName, Project } from '../../api/mediaTypes';
import type { ProjectState } from './projectSlice';

/** What the studio must change to match the server's state of the open project. */
export interface ConvergePlan {
  /** Fetch and load the server's active stems: the ones here are missing, only the first seconds, or another engine's. */
  loadStems: boolean;
  /** No stems yet anywhere but a running job's first seconds: fetch and load those (their event was missed). */
  loadPartial: { engine: EngineName; seconds: number } | null;
  /** The server has the recording's analysis and the studio does not show it yet (its event was missed). */
  analysed: { bpm: number; key: string; duration: number } | null;
  running: Array<{ engine: EngineName; progress: number; queuePosition?: number }>;
  finished: EngineName[];
  failed: Array<{ engine: EngineName; message: string }>;
}

const NOTHING: ConvergePlan = { loadStems: false, loadPartial: null, analysed: null, running: [], finished: [], failed: [] };

/**
 * Compares the server's project (with its newest job per engine) with what the studio shows. Live events
 * can be missed — a socket that was down, an event sent before the page subscribed — so the studio runs
 * this after opening a project, on every (re)connect and while a job runs without events; the plan never
 * undoes progress the studio already shows.
 */
export function planConvergence(
  server: Pick<Project, 'id' | 'activeEngine' | 'jobs'> & Partial<Pick<Project, 'bpm' | 'key' | 'duration'>>,
  local: Pick<ProjectState, 'project' | 'stems' | 'partialSeconds' | 'jobs'>,
): ConvergePlan {
  if (local.project?.id !== server.id) return NOTHING;
  const loadedEngine = local.stems[0]?.engine ?? null;
  const loadStems =
    server.activeEngine !== null &&
    (local.stems.length === 0 || local.partialSeconds !== null || (loadedEngine !== null && loadedEngine !== server.activeEngine));
  const withFirstSeconds = server.activeEngine === null && local.stems.length === 0 ? (server.jobs ?? []).find((job) => job.status === 'processing' && job.partialSeconds) : undefined;
  const loadPartial = withFirstSeconds ? { engine: withFirstSeconds.engine, seconds: withFirstSeconds.partialSeconds! } : null;
  const analysed =
    server.bpm != null && server.key != null && local.project.bpm === null ? { bpm: server.bpm, key: server.key, duration: server.duration ?? local.project.duration } : null;
  const plan: ConvergePlan = { loadStems, loadPartial, analysed, running: [], finished: [], failed: [] };
  for (const job of server.jobs ?? []) {
    const here = local.jobs[job.engine];
    if (job.status === 'queued' || job.status === 'processing') {
      // A failure shown here stays; whole stems of that engine mean the job just finished (its record lags).
      if (here?.status === 'failed' || (loadedEngine === job.engine && local.partialSeconds === null)) continue;
      plan.running.push({ engine: job.engine, progress: Math.max(job.progress, here?.status === 'running' ? here.progress : 0), ...(job.queuePosition ? { queuePosition: job.queuePosition } : {}) });
    } else if (here?.status === 'running') {
      // Media stores a job's completion just before it makes that engine active, and reads them apart: a
      // completed job whose engine is not active yet is still running here, so polling goes on until it is.
      if (job.status === 'completed' && server.activeEngine !== job.engine) plan.running.push({ engine: job.engine, progress: Math.max(job.progress, here.progress) });
      else if (job.status === 'completed') plan.finished.push(job.engine);
      else plan.failed.push({ engine: job.engine, message: job.error ?? 'Stem separation failed' });
    }
  }
  return plan;
}
