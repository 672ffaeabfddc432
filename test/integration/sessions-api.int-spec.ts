import type { Participant, Session } from '@stemdeck/proto';
import { BASE_URL, CSRF } from '../support/env';
import { makeClip, ownerIdOf, uploadSeparated, type SeparatedStem } from '../support/media';
import {
  createSession,
  joinSession,
  onSecondReplica,
  sessionMessages,
  sessionParticipants,
  sessionsApi,
  sessionStems,
  signInExtraUser,
} from '../support/sessions';
import { signIn, type SignedInAgent } from '../support/sign-in';

const NOT_FOUND = 'Session not found';
const RATE_LIMITED = 'You are sending messages too fast. Wait a few seconds and try again.';

/** An error answer in the house format: the status, the words, and an errorId for the log. */
async function expectError(response: Response, status: number, message: string): Promise<void> {
  const body = (await response.json()) as { statusCode: number; message: string; errorId: string };
  expect({ status: response.status, message: body.message }).toEqual({ status, message });
  expect(body).toEqual({ statusCode: status, message, errorId: expect.any(String) });
}

const roles = (participants: Participant[]) => Object.fromEntries(participants.map((p) => [p.userId, p.role]));

describe('collaborative sessions over REST', () => {
  let demo: SignedInAgent;
  let rival: SignedInAgent;
  /** A third person (the realm has two), for a two-seat session with no room left. */
  let third: SignedInAgent;
  let demoId: string;
  let rivalId: string;
  let thirdId: string;
  /** Demo's song, the project every session here is made on; no test changes it. */
  let projectId: string;
  let stems: SeparatedStem[];
  /** Another of demo's songs: its stems are not any session's. */
  let otherStems: SeparatedStem[];
  /** A project of rival's. */
  let rivalProjectId: string;

  beforeAll(async () => {
    [demo, rival, third] = await Promise.all([signIn('demo', 'demo'), signIn('rival', 'rival'), signInExtraUser('sessions-third', 'Third', 'Player')]);
    [demoId, rivalId, thirdId] = await Promise.all([ownerIdOf(demo), ownerIdOf(rival), ownerIdOf(third)]);
    const clip = makeClip('sessions-api.wav', 4);
    [{ projectId, stems }, { stems: otherStems }] = await Promise.all([
      uploadSeparated(demo, clip, { fileName: 'Jam Song.wav' }),
      uploadSeparated(demo, clip, { fileName: 'Other Song.wav' }),
    ]);
    const made = await rival.fetch('/api/projects', {
      method: 'POST',
      headers: { ...CSRF, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rival Song', originalFile: 'rival.wav', duration: 30 }),
    });
    expect(made.status).toBe(201);
    rivalProjectId = ((await made.json()) as { id: string }).id;
  }, 120_000);

  it("makes a session on the caller's own project: 201, 8 seats by default, the host its first participant", async () => {
    const response = await sessionsApi.create(demo, { name: '  Friday jam  ', projectId, hostUserId: demoId });
    expect(response.status).toBe(201);
    const session = (await response.json()) as Session;
    expect(session).toEqual({
      id: expect.any(String),
      name: 'Friday jam',
      projectId,
      projectName: 'Jam Song',
      hostUserId: demoId,
      hostName: 'Demo User',
      maxParticipants: 8,
      isActive: true,
      participantCount: 1,
      createdAt: expect.any(String),
    });
    expect(await (await sessionsApi.get(demo, session.id)).json()).toEqual(session);
    const participants = await sessionParticipants(demo, session.id);
    expect(participants).toEqual([
      { id: expect.any(String), sessionId: session.id, userId: demoId, name: 'Demo User', role: 'host', isOnline: false, lastActive: expect.any(String) },
    ]);
    expect((await createSession(demo, demoId, projectId, { maxParticipants: 16 })).maxParticipants).toBe(16);
    expect((await createSession(demo, demoId, projectId, { maxParticipants: 2 })).maxParticipants).toBe(2);
  });

  it("refuses a bad body with the product's words (400 in the house format)", async () => {
    const body = { name: 'Jam', projectId, hostUserId: demoId };
    const cases: Array<[unknown, string]> = [
      [{ ...body, name: '   ' }, 'name: Session name is required'],
      [{ projectId, hostUserId: demoId }, 'name: Session name is required'],
      [{ ...body, projectId: '' }, 'projectId: Project is required'],
      [{ name: 'Jam', hostUserId: demoId }, 'projectId: Project is required'],
      [{ name: 'Jam', projectId }, 'hostUserId: Host user ID is required'],
      [{ ...body, maxParticipants: 1 }, 'maxParticipants: Maximum participants must be at least 2'],
      [{ ...body, maxParticipants: 17 }, 'maxParticipants: Maximum participants can be at most 16'],
    ];
    for (const [bad, message] of cases) await expectError(await sessionsApi.create(demo, bad), 400, message);
    // None of them made a session.
    expect(((await (await sessionsApi.list(demo, demoId)).json()) as Session[]).filter((s) => s.name === 'Jam')).toEqual([]);
  });

  it("refuses a host other than the caller (403) and another user's or an unknown project (404)", async () => {
    await expectError(await sessionsApi.create(demo, { name: 'Jam', projectId, hostUserId: rivalId }), 403, 'You can only create sessions as yourself');
    await expectError(await sessionsApi.create(demo, { name: 'Jam', projectId: rivalProjectId, hostUserId: demoId }), 404, 'Project not found');
    await expectError(await sessionsApi.create(rival, { name: 'Jam', projectId, hostUserId: rivalId }), 404, 'Project not found');
    await expectError(await sessionsApi.create(demo, { name: 'Jam', projectId: 'no-such-project', hostUserId: demoId }), 404, 'Project not found');
    expect((await fetch(`${BASE_URL}/api/sessions`, { method: 'POST', headers: CSRF })).status).toBe(401);
    expect((await fetch(`${BASE_URL}/api/users/${demoId}/sessions`)).status).toBe(401);
  });

  it('lists the sessions a user hosts or has joined; another user\'s list is 403', async () => {
    const session = await createSession(demo, demoId, projectId, { name: 'Listed jam' });
    const listOf = async (agent: SignedInAgent, userId: string) => ((await (await sessionsApi.list(agent, userId)).json()) as Session[]).map((s) => s.id);
    expect(await listOf(demo, demoId)).toContain(session.id);
    expect(await listOf(rival, rivalId)).not.toContain(session.id);
    await joinSession(rival, rivalId, session.id);
    expect(await listOf(rival, rivalId)).toContain(session.id);
    await expectError(await sessionsApi.list(rival, demoId), 403, 'You can only see your own sessions');
    await expectError(await sessionsApi.list(demo, rivalId), 403, 'You can only see your own sessions');
  });

  it('joins: 200 with the session and the participant; a rejoin keeps the role; unknown 404; joining as someone else 403', async () => {
    const session = await createSession(demo, demoId, projectId);
    const response = await sessionsApi.join(rival, session.id, { userId: rivalId, role: 'collaborator' });
    expect(response.status).toBe(200);
    const joined = (await response.json()) as { session: Session; participant: Participant };
    expect(joined.session).toMatchObject({ id: session.id, participantCount: 2, isActive: true });
    expect(joined.participant).toMatchObject({ sessionId: session.id, userId: rivalId, name: 'Rival Tester', role: 'collaborator' });
    const again = await joinSession(rival, rivalId, session.id, 'viewer');
    expect(again.participant).toMatchObject({ id: joined.participant.id, role: 'collaborator' });
    expect(again.session.participantCount).toBe(2);
    await expectError(await sessionsApi.join(rival, 'no-such-session', { userId: rivalId }), 404, NOT_FOUND);
    await expectError(await sessionsApi.join(third, session.id, { userId: rivalId }), 403, 'You can only join a session as yourself');
    await expectError(await sessionsApi.join(third, session.id, {}), 400, 'userId: User ID is required');
    // Nobody but its maker becomes the host.
    await expectError(await sessionsApi.join(third, session.id, { userId: thirdId, role: 'host' }), 403, 'Only the person who created the session is its host');
    expect(roles(await sessionParticipants(demo, session.id))).toEqual({ [demoId]: 'host', [rivalId]: 'collaborator' });
  });

  it("is full at its seats (409 'Session is full'), though a participant rejoining always fits", async () => {
    const session = await createSession(demo, demoId, projectId, { maxParticipants: 2 });
    await joinSession(rival, rivalId, session.id);
    await expectError(await sessionsApi.join(third, session.id, { userId: thirdId, role: 'viewer' }), 409, 'Session is full');
    expect((await joinSession(rival, rivalId, session.id)).session.participantCount).toBe(2);
    expect((await sessionsApi.join(demo, session.id, { userId: demoId, role: 'host' })).status).toBe(200);
    // A seat freed by someone leaving is taken.
    expect((await sessionsApi.remove(rival, session.id, rivalId)).status).toBe(204);
    expect((await joinSession(third, thirdId, session.id, 'viewer')).participant.role).toBe('viewer');
  });

  it("ends when its host leaves: inactive, and joining is 409 'Session is not active'", async () => {
    const session = await createSession(demo, demoId, projectId);
    await joinSession(rival, rivalId, session.id);
    expect((await sessionsApi.remove(demo, session.id, demoId)).status).toBe(204);
    expect(((await (await sessionsApi.get(rival, session.id)).json()) as Session).isActive).toBe(false);
    await expectError(await sessionsApi.join(third, session.id, { userId: thirdId }), 409, 'Session is not active');
  });

  it('shows the session, its participants, chat and stems to participants only (404 for anyone else)', async () => {
    const session = await createSession(demo, demoId, projectId);
    await joinSession(rival, rivalId, session.id, 'viewer');
    const seen = await sessionParticipants(rival, session.id);
    expect(seen.map((p) => [p.userId, p.name, p.role])).toEqual(
      expect.arrayContaining([
        [demoId, 'Demo User', 'host'],
        [rivalId, 'Rival Tester', 'viewer'],
      ]),
    );
    expect(seen).toHaveLength(2);
    await expectError(await sessionsApi.participants(third, session.id), 404, NOT_FOUND);
    await expectError(await sessionsApi.get(third, session.id), 404, NOT_FOUND);
    await expectError(await sessionsApi.messages(third, session.id), 404, NOT_FOUND);
    await expectError(await sessionsApi.post(third, session.id, { userId: thirdId, message: 'hi' }), 404, NOT_FOUND);
    await expectError(await sessionsApi.stems(third, session.id), 404, NOT_FOUND);
    await expectError(await sessionsApi.participants(third, 'no-such-session'), 404, NOT_FOUND);
  });

  it('lets only the host change roles (403 for anyone else), and the new role stays through a rejoin', async () => {
    const session = await createSession(demo, demoId, projectId);
    await joinSession(rival, rivalId, session.id, 'collaborator');
    await joinSession(third, thirdId, session.id, 'viewer');
    await expectError(await sessionsApi.setRole(rival, session.id, thirdId, 'collaborator'), 403, 'Only the host can change roles');
    await expectError(await sessionsApi.setRole(third, session.id, thirdId, 'collaborator'), 403, 'Only the host can change roles');
    const response = await sessionsApi.setRole(demo, session.id, rivalId, 'viewer');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ sessionId: session.id, userId: rivalId, role: 'viewer' });
    await expectError(await sessionsApi.setRole(demo, session.id, rivalId, 'host'), 400, 'role: Role must be collaborator or viewer');
    expect((await joinSession(rival, rivalId, session.id, 'collaborator')).participant.role).toBe('viewer');
    expect(roles(await sessionParticipants(third, session.id))).toEqual({ [demoId]: 'host', [rivalId]: 'viewer', [thirdId]: 'viewer' });
  });

  it('lets only the host remove someone (403 otherwise); a removed participant sees the session no more', async () => {
    const session = await createSession(demo, demoId, projectId);
    await joinSession(rival, rivalId, session.id);
    await joinSession(third, thirdId, session.id);
    await expectError(await sessionsApi.remove(rival, session.id, thirdId), 403, 'Only the host can remove participants');
    await expectError(await sessionsApi.remove(rival, session.id, demoId), 403, 'Only the host can remove participants');
    const removed = await sessionsApi.remove(demo, session.id, rivalId);
    expect(removed.status).toBe(204);
    expect(await removed.text()).toBe('');
    await expectError(await sessionsApi.participants(rival, session.id), 404, NOT_FOUND);
    await expectError(await sessionsApi.stems(rival, session.id), 404, NOT_FOUND);
    expect((await rival.fetch(`/api/sessions/${session.id}/stems/${stems[0]!.id}/audio`)).status).toBe(404);
    expect((await sessionParticipants(demo, session.id)).map((p) => p.userId).sort()).toEqual([demoId, thirdId].sort());
    // Someone leaving removes themselves.
    expect((await sessionsApi.remove(third, session.id, thirdId)).status).toBe(204);
    expect((await sessionParticipants(demo, session.id)).map((p) => p.userId)).toEqual([demoId]);
    await expectError(await sessionsApi.remove(demo, session.id, thirdId), 404, 'Participant not found');
  });

  it('keeps the chat: trimmed text, 1–500 characters, as its writer, oldest first; a sixth quick message is 429', async () => {
    const session = await createSession(demo, demoId, projectId);
    await joinSession(rival, rivalId, session.id);
    const first = await sessionsApi.post(rival, session.id, { userId: rivalId, message: '  <b>hello</b> there  ' });
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({ sessionId: session.id, userId: rivalId, name: 'Rival Tester', message: '<b>hello</b> there', type: 'text' });
    await expectError(await sessionsApi.post(rival, session.id, { userId: rivalId, message: 'x'.repeat(501) }), 400, 'message: Messages can be at most 500 characters');
    await expectError(await sessionsApi.post(rival, session.id, { userId: rivalId, message: '   ' }), 400, 'message: Message is required');
    await expectError(await sessionsApi.post(rival, session.id, { userId: demoId, message: 'as demo' }), 403, 'You can only send messages as yourself');
    const longest = 'y'.repeat(500);
    const quick = [longest, 'two', 'three', 'four', 'five'];
    const answers = [];
    for (const message of quick) answers.push(await sessionsApi.post(rival, session.id, { userId: rivalId, message }));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 429]);
    await expectError(answers[4]!, 429, RATE_LIMITED);
    const listed = await sessionMessages(demo, session.id);
    expect(listed.map((m) => [m.userId, m.message])).toEqual([
      [rivalId, '<b>hello</b> there'],
      [rivalId, longest],
      [rivalId, 'two'],
      [rivalId, 'three'],
      [rivalId, 'four'],
    ]);
    expect(await sessionMessages(rival, session.id)).toEqual(listed);
    // The limit is the writer's, not the session's.
    expect((await sessionsApi.post(demo, session.id, { userId: demoId, message: 'host here' })).status).toBe(201);
  });

  it("gives participants the host's stems with session audio urls, streamed with Range; other stems and strangers 404", async () => {
    const session = await createSession(demo, demoId, projectId);
    await joinSession(rival, rivalId, session.id, 'viewer');
    const shared = await sessionStems(rival, session.id);
    expect(shared.map((s) => [s.id, s.type])).toEqual(stems.map((s) => [s.id, s.type]));
    for (const stem of shared) expect(stem.url).toBe(`/api/sessions/${session.id}/stems/${stem.id}/audio`);
    expect(shared[0]).toMatchObject({ projectId, volume: expect.any(Number), muted: expect.any(Boolean), soloed: expect.any(Boolean), version: 'original' });

    const stem = shared[0]!;
    const whole = await rival.fetch(stem.url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const bytes = Buffer.from(await whole.arrayBuffer());
    const own = Buffer.from(await (await demo.fetch(stems[0]!.url)).arrayBuffer());
    expect(bytes.equals(own)).toBe(true);
    const part = await rival.fetch(stem.url, { headers: { range: 'bytes=100-1099' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-1099/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 1100))).toBe(true);
    expect((await rival.fetch(stem.url, { method: 'HEAD' })).status).toBe(200);

    await expectError(await third.fetch(stem.url), 404, NOT_FOUND);
    // The host's other song is not this session's: no one gets it through the session, the host neither.
    await expectError(await rival.fetch(`/api/sessions/${session.id}/stems/${otherStems[0]!.id}/audio`), 404, 'Stem not found');
    await expectError(await demo.fetch(`/api/sessions/${session.id}/stems/${otherStems[0]!.id}/audio`), 404, 'Stem not found');
    // Rival's own stem route still says the host's stem is not theirs.
    expect((await rival.fetch(stems[0]!.url)).status).toBe(404);
  });

  it('answers the same through either gateway replica (one session store, one sessions service)', async () => {
    const session = await createSession(demo, demoId, projectId, { name: 'Two replicas' });
    // Third writes here: rival's chat allowance may still be spent by the rate-limit test.
    const thirdThere = onSecondReplica(third);
    expect((await joinSession(thirdThere, thirdId, session.id, 'collaborator')).session.participantCount).toBe(2);
    expect((await sessionsApi.post(thirdThere, session.id, { userId: thirdId, message: 'from the other replica' })).status).toBe(201);
    expect((await sessionMessages(demo, session.id)).map((m) => [m.name, m.message])).toEqual([['Third Player', 'from the other replica']]);
    expect(roles(await sessionParticipants(demo, session.id))).toEqual({ [demoId]: 'host', [thirdId]: 'collaborator' });
    const [stem] = await sessionStems(thirdThere, session.id);
    const part = await thirdThere.fetch(stem!.url, { headers: { range: 'bytes=0-15' } });
    expect(part.status).toBe(206);
    expect((await part.arrayBuffer()).byteLength).toBe(16);
    await expectError(await sessionsApi.participants(onSecondReplica(rival), session.id), 404, NOT_FOUND);
  });
});
