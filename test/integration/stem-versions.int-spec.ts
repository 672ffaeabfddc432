import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type ClientProxy, ClientProxyFactory, Transport } from '@nestjs/microservices';
import { NatsRpcClient, ObjectStorageAdapter } from '@stemdeck/platform';
import { AttachEnhancedStemsReply, type AttachEnhancedStemsRequest, MEDIA_SUBJECTS, type Stem, enhanceJobPrefix, enhancedPrefix, projectPrefix } from '@stemdeck/proto';
import { gatewayNatsOptions } from '../../services/gateway/src/nats/nats.module';
import { CSRF } from '../support/env';
import { fixturePath, listen, makeClip, objectKeys, ownerIdOf, uploadSeparated } from '../support/media';
import { signIn, type SignedInAgent } from '../support/sign-in';

const json = { ...CSRF, 'content-type': 'application/json' };

/** The stack's object storage, where the jobs service would store an enhance job's outputs. */
const storage = new ObjectStorageAdapter({
  S3_ENDPOINT: process.env.S3_ENDPOINT ?? 'http://127.0.0.1:19000',
  S3_ACCESS_KEY: process.env.S3_ACCESS_KEY ?? 'stemdeck',
  S3_SECRET_KEY: process.env.S3_SECRET_KEY ?? 'stemdeck-dev-secret',
  S3_BUCKET: process.env.S3_BUCKET ?? 'stemdeck',
  S3_REGION: process.env.S3_REGION ?? 'us-east-1',
});

/** A short FLAC of one tone: a stand-in for an enhance job's output, unlike any separated stem. */
function toneFlac(fileName: string, frequency: number): Buffer {
  const path = fixturePath(fileName);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=frequency=${frequency}:sample_rate=44100:duration=2`, '-ac', '2', '-c:a', 'flac', path]);
  return readFileSync(path);
}

const bytesOf = async (agent: SignedInAgent, url: string): Promise<Buffer> => {
  const response = await agent.fetch(url);
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${await response.text()}`);
  return Buffer.from(await response.arrayBuffer());
};

const putStem = (agent: SignedInAgent, stemId: string, body: unknown) =>
  agent.fetch(`/api/stems/${encodeURIComponent(stemId)}`, { method: 'PUT', headers: json, body: JSON.stringify(body) });

const messageOf = async (response: Response): Promise<string> => ((await response.json()) as { message: string }).message;

