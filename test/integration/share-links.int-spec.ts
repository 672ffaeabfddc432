import mongoose from 'mongoose';
import { BASE_URL, CSRF } from '../support/env';
import { makeClip, ownerIdOf, uploadSeparated, type SeparatedStem } from '../support/media';
import { signIn, type SignedInAgent } from '../support/sign-in';

const json = { ...CSRF, 'content-type': 'application/json' };
const GONE = 'This link is no longer available';

interface ShareLink {
  id: string;
  projectId: string;
  status: 'active' | 'expired' | 'revoked';
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}
type CreatedLink = ShareLink & { token: string; url: string };
interface SharedProject {
  name: string;
  duration: number;
  bpm: number | null;
  key: string | null;
  analysis: { spotifyFeatures: Record<string, number>; loudnessLufs: number } | null;
  stems: Array<{ id: string; type: string; volume: number; muted: boolean; soloed: boolean; url: string }>;
  expiresAt: string | null;
}

const createLink = (agent: SignedInAgent, projectId: string, body: unknown = {}) =>
  agent.fetch(`/api/projects/${projectId}/share-links`, { method: 'POST', headers: json, body: JSON.stringify(body) });
const created = async (agent: SignedInAgent, projectId: string, body: unknown = {}): Promise<CreatedLink> => {
  const response = await createLink(agent, projectId, body);
  if (response.status !== 201) throw new Error(`create answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as CreatedLink;
};
const listLinks = (agent: SignedInAgent, projectId: string) => agent.fetch(`/api/projects/${projectId}/share-links`);
const revokeLink = (agent: SignedInAgent, linkId: string) => agent.fetch(`/api/share-links/${linkId}`, { method: 'DELETE', headers: CSRF });
/** What a visitor without an account does: no cookie at all. */
const signedOut = (path: string, init: RequestInit = {}) => fetch(`${BASE_URL}${path}`, { redirect: 'manual', ...init });
const shareView = (token: string) => signedOut(`/api/share/${token}`);

async function expectGone(response: Response, status: 404 | 410): Promise<void> {
  expect(response.status).toBe(status);
  expect(((await response.json()) as { message: string }).message).toBe(GONE);
  expect(response.headers.get('cache-control')).toBe('no-store');
}

describe('share links through the gateway', () => {
  let demo: SignedInAgent;
  let rival: SignedInAgent;
  let owner: string;
  let projectId: string;
  let stems: SeparatedStem[];
  let otherProjectId: string;
  let otherStems: SeparatedStem[];
  let db: mongoose.Connection;
  const shareLinks = () => db.collection('share_links');

  beforeAll(async () => {
    [demo, rival] = await Promise.all([signIn('demo', 'demo'), signIn('rival', 'rival')]);
    owner = await ownerIdOf(demo);
    ({ projectId, stems } = await uploadSeparated(demo, makeClip('share-links.wav', 4), { fileName: 'Shared Song.wav' }));
    ({ projectId: otherProjectId, stems: otherStems } = await uploadSeparated(demo, makeClip('share-links.wav', 4), { fileName: 'Other Song.wav' }));
    db = await mongoose.createConnection(process.env.MONGODB_URI!).asPromise();
  }, 120_000);

  afterAll(async () => {
    await db?.close();
  });

  it('creates links for the owner (201 with the token and its /s/ url once), lists them newest first, revokes one', async () => {
    const forever = await created(demo, projectId);
    expect(forever).toMatchObject({ projectId, status: 'active', expiresAt: null, revokedAt: null, token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(forever.url).toBe(`${BASE_URL}/s/${forever.token}`);
    const week = await created(demo, projectId, { expiresInDays: 7 });
    const days = (Date.parse(week.expiresAt!) - Date.parse(week.createdAt)) / 86_400_000;
    expect(days).toBe(7);
    expect(week.token).not.toBe(forever.token);

    const listed = (await (await listLinks(demo, projectId)).json()) as ShareLink[];
    expect(listed.map((link) => link.id)).toEqual([week.id, forever.id]);
    // The token is shown once: the list has none.
    expect(JSON.stringify(listed)).not.toContain(forever.token);
    expect(listed[1]).toEqual({ id: forever.id, projectId, status: 'active', createdAt: forever.createdAt, expiresAt: null, revokedAt: null });

    const revoked = await revokeLink(demo, week.id);
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toMatchObject({ id: week.id, status: 'revoked', revokedAt: expect.any(String) });
    const after = (await (await listLinks(demo, projectId)).json()) as ShareLink[];
    expect(after.map((link) => [link.id, link.status])).toEqual([
      [week.id, 'revoked'],
      [forever.id, 'active'],
    ]);
  });

  it('keeps only the SHA-256 of a token in the database', async () => {
    const link = await created(demo, projectId);
    const doc = await shareLinks().findOne({ _id: link.id as never });
    expect(doc).not.toBeNull();
    expect(doc).toMatchObject({ ownerId: owner, projectId, tokenHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    for (const value of Object.values(doc!)) expect(String(value)).not.toBe(link.token);
    expect(JSON.stringify(doc)).not.toContain(link.token);
    // The hash is not a token: it opens nothing.
    await expectGone(await shareView(doc!.tokenHash as string), 404);
  });

  it('lets no one else list, revoke or create links on the owner\'s project (404), and no one signed out (401)', async () => {
    const link = await created(demo, projectId);
    expect((await listLinks(rival, projectId)).status).toBe(404);
    expect((await revokeLink(rival, link.id)).status).toBe(404);
    expect((await createLink(rival, projectId)).status).toBe(404);
    expect((await createLink(demo, 'no-such-project')).status).toBe(404);
    expect((await listLinks(demo, 'no-such-project')).status).toBe(404);
    expect((await revokeLink(demo, 'no-such-link')).status).toBe(404);
    expect((await signedOut(`/api/projects/${projectId}/share-links`)).status).toBe(401);
    expect((await signedOut(`/api/projects/${projectId}/share-links`, { method: 'POST', headers: json, body: '{}' })).status).toBe(401);
    // Still active: the rival's revoke changed nothing.
    expect(((await (await listLinks(demo, projectId)).json()) as ShareLink[]).find((l) => l.id === link.id)!.status).toBe('active');
    expect((await shareView(link.token)).status).toBe(200);
  });

  it.each<[string, unknown, string]>([
    ['0 days', { expiresInDays: 0 }, 'expiresInDays: Must be 1 to 365 days'],
    ['366 days', { expiresInDays: 366 }, 'expiresInDays: Must be 1 to 365 days'],
    ['1.5 days', { expiresInDays: 1.5 }, 'expiresInDays: Must be a whole number of days'],
    ['"7" as text', { expiresInDays: '7' }, 'expiresInDays: Must be a number of days'],
    ['an unknown field', { expiresIn: 7 }, 'expiresIn'],
  ])('answers 400 naming the field for %s', async (_case, body, message) => {
    const response = await createLink(demo, projectId, body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain(message);
  });

  it('opens the shared project signed out: name, analysis, the stems as the mixer plays them — no owner id, no object keys', async () => {
    const vocals = stems.find((stem) => stem.type === 'vocals')!;
    const bass = stems.find((stem) => stem.type === 'bass')!;
    const mix = (stemId: string, changes: unknown) =>
      demo.fetch(`/api/stems/${stemId}`, { method: 'PUT', headers: json, body: JSON.stringify(changes) });
    expect((await mix(vocals.id, { volume: -6 })).status).toBe(200);
    expect((await mix(bass.id, { muted: true })).status).toBe(200);
    const link = await created(demo, projectId, { expiresInDays: 30 });

    const response = await shareView(link.token);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('set-cookie')).toBeNull();
    const view = (await response.json()) as SharedProject;
    expect(view).toMatchObject({ name: 'Shared Song', bpm: expect.any(Number), expiresAt: link.expiresAt });
    expect(view.duration).toBeGreaterThan(3.5);
    // The project's own analysis, as its owner reads it.
    const analysis = await demo.fetch(`/api/projects/${projectId}/analysis`);
    expect(analysis.status).toBe(200);
    expect(view.analysis).toEqual(await analysis.json());
    expect(view.analysis).toMatchObject({ loudnessLufs: expect.any(Number), spotifyFeatures: expect.objectContaining({ tempo: expect.any(Number), danceability: expect.any(Number) }) });
    expect(view.stems.map((stem) => stem.id).sort()).toEqual(stems.map((stem) => stem.id).sort());
    expect(view.stems.find((stem) => stem.id === vocals.id)).toEqual({ id: vocals.id, type: 'vocals', volume: -6, muted: false, soloed: false, url: `/api/share/${link.token}/stems/${vocals.id}/audio` });
    expect(view.stems.find((stem) => stem.id === bass.id)).toMatchObject({ muted: true, volume: 0 });
    const text = JSON.stringify(view);
    expect(text).not.toContain(owner);
    expect(text).not.toContain('users/');
    expect(Object.keys(view).sort()).toEqual(['analysis', 'bpm', 'duration', 'expiresAt', 'key', 'name', 'stems']);
  });

  it('streams a shared stem\'s audio signed out with Range (206), the same bytes the owner hears; only the shared project\'s stems', async () => {
    const link = await created(demo, projectId);
    const view = (await (await shareView(link.token)).json()) as SharedProject;
    const drums = view.stems.find((stem) => stem.type === 'drums')!;
    const own = Buffer.from(await (await demo.fetch(stems.find((stem) => stem.id === drums.id)!.url)).arrayBuffer());
    expect(own.length).toBeGreaterThan(1000);

    const ranged = await signedOut(drums.url, { headers: { range: 'bytes=0-99' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 0-99/${own.length}`);
    expect(ranged.headers.get('cache-control')).toBe('no-store');
    expect(ranged.headers.get('referrer-policy')).toBe('no-referrer');
    expect(Buffer.from(await ranged.arrayBuffer())).toEqual(own.subarray(0, 100));
    const whole = await signedOut(drums.url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toMatch(/^audio\//);
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(own);
    const head = await signedOut(drums.url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(own.length));

    // Another project's stem (the same owner's) is not reachable through this link.
    const foreign = await signedOut(`/api/share/${link.token}/stems/${otherStems[0]!.id}/audio`);
    expect(foreign.status).toBe(404);
    expect((await signedOut(`/api/share/${link.token}/stems/no-such-stem/audio`)).status).toBe(404);
  });

  it('answers 410 for a revoked link and its audio, 404 for an unknown token, with "This link is no longer available"', async () => {
    const link = await created(demo, projectId);
    const audio = ((await (await shareView(link.token)).json()) as SharedProject).stems[0]!.url;
    expect((await revokeLink(demo, link.id)).status).toBe(200);
    await expectGone(await shareView(link.token), 410);
    await expectGone(await signedOut(audio, { headers: { range: 'bytes=0-99' } }), 410);
    // Revoking again changes nothing.
    expect(await (await revokeLink(demo, link.id)).json()).toMatchObject({ status: 'revoked' });
    await expectGone(await shareView('A'.repeat(43)), 404);
    await expectGone(await shareView('not-a-token'), 404);
    await expectGone(await signedOut(`/api/share/${'B'.repeat(43)}/stems/${stems[0]!.id}/audio`), 404);
  });

  it('answers 410 once a link has expired (its expiry moved into the past in the database) and lists it as expired', async () => {
    const link = await created(demo, projectId, { expiresInDays: 1 });
    expect((await shareView(link.token)).status).toBe(200);
    const moved = await shareLinks().updateOne({ _id: link.id as never }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    expect(moved.modifiedCount).toBe(1);
    await expectGone(await shareView(link.token), 410);
    const listed = (await (await listLinks(demo, projectId)).json()) as ShareLink[];
    expect(listed.find((l) => l.id === link.id)!.status).toBe('expired');
  });

  it('removes a project\'s links when the project is deleted (its tokens then answer 404)', async () => {
    const link = await created(demo, otherProjectId);
    const kept = await created(demo, projectId);
    expect((await shareView(link.token)).status).toBe(200);
    expect(await shareLinks().countDocuments({ projectId: otherProjectId })).toBe(1);

    expect((await demo.fetch(`/api/projects/${otherProjectId}`, { method: 'DELETE', headers: CSRF })).status).toBe(204);
    const deadline = Date.now() + 10_000;
    while ((await shareLinks().countDocuments({ projectId: otherProjectId })) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await shareLinks().countDocuments({ projectId: otherProjectId })).toBe(0);
    await expectGone(await shareView(link.token), 404);
    expect((await shareView(kept.token)).status).toBe(200);
  });
});
