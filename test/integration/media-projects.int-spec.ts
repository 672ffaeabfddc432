import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CSRF } from '../support/env';
import { listen, makeClip, storedAudioFormat, upload, uploadSeparated, type SeparatedStem } from '../support/media';
import { signIn, type SignedInAgent } from '../support/sign-in';

const json = { ...CSRF, 'content-type': 'application/json' };

/** The 6 s Ogg clip every test here separates (rendered once). */
const fixture = () => makeClip('projects-fixture.ogg', 6, { codecArgs: ['-c:a', 'libvorbis'] });

/**
 * Every test stands alone: the tests that only read share one project, uploaded before them and changed by
 * none of them; a test that changes a project (a stem's mix, the active engine) uploads its own.
 */
describe('projects and stems', () => {
  let demo: SignedInAgent;
  let rival: SignedInAgent;
  /** Read-only: no test changes this project or its stems. */
  let projectId: string;
  let stems: SeparatedStem[];

  beforeAll(async () => {
    [demo, rival] = await Promise.all([signIn('demo', 'demo'), signIn('rival', 'rival')]);
    ({ projectId, stems } = await uploadSeparated(demo, fixture()));
  }, 60_000);

  it('lists and reads the owner\'s project with its analysis', async () => {
    const list = (await (await demo.fetch('/api/projects')).json()) as Array<{ id: string }>;
    expect(list.map((p) => p.id)).toContain(projectId);
    const project = await (await demo.fetch(`/api/projects/${projectId}`)).json();
    expect(project).toMatchObject({ id: projectId, originalFile: 'projects-fixture.ogg', activeEngine: 'fast' });
    const analysis = (await (await demo.fetch(`/api/projects/${projectId}/analysis`)).json()) as { spotifyFeatures: Record<string, number> };
    const features = analysis.spotifyFeatures;
    for (const name of ['danceability', 'energy', 'valence', 'acousticness', 'instrumentalness', 'liveness', 'speechiness']) {
      expect(features[name]).toBeGreaterThanOrEqual(0);
      expect(features[name]).toBeLessThanOrEqual(1);
      expect(Math.round(features[name] * 100) / 100).toBe(features[name]);
    }
    expect(features.duration_ms).toBeGreaterThan(5500);
    expect(features.key).toBeGreaterThanOrEqual(-1);
    expect([0, 1]).toContain(features.mode);
    expect(features.time_signature).toBeGreaterThanOrEqual(3);
  });

  it('creates a project from JSON and validates the fields', async () => {
    const created = await demo.fetch('/api/projects', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'Sketch', originalFile: 'sketch.wav', duration: 93.5, bpm: 124, key: 'A minor' }),
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ id: expect.any(String), name: 'Sketch', duration: 93.5, bpm: 124, source: 'manual' });

    const bad = await demo.fetch('/api/projects', { method: 'POST', headers: json, body: JSON.stringify({ originalFile: '', duration: 'long' }) });
    expect(bad.status).toBe(400);
    const { message } = (await bad.json()) as { message: string };
    expect(message).toContain('name: Required');
    expect(message).toContain('originalFile: Required');
    expect(message).toContain('duration: Expected number, received string');
  });

  it('updates a stem\'s volume (dB), mute and solo, refusing values out of range', async () => {
    const { projectId, stems } = await uploadSeparated(demo, fixture());
    const stem = stems[0]!;
    expect(stem).toMatchObject({ volume: 0, muted: false, soloed: false });
    const updated = await demo.fetch(`/api/stems/${stem.id}`, { method: 'PUT', headers: json, body: JSON.stringify({ volume: -6.5, muted: true, soloed: true }) });
    expect(updated.status).toBe(200);
    expect(await updated.json()).toMatchObject({ id: stem.id, volume: -6.5, muted: true, soloed: true });
    const reread = (await (await demo.fetch(`/api/projects/${projectId}/stems`)).json()) as typeof stems;
    expect(reread.find((s) => s.id === stem.id)).toMatchObject({ volume: -6.5, muted: true, soloed: true });

    for (const body of [{ volume: 12.5 }, { volume: -61 }, { muted: 'yes' }, { soloed: 1 }, { url: 'http://evil' }]) {
      const response = await demo.fetch(`/api/stems/${stem.id}`, { method: 'PUT', headers: json, body: JSON.stringify(body) });
      expect(response.status).toBe(400);
    }
  }, 60_000);

  it('stores a stem_update sent over /ws and tells the owner\'s other sockets only (stem_updated); relays pad_trigger; refuses bad fields', async () => {
    const { projectId, stems } = await uploadSeparated(demo, fixture());
    const [sender, otherTab, rivalSocket] = await Promise.all([listen(demo), listen(demo), listen(rival)]);
    const stem = stems[1]!;
    sender.send({ type: 'stem_update', stemId: stem.id, volume: -3 });
    expect(await otherTab.waitFor((e) => e.type === 'stem_updated')).toEqual({ type: 'stem_updated', stem: { ...stem, volume: -3 }, changes: { volume: -3 } });
    const stored = (await (await demo.fetch(`/api/projects/${projectId}/stems`)).json()) as typeof stems;
    expect(stored.find((s) => s.id === stem.id)).toMatchObject({ volume: -3, muted: false });
    sender.send({ type: 'stem_update', stemId: stem.id, volume: 99 });
    const error = await sender.waitFor((e) => e.type === 'error');
    expect(error).toMatchObject({ code: 'invalid', for: 'stem_update', message: expect.stringContaining('volume') });
    sender.send({ type: 'ping', id: 'after' });
    await sender.waitFor((e) => e.type === 'pong');
    sender.send({ type: 'pad_trigger', pad: 'Vocals', velocity: 127 });
    expect(await otherTab.waitFor((e) => e.type === 'pad_trigger')).toEqual({ type: 'pad_trigger', pad: 'Vocals', velocity: 127 });
    sender.send({ type: 'pad_trigger', pad: 'Vocals', velocity: 200 });
    expect(await sender.waitFor((e) => e.type === 'error' && e.for === 'pad_trigger')).toMatchObject({ code: 'invalid', message: expect.stringContaining('velocity') });

    // The same change through PUT takes the same path; the tab that names its socket is not told its own change.
    const welcome = (await sender.waitFor((e) => e.type === 'welcome')) as { connectionId?: unknown; protocol?: unknown };
    expect(welcome).toMatchObject({ connectionId: expect.any(String), protocol: 1 });
    const put = await demo.fetch(`/api/stems/${stem.id}`, {
      method: 'PUT',
      headers: { ...json, 'x-stemdeck-live-connection': welcome.connectionId as string },
      body: JSON.stringify({ muted: true }),
    });
    expect(put.status).toBe(200);
    expect(await otherTab.waitFor((e) => e.type === 'stem_updated' && (e.changes as { muted?: boolean }).muted === true)).toMatchObject({
      stem: { id: stem.id, url: stem.url, volume: -3, muted: true },
    });
    // Someone else's stem: nothing stored, nothing announced, the sender is told.
    rivalSocket.send({ type: 'stem_update', stemId: stem.id, muted: false });
    expect(await rivalSocket.waitFor((e) => e.type === 'error')).toMatchObject({ code: 'failed', for: 'stem_update', message: 'Stem not found' });

    expect(sender.seen.filter((e) => e.type === 'stem_updated')).toEqual([]);
    expect(otherTab.seen.filter((e) => e.type === 'stem_updated')).toHaveLength(2);
    expect(otherTab.seen.filter((e) => e.type === 'pad_trigger')).toHaveLength(1);
    expect(rivalSocket.seen.some((e) => e.type === 'stem_updated' || e.type === 'pad_trigger')).toBe(false);
    const after = (await (await demo.fetch(`/api/projects/${projectId}/stems`)).json()) as typeof stems;
    expect(after.find((s) => s.id === stem.id)).toMatchObject({ volume: -3, muted: true });
    for (const socket of [sender, otherTab, rivalSocket]) socket.close();
  }, 60_000);

  it('streams stems to their owner with range support', async () => {
    const stem = stems.find((s) => s.type === 'bass')!;
    const whole = await demo.fetch(stem.url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-type')).toBe('audio/flac');
    const bytes = Buffer.from(await whole.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('fLaC');
    // 6 s at the source rate (44.1 kHz), 24-bit stereo FLAC.
    expect(await storedAudioFormat(demo, stem.url)).toMatchObject({ bitsPerRawSample: 24, sampleRate: 44100, channels: 2, frames: 6 * 44100, bytes: bytes.length });

    const part = await demo.fetch(stem.url, { headers: { range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(1000, 2000));

    const suffix = await demo.fetch(stem.url, { headers: { range: 'bytes=-10' } });
    expect(Buffer.from(await suffix.arrayBuffer())).toEqual(bytes.subarray(bytes.length - 10));

    const beyond = await demo.fetch(stem.url, { headers: { range: `bytes=${bytes.length}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${bytes.length}`);

    const original = await demo.fetch(`/api/projects/${projectId}/audio`, { headers: { range: 'bytes=0-3' } });
    expect(original.status).toBe(206);
    expect(Buffer.from(await original.arrayBuffer()).toString('latin1')).toBe('OggS');
  });

  it('hides everything of one user from another (404)', async () => {
    const stem = stems[0]!;
    const stemNow = async () => ((await (await demo.fetch(`/api/projects/${projectId}/stems`)).json()) as typeof stems).find((s) => s.id === stem.id)!;
    const before = await stemNow();
    const attempts: Array<[string, RequestInit?]> = [
      [`/api/projects/${projectId}`],
      [`/api/projects/${projectId}/stems`],
      [`/api/projects/${projectId}/analysis`],
      [`/api/projects/${projectId}/audio`],
      [stem.url],
      [`/api/stems/${stem.id}`, { method: 'PUT', headers: json, body: JSON.stringify({ muted: !before.muted, volume: -42 }) }],
      [`/api/projects/${projectId}/separate`, { method: 'POST', headers: json, body: JSON.stringify({ engine: 'fast' }) }],
    ];
    for (const [path, init] of attempts) {
      const response = await rival.fetch(path, init);
      expect([path, response.status]).toEqual([path, 404]);
    }
    const list = (await (await rival.fetch('/api/projects')).json()) as Array<{ id: string }>;
    expect(list.map((p) => p.id)).not.toContain(projectId);
    // The owner's stem is untouched by the rival's attempt.
    expect(await stemNow()).toEqual(before);
  });

  it('lists the engines: fast always, hybrid on the bundled network, quality switched off (409)', async () => {
    const engines = (await (await demo.fetch('/api/engines')).json()) as Array<{ engine: string; available: boolean; reason: string | null; measured: { heldOutSdrDb: number } | null }>;
    expect(engines.map((e) => [e.engine, e.available])).toEqual([
      ['fast', true],
      ['hybrid', true],
      ['quality', false],
    ]);
    expect(engines[2]!.reason).toContain('engine not installed');
    // The shipped engines carry their benchmark figures (shown in the mixer's menu); an engine switched off, none.
    expect(engines.map((e) => e.measured !== null)).toEqual([true, true, false]);
    expect(engines[1]!.measured!.heldOutSdrDb).toBeGreaterThan(0);

    const refused = await demo.fetch(`/api/projects/${projectId}/separate`, { method: 'POST', headers: json, body: JSON.stringify({ engine: 'quality' }) });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toContain('engine not installed');

    const unknown = await demo.fetch(`/api/projects/${projectId}/separate`, { method: 'POST', headers: json, body: JSON.stringify({ engine: 'magic' }) });
    expect(unknown.status).toBe(400);
  });

  it('runs the hybrid engine (the bundled network through the ONNX runner) and makes its stems the active set', async () => {
    const { projectId } = await uploadSeparated(demo, fixture());
    const live = await listen(demo);
    const response = await demo.fetch(`/api/projects/${projectId}/separate`, { method: 'POST', headers: json, body: JSON.stringify({ engine: 'hybrid' }) });
    expect(response.status).toBe(202);
    expect(await response.json()).toMatchObject({ projectId, engine: 'hybrid', status: expect.stringMatching(/queued|processing/) });
    const ready = await live.waitFor((e) => e.type === 'stems_ready' && e.projectId === projectId && e.engine === 'hybrid', 30_000);
    live.close();
    expect((ready.stems as unknown[]).length).toBe(4);
    const active = (await (await demo.fetch(`/api/projects/${projectId}/stems`)).json()) as Array<{ engine: string; quality: string }>;
    expect(active.map((s) => [s.engine, s.quality])).toEqual(Array(4).fill(['hybrid', 'excellent']));

    // Asking again for finished stems switches back without a new job.
    const again = await demo.fetch(`/api/projects/${projectId}/separate`, { method: 'POST', headers: json, body: JSON.stringify({ engine: 'fast' }) });
    expect(await again.json()).toMatchObject({ engine: 'fast', status: 'completed' });
    const fast = (await (await demo.fetch(`/api/projects/${projectId}/stems`)).json()) as Array<{ engine: string }>;
    expect(fast.every((s) => s.engine === 'fast')).toBe(true);
  }, 60_000);

  it('finishes a job when the media service is killed mid-job and comes back', async () => {
    const pidFile = join(process.env.STEMDECK_DATA_DIR ?? '.data/test', 'pids', 'media.pid');
    const live = await listen(demo);
    const response = await upload(demo, makeClip('long-take.mp3', 300, { codecArgs: ['-b:a', '64k'] }));
    expect(response.status).toBe(201);
    const id = ((await response.json()) as { project: { id: string } }).project.id;
    // Progressive stems: the first seconds of each stem are playable while the rest is separating.
    const partial = await live.waitFor((e) => e.type === 'stems_partial' && e.projectId === id, 30_000);
    expect(partial.seconds).toBe(3);
    expect(live.seen.some((e) => e.type === 'stems_ready' && e.projectId === id)).toBe(false);
    const heads = partial.stems as Array<{ type: string; url: string }>;
    expect(heads.map((s) => s.type)).toEqual(['vocals', 'drums', 'bass', 'other']);
    expect((await storedAudioFormat(demo, heads[0]!.url)).frames).toBe(3 * 44100);
    expect((await (await demo.fetch(`/api/projects/${id}/stems`)).json()) as unknown[]).toEqual([]);
    await live.waitFor((e) => e.type === 'stems_progress' && e.projectId === id && Number(e.progress) > 0, 30_000);
    const killedPid = Number(readFileSync(pidFile, 'utf8'));
    process.kill(-killedPid, 'SIGKILL');

    const ready = await live.waitFor((e) => e.type === 'stems_ready' && e.projectId === id, 90_000);
    expect(Number(readFileSync(pidFile, 'utf8'))).not.toBe(killedPid);
    expect((ready.stems as unknown[]).length).toBe(4);
    const stored = (await (await demo.fetch(`/api/projects/${id}/stems`)).json()) as Array<{ id: string; type: string; url: string }>;
    expect(stored).toHaveLength(4);
    expect((await storedAudioFormat(demo, stored[0]!.url)).frames).toBe(300 * 44100);
    // Nothing duplicated: one stem per type, one project, and the job finished once (a late second
    // completion by the redelivered job would announce its stems again).
    expect(stored.map((s) => s.type).sort()).toEqual(['bass', 'drums', 'other', 'vocals']);
    expect(new Set(stored.map((s) => s.id)).size).toBe(4);
    const projects = (await (await demo.fetch('/api/projects')).json()) as Array<{ id: string }>;
    expect(projects.filter((p) => p.id === id)).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 4000));
    live.close();
    expect(live.seen.filter((e) => e.type === 'stems_ready' && e.projectId === id)).toHaveLength(1);
  }, 120_000);
});