describe('stem versions: an enhance job\'s outputs attached in media, served and switched through the gateway', () => {
  let demo: SignedInAgent;
  let rival: SignedInAgent;
  let owner: string;
  let projectId: string;
  let vocals: Stem;
  let drums: Stem;
  let originalVocals: Buffer;
  let client: ClientProxy;
  let rpc: NatsRpcClient;
  let firstEnhanced: Buffer;
  let secondEnhanced: Buffer;

  const stemsOf = async (): Promise<Stem[]> => (await (await demo.fetch(`/api/projects/${projectId}/stems`)).json()) as Stem[];
  const stemOf = async (id: string): Promise<Stem> => (await stemsOf()).find((stem) => stem.id === id)!;
  /** The jobs service's call once an enhance job's outputs are stored, made here directly on the stack's NATS. */
  const attach = (request: AttachEnhancedStemsRequest) => rpc.request(MEDIA_SUBJECTS.attachEnhancedStems, request, AttachEnhancedStemsReply, 10_000);
  /** Stores `body` as the enhance job's output for a stem type, where the jobs service keeps it. */
  const storeOutput = async (jobId: string, type: string, body: Buffer): Promise<string> => {
    const key = `${enhanceJobPrefix(owner, projectId, jobId)}${type}.flac`;
    await storage.putBuffer(key, body, 'audio/flac');
    return key;
  };

  beforeAll(async () => {
    [demo, rival] = await Promise.all([signIn('demo', 'demo'), signIn('rival', 'rival')]);
    owner = await ownerIdOf(demo);
    firstEnhanced = toneFlac('stem-versions-enhanced-1.flac', 1234);
    secondEnhanced = toneFlac('stem-versions-enhanced-2.flac', 777);
    ({ projectId } = await uploadSeparated(demo, makeClip('stem-versions.ogg', 4, { codecArgs: ['-c:a', 'libvorbis'] })));
    const stems = await stemsOf();
    vocals = stems.find((stem) => stem.type === 'vocals')!;
    drums = stems.find((stem) => stem.type === 'drums')!;
    originalVocals = await bytesOf(demo, vocals.url);
    client = ClientProxyFactory.create({ transport: Transport.NATS, options: gatewayNatsOptions(process.env.NATS_URL ?? 'nats://127.0.0.1:14222') });
    await client.connect();
    rpc = new NatsRpcClient(client);
  }, 90_000);

  afterAll(async () => {
    await client?.close();
  });

  it('starts with every stem on its original version, none enhanced, at the plain url', async () => {
    for (const stem of await stemsOf()) {
      expect(stem).toMatchObject({ version: 'original', enhanced: null, url: `/api/stems/${encodeURIComponent(stem.id)}/audio` });
    }
    expect(originalVocals.subarray(0, 4).toString('latin1')).toBe('fLaC');
  });

  it('attaches an enhance job\'s output: the stem plays it at a url of its own, open mixers hear of it, the original stays', async () => {
    const live = await listen(demo);
    try {
      const key = await storeOutput('job-1', 'vocals', firstEnhanced);
      const reply = await attach({ ownerId: owner, projectId, jobId: 'job-1', stems: [{ stemId: vocals.id, objectKey: key }] });
      expect(reply).toMatchObject({ ok: true, value: [{ id: vocals.id, version: 'enhanced', enhanced: { jobId: 'job-1', createdAt: expect.any(String) } }] });

      const event = await live.waitFor((e) => e.type === 'stem_updated' && (e.stem as Stem).id === vocals.id);
      expect(event.changes).toEqual({ version: 'enhanced' });
      expect(event.stem).toMatchObject({ version: 'enhanced', enhanced: { jobId: 'job-1' }, url: expect.stringContaining('version=enhanced') });

      const listed = await stemOf(vocals.id);
      expect(listed).toMatchObject({ version: 'enhanced', enhanced: { jobId: 'job-1' }, volume: vocals.volume });
      expect(listed.url).not.toBe(vocals.url);
      expect((event.stem as Stem).url).toBe(listed.url);
      expect(await stemOf(drums.id)).toMatchObject({ version: 'original', enhanced: null, url: drums.url });

      const enhancedResponse = await demo.fetch(listed.url);
      expect(enhancedResponse.status).toBe(200);
      expect(enhancedResponse.headers.get('content-type')).toBe('audio/flac');
      expect(enhancedResponse.headers.get('content-disposition')).toContain('vocals (enhanced).flac');
      expect(Buffer.from(await enhancedResponse.arrayBuffer())).toEqual(firstEnhanced);
      // The plain url serves the version the stem plays; ?version= picks one.
      expect(await bytesOf(demo, `/api/stems/${encodeURIComponent(vocals.id)}/audio`)).toEqual(firstEnhanced);
      expect(await bytesOf(demo, `/api/stems/${encodeURIComponent(vocals.id)}/audio?version=original`)).toEqual(originalVocals);
      expect(await bytesOf(demo, `/api/stems/${encodeURIComponent(vocals.id)}/audio?version=enhanced`)).toEqual(firstEnhanced);

      const ranged = await demo.fetch(listed.url, { headers: { range: 'bytes=0-9' } });
      expect(ranged.status).toBe(206);
      expect(Buffer.from(await ranged.arrayBuffer())).toEqual(firstEnhanced.subarray(0, 10));
    } finally {
      live.close();
    }
  });

  it('switches back to the original and to the enhanced version with PUT, announced to the owner\'s other sockets', async () => {
    const live = await listen(demo);
    try {
      const back = await putStem(demo, vocals.id, { version: 'original' });
      expect(back.status).toBe(200);
      expect(await back.json()).toMatchObject({ id: vocals.id, version: 'original', enhanced: { jobId: 'job-1' }, url: vocals.url });
      await live.waitFor((e) => e.type === 'stem_updated' && (e.stem as Stem).id === vocals.id && (e.changes as { version?: string }).version === 'original');
      expect(await stemOf(vocals.id)).toMatchObject({ version: 'original', url: vocals.url });
      expect(await bytesOf(demo, vocals.url)).toEqual(originalVocals);

      const again = await putStem(demo, vocals.id, { version: 'enhanced' });
      expect(again.status).toBe(200);
      const enhanced = (await again.json()) as Stem;
      expect(enhanced).toMatchObject({ version: 'enhanced', enhanced: { jobId: 'job-1' } });
      expect(await bytesOf(demo, enhanced.url)).toEqual(firstEnhanced);
    } finally {
      live.close();
    }
  });

  it('switches versions over /ws too: stem_saved to the sender, stem_updated to the owner\'s other socket', async () => {
    const [sender, other] = await Promise.all([listen(demo), listen(demo)]);
    try {
      sender.send({ type: 'stem_update', id: 'switch-1', stemId: vocals.id, version: 'original' });
      await sender.waitFor((e) => e.type === 'stem_saved' && e.id === 'switch-1');
      const seen = await other.waitFor((e) => e.type === 'stem_updated' && (e.stem as Stem).id === vocals.id && (e.changes as { version?: string }).version === 'original');
      expect((seen.stem as Stem).url).toBe(vocals.url);
      expect(await stemOf(vocals.id)).toMatchObject({ version: 'original' });

      sender.send({ type: 'stem_update', id: 'switch-2', stemId: drums.id, version: 'enhanced' });
      const refused = await sender.waitFor((e) => e.type === 'error' && e.id === 'switch-2');
      expect(refused).toMatchObject({ for: 'stem_update', message: 'This stem has no enhanced version yet' });

      sender.send({ type: 'stem_update', id: 'switch-3', stemId: vocals.id, version: 'enhanced' });
      await sender.waitFor((e) => e.type === 'stem_saved' && e.id === 'switch-3');
      expect(await stemOf(vocals.id)).toMatchObject({ version: 'enhanced' });
    } finally {
      sender.close();
      other.close();
    }
  });

  it('answers 409 with its reason for switching a stem to an enhanced version it does not have, and 404 for that audio', async () => {
    const refused = await putStem(demo, drums.id, { version: 'enhanced' });
    expect(refused.status).toBe(409);
    expect(await messageOf(refused)).toBe('This stem has no enhanced version yet');
    expect(await stemOf(drums.id)).toMatchObject({ version: 'original', enhanced: null });

    const missing = await demo.fetch(`/api/stems/${encodeURIComponent(drums.id)}/audio?version=enhanced`);
    expect(missing.status).toBe(404);
    expect(await messageOf(missing)).toBe('This stem has no enhanced version');
  });

  it.each([
    ['an unknown version', '?version=bogus'],
    ['two versions', '?version=original&version=enhanced'],
  ])('answers 400 naming `version` for %s', async (_case, query) => {
    const response = await demo.fetch(`/api/stems/${encodeURIComponent(vocals.id)}/audio${query}`);
    expect(response.status).toBe(400);
    expect(await messageOf(response)).toContain('version');
  });

  it('answers 400 naming `version` for a PUT with an unknown version, storing nothing', async () => {
    const response = await putStem(demo, vocals.id, { version: 'remastered' });
    expect(response.status).toBe(400);
    expect(await messageOf(response)).toContain('version');
    expect(await stemOf(vocals.id)).toMatchObject({ version: 'enhanced' });
  });

  it("answers 404 to another user for the stem's audio, either version, and for switching it", async () => {
    for (const url of [vocals.url, `${vocals.url}?version=enhanced`, `${vocals.url}?version=original`, (await stemOf(vocals.id)).url]) {
      expect((await rival.fetch(url)).status).toBe(404);
    }
    const put = await putStem(rival, vocals.id, { version: 'original' });
    expect(put.status).toBe(404);
    expect(await stemOf(vocals.id)).toMatchObject({ version: 'enhanced', enhanced: { jobId: 'job-1' } });
  });

  it("answers 404 for an attach naming an unknown or another user's stem or project, changing nothing", async () => {
    const drumsKey = await storeOutput('job-x', 'drums', secondEnhanced);
    const vocalsKey = await storeOutput('job-x', 'vocals', secondEnhanced);
    const before = await stemsOf();

    const unknown = await attach({
      ownerId: owner,
      projectId,
      jobId: 'job-x',
      stems: [
        { stemId: drums.id, objectKey: drumsKey },
        { stemId: `${projectId}-fast-kazoo`, objectKey: vocalsKey },
      ],
    });
    expect(unknown).toEqual({ ok: false, status: 404, message: 'Stem not found' });

    const rivalId = await ownerIdOf(rival);
    const foreign = await attach({ ownerId: rivalId, projectId, jobId: 'job-x', stems: [{ stemId: drums.id, objectKey: `${enhanceJobPrefix(rivalId, projectId, 'job-x')}drums.flac` }] });
    expect(foreign).toMatchObject({ ok: false, status: 404 });

    const elsewhere = await attach({ ownerId: owner, projectId, jobId: 'job-x', stems: [{ stemId: drums.id, objectKey: `${projectPrefix(owner, projectId)}original` }] });
    expect(elsewhere).toMatchObject({ ok: false, status: 400, message: expect.stringContaining('objectKey') });

    expect(await stemsOf()).toEqual(before);
  });

  it("replaces an older job's enhanced version with a newer job's: a new url, the new sound, the older objects left to the jobs service", async () => {
    const before = await stemOf(vocals.id);
    const key = await storeOutput('job-2', 'vocals', secondEnhanced);
    const reply = await attach({ ownerId: owner, projectId, jobId: 'job-2', stems: [{ stemId: vocals.id, objectKey: key }] });
    expect(reply).toMatchObject({ ok: true, value: [{ id: vocals.id, version: 'enhanced', enhanced: { jobId: 'job-2' } }] });

    const after = await stemOf(vocals.id);
    expect(after.url).not.toBe(before.url);
    expect(after.url).not.toBe(vocals.url);
    expect(await bytesOf(demo, after.url)).toEqual(secondEnhanced);
    expect(await bytesOf(demo, `${vocals.url}?version=original`)).toEqual(originalVocals);
    expect(await objectKeys(enhanceJobPrefix(owner, projectId, 'job-1'))).toEqual([`${enhanceJobPrefix(owner, projectId, 'job-1')}vocals.flac`]);
  });

  it('removes every enhanced object with the project', async () => {
    expect((await objectKeys(enhancedPrefix(owner, projectId))).length).toBeGreaterThanOrEqual(3);
    const deleted = await demo.fetch(`/api/projects/${projectId}`, { method: 'DELETE', headers: CSRF });
    expect(deleted.status).toBe(204);
    expect(await objectKeys(enhancedPrefix(owner, projectId))).toEqual([]);
    expect(await objectKeys(projectPrefix(owner, projectId))).toEqual([]);
    expect((await demo.fetch(vocals.url)).status).toBe(404);
  });
});
