import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JobScratch, processAlive } from './job-scratch';

describe('JobScratch', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'job-scratch-spec-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('makes one folder per job, named by kind and process, and removes it on dispose', async () => {
    const scratch = new JobScratch(join(dir, 'work'), 4242);
    const folder = await scratch.create('enhance');
    expect(folder.dir).toMatch(new RegExp(`${join(dir, 'work')}/enhance-4242-[A-Za-z0-9]{6}$`));
    await writeFile(join(folder.dir, 'enhanced.flac'), 'x');
    await folder.dispose();
    expect(await readdir(join(dir, 'work'))).toEqual([]);
  });

  it('at boot removes what a crash left (its own pid again, a dead process\'s, the pid-less older names) and nothing else', async () => {
    const alive = new Set([7, 4242]);
    const scratch = new JobScratch(dir, 4242, (pid) => alive.has(pid));
    const names = ['master-4242-aaaaaa', 'enhance-99-bbbbbb', 'master-cccccc', 'dolby-99-dddddd', 'master-7-eeeeee', 'enhance-7-ffffff', 'mixes', 'master-notes', 'separation-99-gggggg'];
    for (const name of names) await mkdir(join(dir, name));
    await writeFile(join(dir, 'enhance-99-hhhhhh'), 'a file, not a folder');
    await writeFile(join(dir, 'master-4242-aaaaaa', 'part-0.wav'), 'x');

    expect((await scratch.sweep()).sort()).toEqual(['dolby-99-dddddd', 'enhance-99-bbbbbb', 'master-4242-aaaaaa', 'master-cccccc']);
    expect((await readdir(dir)).sort()).toEqual(['enhance-7-ffffff', 'enhance-99-hhhhhh', 'master-7-eeeeee', 'master-notes', 'mixes', 'separation-99-gggggg']);
  });

  it('sweeps a work folder that does not exist yet without complaint', async () => {
    expect(await new JobScratch(join(dir, 'missing')).sweep()).toEqual([]);
  });

  it('tells a running process from one that has ended', () => {
    expect(processAlive(process.pid)).toBe(true);
    expect(processAlive(2 ** 22 + 12345)).toBe(false);
  });
});
