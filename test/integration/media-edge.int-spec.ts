import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fixturePath, incompleteUploads, listen, makeClip, objectKeys, ownerIdOf, storedAudioFormat, upload } from '../support/media';
import { CSRF } from '../support/env';
import { signIn, type SignedInAgent } from '../support/sign-in';

/** A canonical 16-bit stereo 44.1 kHz WAV header for `frames` frames, followed by that many silent frames. */
function wav(frames: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + frames * 4, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(2, 22);
  header.writeUInt32LE(44100, 24);
  header.writeUInt32LE(44100 * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(frames * 4, 40);
  return Buffer.concat([header, Buffer.alloc(frames * 4)]);
}

/**
 * Edge files: each gets a clear answer (never a 500), and a refused one leaves nothing behind — no
 * object, no open multipart upload, no project document.
 */
describe('upload edge files', () => {
  let demo: SignedInAgent;
  let ownerPrefix: string;

  beforeAll(async () => {
    demo = await signIn('demo', 'demo');
    ownerPrefix = `users/${await ownerIdOf(demo)}/`;
  });

  const folders = async () => [...new Set((await objectKeys(ownerPrefix)).map((key) => key.split('/')[3]))].sort();
  const projectIds = async () => ((await (await demo.fetch('/api/projects')).json()) as Array<{ id: string }>).map((p) => p.id).sort();

  const refusals: Array<[string, string, () => Buffer, number, string]> = [
    ['0 bytes', 'empty.wav', () => Buffer.alloc(0), 422, 'The selected file could not be processed'],
    ['a WAV header with no samples', 'header-only.wav', () => wav(0), 422, 'The selected file could not be processed'],
    ['a 1-sample WAV', 'one-sample.wav', () => wav(1), 422, 'The selected file is too short to split into stems (under a quarter of a second)'],
    [
      'a video with no audio track',
      'silent-video.mp4',
      () => {
        const path = fixturePath('silent-video.mp4');
        execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10:duration=2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', path]);
        return readFileSync(path);
      },
      422,
      'The selected video has no audio track',
    ],
  ];

  it.each(refusals)('refuses %s with a clear answer and keeps nothing', async (_what, name, bytes, status, message) => {
    const foldersBefore = await folders();
    const projectsBefore = await projectIds();
    const path = fixturePath(`edge-${name}`);
    writeFileSync(path, bytes());
    const response = await upload(demo, path, { fileName: name });
    expect({ status: response.status, body: await response.json() }).toMatchObject({ status, body: { statusCode: status, message } });
    expect(await folders()).toEqual(foldersBefore);
    expect(await projectIds()).toEqual(projectsBefore);
    expect(await incompleteUploads(ownerPrefix)).toEqual([]);
  });

  it('takes a truncated MP3 for the part that decodes', async () => {
    const whole = readFileSync(makeClip('edge-whole.mp3', 12, { codecArgs: ['-b:a', '128k'] }));
    const path = fixturePath('edge-truncated.mp3');
    writeFileSync(path, whole.subarray(0, Math.floor(whole.length / 2) + 77));
    const live = await listen(demo);
    const response = await upload(demo, path);
    expect(response.status).toBe(201);
    // The answer carries the probe's estimate; the job's decode measures what is really there.
    const { project: answered } = (await response.json()) as { project: { id: string } };
    await live.waitFor((e) => e.type === 'project_analysed' && e.projectId === answered.id, 30_000);
    live.close();
    const project = (await (await demo.fetch(`/api/projects/${answered.id}`)).json()) as { duration: number };
    expect(project.duration).toBeGreaterThan(5);
    expect(project.duration).toBeLessThan(7);
  });

  it('names a project after the file without its folders, keeping emoji, and stores it under its own key', async () => {
    const response = await upload(demo, makeClip('edge-emoji.wav', 2), { fileName: '../../💿 Late Night Mix 🎧.wav' });
    expect(response.status).toBe(201);
    const { project } = (await response.json()) as { project: { id: string; name: string; originalFile: string } };
    expect(project).toMatchObject({ name: '💿 Late Night Mix 🎧', originalFile: '💿 Late Night Mix 🎧.wav' });
    const keys = await objectKeys(ownerPrefix);
    expect(keys.filter((key) => key.includes(project.id))).toContain(`${ownerPrefix}projects/${project.id}/original`);
    expect(keys.every((key) => key.startsWith(ownerPrefix) && !key.includes('..') && !/[^\x21-\x7e]/.test(key))).toBe(true);
  });

  it('analyses a long recording in its job and announces it when the decode ends (silence: the default 120 BPM)', async () => {
    const path = fixturePath('edge-silent-20min.flac');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '1200', '-c:a', 'flac', path]);
    const live = await listen(demo);
    const response = await upload(demo, path, { fileName: 'twenty minutes of silence.flac' });
    expect(response.status).toBe(201);
    const { project } = (await response.json()) as { project: { id: string; bpm: number | null } };
    expect(project.bpm).toBeNull();
    const analysed = await live.waitFor((e) => e.type === 'project_analysed' && e.projectId === project.id, 60_000);
    expect(analysed).toMatchObject({ bpm: 120, duration: 1200 });
    live.close();
    expect((await demo.fetch(`/api/projects/${project.id}`, { method: 'DELETE', headers: CSRF })).status).toBe(204);
  }, 90_000);

  it('accepts a 2-hour file (memory does not grow with length); deleted mid-separation, its job stops and leaves nothing', async () => {
    const path = fixturePath('edge-silent-2h.flac');
    // Silence at 8 kHz compresses to almost nothing: a long file that uploads quickly.
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '7200', '-c:a', 'flac', path]);
    const live = await listen(demo);
    const response = await upload(demo, path, { fileName: 'two hours of silence.flac' });
    expect(response.status).toBe(201);
    const { project } = (await response.json()) as { project: { id: string; duration: number } };
    expect(project.duration).toBeCloseTo(7200, 0);
    // The first seconds are stored while the whole two hours are separating (about a minute here).
    const partial = await live.waitFor((e) => e.type === 'stems_partial' && e.projectId === project.id, 30_000);
    const format = await storedAudioFormat(demo, (partial.stems as Array<{ url: string }>)[0]!.url);
    expect(format).toMatchObject({ codec: 'flac', bitsPerRawSample: 24, sampleRate: 8000, frames: (partial.seconds as number) * 8000 });
    expect(partial.seconds).toBe(3);

    expect((await demo.fetch(`/api/projects/${project.id}`, { method: 'DELETE', headers: CSRF })).status).toBe(204);
    // The job notices within seconds, stops, and removes what it wrote after the delete.
    const prefix = `${ownerPrefix}projects/${project.id}/`;
    const deadline = Date.now() + 20_000;
    let left = await objectKeys(prefix);
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      left = await objectKeys(prefix);
      if (left.length === 0 && (await incompleteUploads(prefix)).length === 0) break;
    }
    expect(left).toEqual([]);
    expect(await incompleteUploads(prefix)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    live.close();
    expect(live.seen.some((e) => e.type === 'stems_ready' && e.projectId === project.id)).toBe(false);
    expect(await objectKeys(prefix)).toEqual([]);
  }, 90_000);
});
