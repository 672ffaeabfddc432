import { writeFileSync } from 'node:fs';
import { CSRF, BASE_URL } from '../support/env';
import { fixturePath, incompleteUploads, listen, makeClip, objectKeys, ownerIdOf, rawUpload, storedAudioFormat, upload } from '../support/media';
import { signIn, type SignedInAgent } from '../support/sign-in';
import { MAX_UPLOAD_BYTES as MAX } from '@stemdeck/proto/vocabulary';

describe('POST /api/upload', () => {
  let demo: SignedInAgent;
  let ownerPrefix: string;

  beforeAll(async () => {
    demo = await signIn('demo', 'demo');
    ownerPrefix = `users/${await ownerIdOf(demo)}/`;
  });

  /** Project folders in storage: a kept upload would add one (stems of earlier projects may still be landing). */
  const folders = async () => [...new Set((await objectKeys(ownerPrefix)).map((key) => key.split('/')[3]))].sort();
  const projectCount = async () => ((await (await demo.fetch('/api/projects')).json()) as unknown[]).length;

  it('takes an mp3 in the `audio` field, answers with the project, and pushes its analysis and stems over /ws', async () => {
    const live = await listen(demo);
    const clip = makeClip('song.mp3', 12, { codecArgs: ['-b:a', '128k'] });
    const response = await upload(demo, clip);
    expect(response.status).toBe(201);
    const body = (await response.json()) as { project: Record<string, unknown>; job: { status: string; engine: string } };
    expect(body.project).toMatchObject({ id: expect.any(String), name: 'song', originalFile: 'song.mp3', source: 'audio' });
    expect(body.project.duration).toBeCloseTo(12, 0);
    expect(body.job).toMatchObject({ engine: 'fast', status: 'queued' });
    expect(body).not.toHaveProperty('analysis');

    const projectId = body.project.id as string;
    // The analysis is the job's: it arrives as an event, and the project read then carries it.
    const analysis = await live.waitFor((e) => e.type === 'project_analysed' && e.projectId === projectId, 30_000);
    expect(analysis.bpm).toBeGreaterThanOrEqual(60);
    expect(analysis.bpm).toBeLessThanOrEqual(200);
    expect(analysis.key).toMatch(/^[A-G]#? (major|minor)$/);
    expect(analysis.duration).toBeCloseTo(12, 0);
    const stored = (await (await demo.fetch(`/api/projects/${projectId}`)).json()) as Record<string, unknown>;
    expect(stored).toMatchObject({ bpm: analysis.bpm, key: analysis.key });
    const ready = await live.waitFor((e) => e.type === 'stems_ready' && e.projectId === projectId, 30_000);
    expect(live.seen.some((e) => e.type === 'stems_progress' && e.projectId === projectId && e.engine === 'fast')).toBe(true);
    expect((ready.stems as Array<{ type: string }>).map((s) => s.type)).toEqual(['vocals', 'drums', 'bass', 'other']);
    live.close();

    const stems = (await (await demo.fetch(`/api/projects/${projectId}/stems`)).json()) as Array<Record<string, unknown>>;
    expect(stems).toHaveLength(4);
    for (const stem of stems) {
      expect(stem).toMatchObject({ id: expect.any(String), type: expect.any(String), url: `/api/stems/${stem.id}/audio`, volume: 0, muted: false, soloed: false, quality: 'good' });
    }
    const keys = await objectKeys(`${ownerPrefix}projects/${projectId}/`);
    expect(keys.sort()).toEqual(
      ['original', 'stems/fast/bass.flac', 'stems/fast/drums.flac', 'stems/fast/other.flac', 'stems/fast/vocals.flac'].map(
        (k) => `${ownerPrefix}projects/${projectId}/${k}`,
      ),
    );
    // Stems are lossless 24-bit FLAC at the source rate, the song's whole length, served as audio/flac.
    const format = await storedAudioFormat(demo, stems[0]!.url as string);
    expect(format).toMatchObject({ contentType: 'audio/flac', codec: 'flac', bitsPerRawSample: 24, sampleRate: 44100, channels: 2 });
    expect(Math.abs(format.frames - 12 * 44100)).toBeLessThan(2048);
    const ranged = await demo.fetch(stems[0]!.url as string, { headers: { range: 'bytes=0-3' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-type')).toBe('audio/flac');
    expect(Buffer.from(await ranged.arrayBuffer()).toString('latin1')).toBe('fLaC');
  });

  it('takes a wav in the `file` field', async () => {
    const response = await upload(demo, makeClip('loop.wav', 4), { field: 'file' });
    expect(response.status).toBe(201);
    expect(((await response.json()) as { project: { originalFile: string } }).project.originalFile).toBe('loop.wav');
  });

  it('takes a video: its job extracts the audio track for stems and keeps the original', async () => {
    const live = await listen(demo);
    const response = await upload(demo, makeClip('clip.mp4', 4, { video: true }), { field: 'file' });
    expect(response.status).toBe(201);
    const { project } = (await response.json()) as { project: { id: string; source: string } };
    expect(project.source).toBe('video');
    await live.waitFor((e) => e.type === 'stems_ready' && e.projectId === project.id, 30_000);
    live.close();
    const keys = await objectKeys(`${ownerPrefix}projects/${project.id}/`);
    expect(keys).toEqual(expect.arrayContaining([`${ownerPrefix}projects/${project.id}/original`, `${ownerPrefix}projects/${project.id}/audio.flac`]));
    const audio = await demo.fetch(`/api/projects/${project.id}/audio`, { headers: { range: 'bytes=0-3' } });
    expect(audio.status).toBe(206);
    expect(Buffer.from(await audio.arrayBuffer()).toString('latin1')).toBe('fLaC');
  });

  it.each([
    ['a text file', 'notes.txt', Buffer.from('these are my lyrics, not a song\n'.repeat(50)), 415, 'Please upload an audio or video file'],
    ['an image', 'cover.png', Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da6364f8ffbf1e000502027f3fa8d6a10000000049454e44ae426082', 'hex'), 415, 'Please upload an audio or video file'],
    ['a corrupt wav', 'broken.wav', Buffer.concat([Buffer.from('RIFF\x24\x00\x10\x00WAVEfmt ', 'latin1'), Buffer.alloc(4000, 0x5a)]), 422, 'The selected file could not be processed'],
  ])('refuses %s by its content (%s) and keeps nothing', async (_what, name, bytes, status, message) => {
    const before = await folders();
    const projectsBefore = await projectCount();
    const path = fixturePath(name);
    writeFileSync(path, bytes);
    const response = await upload(demo, path, { fileName: name.replace(/\.\w+$/, '.mp3') });
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ statusCode: status, message });
    expect(await folders()).toEqual(before);
    expect(await projectCount()).toBe(projectsBefore);
  });

  it('answers 400 when the form has no audio/file field', async () => {
    const form = new FormData();
    form.append('other', new Blob(['x']), 'x.wav');
    const response = await demo.fetch('/api/upload', { method: 'POST', headers: CSRF, body: form });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/field named "audio" or "file"/);
  });

  it('refuses uploads from signed-out visitors', async () => {
    const form = new FormData();
    form.append('audio', new Blob(['x']), 'x.wav');
    const response = await fetch(`${BASE_URL}/api/upload`, { method: 'POST', headers: CSRF, body: form });
    expect(response.status).toBe(401);
  });

  it('cuts off a file over 500 MB while streaming (413) and keeps nothing', async () => {
    const before = await folders();
    const overLimit = MAX + 64 * 1024 * 1024;
    const result = await rawUpload(demo, overLimit);
    expect(result).not.toBe('aborted');
    const { status, body, sent } = result as { status: number; body: string; sent: number };
    expect(status).toBe(413);
    expect(JSON.parse(body)).toMatchObject({ statusCode: 413, message: 'File is larger than 524288000 bytes' });
    // The gateway stopped reading at the limit: the answer came before the client could send it all.
    expect(sent).toBeLessThan(overLimit);
    expect(await folders()).toEqual(before);
    expect(await incompleteUploads(ownerPrefix)).toEqual([]);
  }, 120_000);

  it('lets a file of exactly 500 MB through the size check (then judges its content)', async () => {
    const result = await rawUpload(demo, MAX);
    expect(result).toMatchObject({ status: 415 });
  }, 120_000);

  it('answers 413 at once when the declared length is over the limit', async () => {
    const result = await rawUpload(demo, MAX + 5 * 1024 * 1024, { declareLength: true });
    const { status, sent } = result as { status: number; sent: number };
    expect(status).toBe(413);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  }, 60_000);

  it('leaves nothing behind when the client aborts mid-upload', async () => {
    const before = await folders();
    const projectsBefore = await projectCount();
    expect(await rawUpload(demo, 40 * 1024 * 1024, { abortAfter: 20 * 1024 * 1024 })).toBe('aborted');
    // The gateway notices the closed socket and discards the partial multipart upload.
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && (await incompleteUploads(ownerPrefix)).length > 0) await new Promise((r) => setTimeout(r, 200));
    expect(await incompleteUploads(ownerPrefix)).toEqual([]);
    expect(await folders()).toEqual(before);
    expect(await projectCount()).toBe(projectsBefore);
  }, 60_000);
});
