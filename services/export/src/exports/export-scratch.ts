import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** One export's scratch folder and how to remove it. */
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

const FOLDER = /^export-(\d+)-[A-Za-z0-9]{6}$/;

/**
 * Scratch folders for the files an export is built from, under EXPORT_WORK_DIR, one per export, named
 * `export-<pid>-XXXXXX`: the pid says which process made it, so a service that starts again can tell the
 * folders a crash left (their process is gone, or the pid is its own: a restarted container often gets the
 * same one) from those of another export process sharing the folder. Nothing else in the folder is touched.
 */
export class ExportScratch {
  constructor(
    private readonly workDir: string,
    private readonly pid = process.pid,
    private readonly isAlive: (pid: number) => boolean = processAlive,
  ) {}

  async create(): Promise<ScratchFolder> {
    await mkdir(this.workDir, { recursive: true });
    const dir = await mkdtemp(join(this.workDir, `export-${this.pid}-`));
    return { dir, dispose: () => rm(dir, { recursive: true, force: true }) };
  }

  /** Removes the scratch folders no running export can own; run at boot, before this process takes one. Answers the names removed. */
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
    const match = FOLDER.exec(name);
    if (!match) return false;
    const pid = Number(match[1]);
    return pid === this.pid || !this.isAlive(pid);
  }
}
