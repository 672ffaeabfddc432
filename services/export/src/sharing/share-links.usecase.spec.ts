import { SHARE_LINK_GONE_MESSAGE } from '@stemdeck/proto';
import { CreateShareLinkUseCase, PROJECT_NOT_FOUND } from './create-share-link.usecase';
import { DeleteProjectShareLinksUseCase } from './delete-project-share-links.usecase';
import { ResolveShareLinkUseCase } from './resolve-share-link.usecase';
import { RevokeShareLinkUseCase, SHARE_LINK_NOT_FOUND } from './revoke-share-link.usecase';
import { ShareLinkQueries } from './share-link.queries';
import { hashShareToken } from './share-token';
import { FakeSharedProjects, InMemoryShareLinks, ManualClock, SequentialLinkIds } from './testing/in-memory-share-links';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('share links', () => {
  let links: InMemoryShareLinks;
  let projects: FakeSharedProjects;
  let clock: ManualClock;
  let create: CreateShareLinkUseCase;
  let queries: ShareLinkQueries;
  let revoke: RevokeShareLinkUseCase;
  let resolve: ResolveShareLinkUseCase;

  beforeEach(() => {
    links = new InMemoryShareLinks();
    projects = new FakeSharedProjects().add('u1', 'p1').add('u1', 'p2').add('u2', 'p9');
    clock = new ManualClock();
    create = new CreateShareLinkUseCase(links, projects, clock, new SequentialLinkIds());
    queries = new ShareLinkQueries(links, projects, clock);
    revoke = new RevokeShareLinkUseCase(links, clock);
    resolve = new ResolveShareLinkUseCase(links, clock);
  });

  it('creates a link with a 43-character base64url token shown once; only its SHA-256 is stored', async () => {
    const created = await create.execute('u1', 'p1', { expiresInDays: null });
    expect(created).toEqual({
      id: 'link-1',
      projectId: 'p1',
      status: 'active',
      createdAt: new Date(clock.time).toISOString(),
      expiresAt: null,
      revokedAt: null,
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const stored = links.docs.get('link-1')!;
    expect(stored.tokenHash).toBe(hashShareToken(created.token));
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.values(stored)).not.toContain(created.token);
    expect(JSON.stringify(stored)).not.toContain(created.token);
  });

  it('gives every link its own token', async () => {
    const tokens = new Set<string>();
    for (let i = 0; i < 50; i++) tokens.add((await create.execute('u1', 'p1', { expiresInDays: null })).token);
    expect(tokens.size).toBe(50);
  });

  it('sets the expiry in whole days from now', async () => {
    const created = await create.execute('u1', 'p1', { expiresInDays: 7 });
    expect(created.expiresAt).toBe(new Date(clock.time + 7 * DAY_MS).toISOString());
  });

  it('refuses a project that is not the owner\'s (404) for create and list, storing nothing', async () => {
    await expect(create.execute('u1', 'p9', { expiresInDays: null })).rejects.toMatchObject({ status: 404, message: PROJECT_NOT_FOUND });
    await expect(create.execute('u2', 'p1', { expiresInDays: null })).rejects.toMatchObject({ status: 404, message: PROJECT_NOT_FOUND });
    await expect(queries.listForProject('u2', 'p1')).rejects.toMatchObject({ status: 404, message: PROJECT_NOT_FOUND });
    expect(links.docs.size).toBe(0);
  });

  it('lists the owner\'s links of one project newest first, each with its status now', async () => {
    const forever = await create.execute('u1', 'p1', { expiresInDays: null });
    clock.advance(1000);
    const day = await create.execute('u1', 'p1', { expiresInDays: 1 });
    clock.advance(1000);
    const revoked = await create.execute('u1', 'p1', { expiresInDays: 30 });
    await create.execute('u1', 'p2', { expiresInDays: null });
    await revoke.execute('u1', revoked.id);

    expect((await queries.listForProject('u1', 'p1')).map((link) => [link.id, link.status])).toEqual([
      [revoked.id, 'revoked'],
      [day.id, 'active'],
      [forever.id, 'active'],
    ]);
    clock.advance(DAY_MS);
    expect((await queries.listForProject('u1', 'p1')).map((link) => [link.id, link.status])).toEqual([
      [revoked.id, 'revoked'],
      [day.id, 'expired'],
      [forever.id, 'active'],
    ]);
  });

  it('revokes the owner\'s link once (a second revoke keeps the first time); another user\'s or an unknown link is 404', async () => {
    const link = await create.execute('u1', 'p1', { expiresInDays: null });
    await expect(revoke.execute('u2', link.id)).rejects.toMatchObject({ status: 404, message: SHARE_LINK_NOT_FOUND });
    await expect(revoke.execute('u1', 'no-such-link')).rejects.toMatchObject({ status: 404, message: SHARE_LINK_NOT_FOUND });
    expect(links.docs.get(link.id)!.revokedAt).toBeNull();

    const first = await revoke.execute('u1', link.id);
    expect(first).toMatchObject({ id: link.id, status: 'revoked', revokedAt: new Date(clock.time).toISOString() });
    clock.advance(5000);
    expect(await revoke.execute('u1', link.id)).toEqual(first);
  });

  it('resolves an active token to its owner and project', async () => {
    const link = await create.execute('u1', 'p1', { expiresInDays: 2 });
    expect(await resolve.execute(link.token)).toEqual({ ownerId: 'u1', projectId: 'p1', linkId: link.id, expiresAt: link.expiresAt });
  });

  it('answers 410 for a revoked or expired token and 404 for an unknown or malformed one, all with the same words', async () => {
    const revoked = await create.execute('u1', 'p1', { expiresInDays: null });
    const expiring = await create.execute('u1', 'p1', { expiresInDays: 1 });
    await revoke.execute('u1', revoked.id);
    await expect(resolve.execute(revoked.token)).rejects.toMatchObject({ status: 410, message: SHARE_LINK_GONE_MESSAGE });

    expect((await resolve.execute(expiring.token)).linkId).toBe(expiring.id);
    clock.advance(DAY_MS - 1);
    expect((await resolve.execute(expiring.token)).linkId).toBe(expiring.id);
    clock.advance(1);
    await expect(resolve.execute(expiring.token)).rejects.toMatchObject({ status: 410, message: SHARE_LINK_GONE_MESSAGE });

    const unknown = 'A'.repeat(43);
    await expect(resolve.execute(unknown)).rejects.toMatchObject({ status: 404, message: SHARE_LINK_GONE_MESSAGE });
    await expect(resolve.execute('not a token')).rejects.toMatchObject({ status: 404, message: SHARE_LINK_GONE_MESSAGE });
    // The stored hash is not a key to the link either.
    await expect(resolve.execute(links.docs.get(expiring.id)!.tokenHash)).rejects.toMatchObject({ status: 404, message: SHARE_LINK_GONE_MESSAGE });
  });

  it('removes a deleted project\'s links, and only that project\'s', async () => {
    const gone = await create.execute('u1', 'p1', { expiresInDays: null });
    const kept = await create.execute('u1', 'p2', { expiresInDays: null });
    await new DeleteProjectShareLinksUseCase(links).execute('u1', 'p1');
    expect([...links.docs.keys()]).toEqual([kept.id]);
    await expect(resolve.execute(gone.token)).rejects.toMatchObject({ status: 404, message: SHARE_LINK_GONE_MESSAGE });
    expect((await resolve.execute(kept.token)).projectId).toBe('p2');
  });
});
