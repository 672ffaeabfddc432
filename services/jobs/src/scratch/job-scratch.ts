import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** The kinds of scratch folder the jobs service makes (a provider's name or the local engine's pass). */
export type ScratchKind = 'master' | 'enhance' | 'landr' | 'dolby';
const KINDS: readonly ScratchKind[] = ['master', 'enhance', 'landr', 'dolby'];

/** One job's scratch folder and how to remove it. */
export interface ScratchFolder {
  dir: string;
  dispose(): Promise<void>;
}

/** Whether a process runs (a signal 0 reaches it, or is refused because another user owns it). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Scratch folders for the jobs' intermediate files under JOBS_WORK_DIR, one per job, named
 * `<kind>-<pid>-XXXXXX`: the pid says which process made it, so a service that starts again can tell the
 * folders a crash left (their process is gone, or the pid is its own: a restarted container often gets the
 * same one) from those of another jobs process sharing the folder. Nothing else in the folder is touched.
 */
export class JobScratch {
  constructor(
    private readonly workDir: string,
    private readonly pid = process.pid,
    private readonly isAlive: (pid: number) => boolean = processAlive,
  ) {}

  async create(kind: ScratchKind): Promise<ScratchFolder> {
    await mkdir(this.workDir, { recursive: true });
    const dir = await mkdtemp(join(this.workDir, `${kind}-${this.pid}-`));
    return { dir, dispose: () => rm(dir, { recursive: true, force: true }) };
  }

  /**
   * Removes the scratch folders that no running job can own: ours from an earlier life (same pid) or a dead
   * process's, and those named before folders carried a pid. Run at boot, before this process takes a job.
   * Answers the names removed.
   */
  async sweep(): Promise<string[]> {
    const entries = await readdir(this.workDir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    const stale = entries.filter((entry) => entry.isDirectory() && this.isStale(entry.name)).map((entry) => entry.name);
    await Promise.all(stale.map((name) => rm(join(this.workDir, name), { recursive: true, force: true })));
    return stale;
  }

  private isStale(name: string): boolean {
    const match = /^([a-z]+)-(?:(\d+)-)?[A-Za-z0-9]{6}$/.exec(name);
    if (!match || !KINDS.includes(match[1] as ScratchKind)) return false;
    if (match[2] === undefined) return true;
    const pid = Number(match[2]);
    return pid === this.pid || !this.isAlive(pid);
  }
}
