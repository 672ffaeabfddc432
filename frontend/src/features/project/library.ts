import type { Project } from '../../api/mediaTypes';

export { PROJECT_NAME_MAX } from '@stemdeck/proto/vocabulary';
import { PROJECT_NAME_MAX } from '@stemdeck/proto/vocabulary';

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st. */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${suffix}`;
}

/** What the library says about a project's stems, from its newest jobs. */
export function stemStatusOf(project: Pick<Project, 'activeEngine' | 'jobs' | 'source'>): { label: string; tone: 'ready' | 'busy' | 'failed' | 'none' } {
  const running = project.jobs?.find((job) => job.status === 'queued' || job.status === 'processing');
  if (running) {
    const label = running.queuePosition
      ? `Waiting for your other songs · ${ordinal(running.queuePosition)} in line (${running.engine})`
      : running.status === 'queued'
        ? `Waiting to separate (${running.engine})`
        : `Separating ${Math.round(running.progress * 100)}% (${running.engine})`;
    return { label, tone: 'busy' };
  }
  if (project.activeEngine) return { label: `4 stems · ${project.activeEngine} engine`, tone: 'ready' };
  if (project.jobs?.some((job) => job.status === 'failed')) return { label: 'Separation failed', tone: 'failed' };
  return { label: project.source === 'manual' ? 'No audio yet' : 'No stems yet', tone: 'none' };
}

/** A project name as the server will store it, or why it cannot be one (the server checks the same rules). */
export function checkProjectName(input: string): { ok: true; name: string } | { ok: false; message: string } {
  const name = input.trim();
  if (!name) return { ok: false, message: 'The name cannot be empty' };
  if (name.length > PROJECT_NAME_MAX) return { ok: false, message: `The name can be at most ${PROJECT_NAME_MAX} characters` };
  return { ok: true, name };
}

/** "23 Nov 2026, 06:40" in the browser's language and time zone. */
export const createdLabel = (iso: string): string =>
  new Date(iso).toLocaleString(undefined, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
