import { ScratchFolders, processAlive, type ScratchFolder } from '@stemdeck/platform';

export { processAlive, type ScratchFolder };

/**
 * Scratch folders for the files an export is built from, under EXPORT_WORK_DIR, one per export,
 * `export-<pid>-XXXXXX` (ScratchFolders: the boot sweep removes what a crashed export process left).
 */
export class ExportScratch {
  private readonly folders: ScratchFolders<'export'>;

  constructor(workDir: string, pid = process.pid, isAlive: (pid: number) => boolean = processAlive) {
    this.folders = new ScratchFolders(workDir, ['export'], { pid, isAlive });
  }

  create(): Promise<ScratchFolder> {
    return this.folders.create('export');
  }

  /** Removes the scratch folders no running export can own; run at boot, before this process takes one. Answers the names removed. */
  sweep(): Promise<string[]> {
    return this.folders.sweep();
  }
}
