import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** One piece of work's scratch folder and how to remove it. */
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

export interface ScratchFoldersOptions {
  pid?: number;
  isAlive?: (pid: number) => boolean;
  /** Folders of these kinds named without a pid (an older naming) are removed by the sweep too. */
  sweepUnmarked?: boolean;
}

/**
 * Scratch folders under a service's work directory, one per piece of work, named `<kind>-<pid>-XXXXXX`: the
 * pid says which process made it, so a service that starts again can tell the folders a crash left (their
 * process is gone, or the pid is its own: a restarted container often gets the same one) from those of another
 * process sharing the directory. Only folders of the given kinds are ever touched.
 */
export class ScratchFolders<K extends string> {
  private readonly pid: number;
  private readonly isAlive: (pid: number) => boolean;

  constructor(
    private readonly workDir: string,
    private readonly kinds: readonly K[],
    private readonly options: ScratchFoldersOptions = {},
  ) {
    this.pid = options.pid ?? process.pid;
    this.isAlive = options.isAlive ?? processAlive;
  }

  async create(kind: K): Promise<ScratchFolder> {
    await mkdir(this.workDir, { recursive: true });
    const dir = await mkdtemp(join(this.workDir, `${kind}-${this.pid}-`));
    return { dir, dispose: () => rm(dir, { recursive: true, force: true }) };
  }

  /** Removes the scratch folders no running process can own; run at boot, before this process takes work. Answers the names removed. */
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
    if (!match || !(this.kinds as readonly string[]).includes(match[1])) return false;
    if (match[2] === undefined) return this.options.sweepUnmarked === true;
    const pid = Number(match[2]);
    return pid === this.pid || !this.isAlive(pid);
  }
}
