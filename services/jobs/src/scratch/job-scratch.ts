import { ScratchFolders, processAlive, type ScratchFolder } from '@stemdeck/platform';

export { processAlive, type ScratchFolder };

/** The kinds of scratch folder the jobs service makes (a provider's name or the local engine's pass). */
export type ScratchKind = 'master' | 'enhance' | 'landr' | 'dolby' | 'video';
const KINDS: readonly ScratchKind[] = ['master', 'enhance', 'landr', 'dolby', 'video'];

/**
 * Scratch folders for the jobs' intermediate files under JOBS_WORK_DIR, one per job, `<kind>-<pid>-XXXXXX`
 * (ScratchFolders). The sweep also removes those named before folders carried a pid.
 */
export class JobScratch extends ScratchFolders<ScratchKind> {
  constructor(workDir: string, pid = process.pid, isAlive: (pid: number) => boolean = processAlive) {
    super(workDir, KINDS, { pid, isAlive, sweepUnmarked: true });
  }
}
