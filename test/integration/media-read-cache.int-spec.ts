import mongoose from 'mongoose';
import { connect, type NatsConnection } from 'nats';
import { BASE_URL_2, CSRF } from '../support/env';
import { makeClip, ownerIdOf, uploadSeparated } from '../support/media';
import { signInExtraUser } from '../support/sessions';
import type { SignedInAgent } from '../support/sign-in';
import { eventually } from '../support/stack-control';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:14222';
/** The subject media instances announce their changes on (services/media/src/read-cache/read-cache.link.ts). */
const CHANGES = 'stemdeck.media.read-cache.changed';
/** The stack's MEDIA_READ_CACHE_TTL_MS (media's default). */
const TTL_MS = 30_000;
const json = { ...CSRF, 'content-type': 'application/json' };

/**
 * Promise: media answers an owner's repeated reads from memory, yet a reader never sees less than what was
 * changed before it asked: a change through the API shows at once on either gateway replica, a change another
 * media instance made (written to the database and announced on NATS) shows as soon as the announcement is
 * heard, and a change whose announcement was lost shows within the cache's time limit. The spec plays the other
 * instance itself: it writes the database and announces, or writes without announcing. Its own user, so no
 * other spec's work drops the reads it watches.
 */
describe('media answers repeated reads from memory and never serves a change late', () => {
  let connection: mongoose.Connection;
  let nats: NatsConnection;
  let owner: SignedInAgent;
  let ownerId: string;
  let projectId: string;

  const nameOnApi = async (base?: string) => {
    const answer = base ? await fetch(`${base}/api/projects/${projectId}`, { headers: { cookie: owner.cookie } }) : await owner.fetch(`/api/projects/${projectId}`);
    expect(answer.status).toBe(200);
    return ((await answer.json()) as { name: string }).name;
  };
  const listedName = async () => {
    const list = (await (await owner.fetch('/api/projects')).json()) as Array<{ id: string; name: string }>;
    return list.find((p) => p.id === projectId)?.name;
  };
  /** What another media instance does: the database write (and, when it is not lost, the announcement). */
  const renameElsewhere = (name: string) => connection.collection('projects').updateOne({ _id: projectId as never }, { $set: { name } });
  const announce = async () => {
    nats.publish(CHANGES, new TextEncoder().encode(JSON.stringify({ ownerId, scope: 'projects', instance: 'spec-instance' })));
    await nats.flush();
  };

  beforeAll(async () => {
    [connection, nats, owner] = await Promise.all([
      mongoose.createConnection(process.env.MONGODB_URI!).asPromise(),
      connect({ servers: NATS_URL }),
      signInExtraUser('read-cache-owner', 'Read', 'Cache'),
    ]);
    ownerId = await ownerIdOf(owner);
    const created = await owner.fetch('/api/projects', { method: 'POST', headers: json, body: JSON.stringify({ name: 'First name', originalFile: 'take.wav', duration: 30 }) });
    expect(created.status).toBe(201);
    projectId = ((await created.json()) as { id: string }).id;
  }, 60_000);

  afterAll(async () => {
    await owner.fetch(`/api/projects/${projectId}`, { method: 'DELETE', headers: CSRF });
    await Promise.all([connection.close(), nats.drain()]);
  });

  it('shows a change made through the API at once, on the replica that made it and on the other', async () => {
    expect(await nameOnApi()).toBe('First name');
    expect(await nameOnApi(BASE_URL_2)).toBe('First name');
    expect(await listedName()).toBe('First name');
    const renamed = await fetch(`${BASE_URL_2}/api/projects/${projectId}`, {
      method: 'PATCH',
      headers: { ...json, origin: BASE_URL_2, cookie: owner.cookie },
      body: JSON.stringify({ name: 'Renamed on replica 2' }),
    });
    expect(renamed.status).toBe(200);
    expect(await nameOnApi()).toBe('Renamed on replica 2');
    expect(await listedName()).toBe('Renamed on replica 2');
  });

  it("answers from memory until another instance's change is announced, then at once from the database", async () => {
    expect(await nameOnApi()).toBe('Renamed on replica 2');
    expect(await listedName()).toBe('Renamed on replica 2');
    await renameElsewhere('Renamed elsewhere');
    // Not announced yet: the reads are the ones kept in memory (this is what makes the spec able to fail).
    expect(await nameOnApi()).toBe('Renamed on replica 2');
    expect(await listedName()).toBe('Renamed on replica 2');
    await announce();
    const heardWithin = Date.now();
    await eventually('the announced change', async () => ((await nameOnApi()) === 'Renamed elsewhere' ? true : undefined), 2000);
    expect(Date.now() - heardWithin).toBeLessThan(1000);
    expect(await listedName()).toBe('Renamed elsewhere');
  });

  it('shows a change whose announcement was lost within the time limit', async () => {
    // The read is kept from here (no change of this owner's projects until the end of this test).
    const keptFrom = Date.now();
    expect(await nameOnApi()).toBe('Renamed elsewhere');
    await renameElsewhere('Announcement lost');
    expect(await nameOnApi()).toBe('Renamed elsewhere');
    const seen = await eventually('the unannounced change', async () => ((await nameOnApi()) === 'Announcement lost' ? Date.now() : undefined), TTL_MS + 3000);
    expect(seen - keptFrom).toBeLessThanOrEqual(TTL_MS + 1000);
  }, TTL_MS + 15_000);

  it("keeps a project's stems in memory through the mixer's changes, each change shown at once on either replica", async () => {
    const { projectId: songId } = await uploadSeparated(owner, makeClip('read-cache-song.wav', 4));
    type Stem = { id: string; type: string; volume: number };
    const stemsOn = async (base?: string): Promise<Stem[]> => {
      const path = `/api/projects/${songId}/stems`;
      const answer = base ? await fetch(`${base}${path}`, { headers: { cookie: owner.cookie } }) : await owner.fetch(path);
      expect(answer.status).toBe(200);
      return (await answer.json()) as Stem[];
    };
    const volumeOf = (stems: Stem[], type: string) => stems.find((s) => s.type === type)?.volume;
    const before = await stemsOn();
    expect(before.map((s) => s.type)).toEqual(['vocals', 'drums', 'bass', 'other']);
    const vocals = before.find((s) => s.type === 'vocals')!;
    const drums = before.find((s) => s.type === 'drums')!;

    for (const [volume, base] of [[-6, BASE_URL_2], [-12, undefined]] as const) {
      const changed = base
        ? await fetch(`${base}/api/stems/${vocals.id}`, { method: 'PUT', headers: { ...json, origin: base, cookie: owner.cookie }, body: JSON.stringify({ volume }) })
        : await owner.fetch(`/api/stems/${vocals.id}`, { method: 'PUT', headers: json, body: JSON.stringify({ volume }) });
      expect(changed.status).toBe(200);
      expect(volumeOf(await stemsOn(), 'vocals')).toBe(volume);
      expect(volumeOf(await stemsOn(BASE_URL_2), 'vocals')).toBe(volume);
    }

    // The list stays kept through those changes (rewritten, not read again): a change written behind media's
    // back is not seen until it is announced.
    await connection.collection('stems').updateOne({ _id: drums.id as never }, { $set: { volume: -3 } });
    expect(volumeOf(await stemsOn(), 'drums')).toBe(0);
    nats.publish(CHANGES, new TextEncoder().encode(JSON.stringify({ ownerId, scope: 'stems', instance: 'spec-instance' })));
    await nats.flush();
    await eventually('the announced stem change', async () => (volumeOf(await stemsOn(), 'drums') === -3 ? true : undefined), 2000);
    expect(volumeOf(await stemsOn(), 'vocals')).toBe(-12);
    await owner.fetch(`/api/projects/${songId}`, { method: 'DELETE', headers: CSRF });
  }, 60_000);
});
