import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExportScratch } from './export-scratch';

describe('ExportScratch', () => {
  let workDir: string;

  beforeEach(() => {
    workDir = mkdtempSync(join(tmpdir(), 'export-scratch-'));
  });
  afterEach(() => rmSync(workDir, { recursive: true, force: true }));

  it('makes one folder per export, named after its process, and removes it on dispose', async () => {
    const folder = await new ExportScratch(workDir, 4242).create();
    expect(folder.dir).toMatch(/\/export-4242-[A-Za-z0-9]{6}$/);
    writeFileSync(join(folder.dir, 'half.wav'), 'x');
    await folder.dispose();
    expect(readdirSync(workDir)).toEqual([]);
  });

  it('sweeps the folders of dead processes and of its own earlier life, not those of live processes or anything else', async () => {
    for (const name of ['export-100-aaaaaa', 'export-200-bbbbbb', 'export-300-cccccc', 'master-100-dddddd', 'keep-me']) mkdirSync(join(workDir, name));
    const scratch = new ExportScratch(workDir, 300, (pid) => pid === 200);
    expect((await scratch.sweep()).sort()).toEqual(['export-100-aaaaaa', 'export-300-cccccc']);
    expect(readdirSync(workDir).sort()).toEqual(['export-200-bbbbbb', 'keep-me', 'master-100-dddddd']);
  });

  it('sweeps nothing when the work folder does not exist yet', async () => {
    await expect(new ExportScratch(join(workDir, 'absent')).sweep()).resolves.toEqual([]);
  });
});
