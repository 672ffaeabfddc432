import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipFiles } from './zip-files';

describe('zipFiles', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'zip-files-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('stores the files under their entry names', async () => {
    writeFileSync(join(dir, '0.wav'), 'zero');
    writeFileSync(join(dir, '1.wav'), 'one');
    await zipFiles(
      [
        { path: join(dir, '0.wav'), name: '日本 - vocals.wav' },
        { path: join(dir, '1.wav'), name: 'folder/🎵 - bass.wav' },
      ],
      join(dir, 'out.zip'),
    );
    expect(execFileSync('unzip', ['-Z1', join(dir, 'out.zip')]).toString().trim().split('\n')).toEqual(['日本 - vocals.wav', 'folder/🎵 - bass.wav']);
  });

  it('a file it cannot read rejects the zip (the ZipFile\'s own error event) instead of crashing the process, and closes what it wrote', async () => {
    writeFileSync(join(dir, '0.wav'), 'zero');
    const crashes: unknown[] = [];
    const onCrash = (error: unknown) => crashes.push(error);
    process.on('uncaughtException', onCrash);
    try {
      await expect(
        zipFiles(
          [
            { path: join(dir, '0.wav'), name: 'a.wav' },
            { path: join(dir, 'missing.wav'), name: 'b.wav' },
          ],
          join(dir, 'out.zip'),
        ),
      ).rejects.toMatchObject({ code: 'ENOENT' });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(crashes).toEqual([]);
      // The folder can be removed at once: nothing still writes into it.
      rmSync(dir, { recursive: true, force: true });
      expect(() => readdirSync(dir)).toThrow();
    } finally {
      process.off('uncaughtException', onCrash);
    }
  });
});
