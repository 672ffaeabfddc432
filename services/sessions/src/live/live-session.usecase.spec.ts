import { CHAT_HISTORY_ON_JOIN, CHAT_RATE_LIMIT, PRESENCE_TTL_MS, TRANSPORT_START_LEAD_MS } from '@stemdeck/proto';
import { SESSION_NOT_ACTIVE, SESSION_NOT_FOUND, STEM_NOT_IN_SESSION, VIEWERS_CANNOT_PLAY } from '../sessions/session-failures';
import { stemMixOf } from '../sessions/sessions.ports';
import { sessionsWorld, type SessionsWorld } from '../sessions/testing/world';
import { PRESENCE_SWEEP_INTERVAL_MS } from './presence.sweep';
import { PresenceTracker } from './presence-tracker';

describe('live sessions', () => {
  let w: SessionsWorld;
  let sessionId: string;
  const enter = (userId: string, connectionId: string) => w.enter.execute({ userId, sessionId, connectionId });
  const exit = (userId: string, connectionId: string) => w.exit.execute({ userId, sessionId, connectionId });

  beforeEach(async () => {
    w = sessionsWorld();
    w.projects.add('host', 'p1', 'Song One', ['stem-vocals', 'stem-drums']);
    sessionId = (await w.create.execute({ userId: 'host', name: 'Hana', projectName: 'Song One', body: { name: 'Jam', projectId: 'p1', hostUserId: 'host', maxParticipants: 8 } })).id;
    await w.join.execute({ userId: 'guest', name: 'Gus', sessionId, role: 'collaborator' });
    await w.join.execute({ userId: 'viewer', name: 'Vi', sessionId, role: 'viewer' });
    w.events.clear();
  });

  describe('enter', () => {
    it('answers everything a late joiner needs: the session, their role, participants with presence, mix, transport and the last chat', async () => {
      for (let i = 0; i < CHAT_HISTORY_ON_JOIN + 3; i++) {
        await w.post.execute({ userId: i % 2 ? 'host' : 'guest', name: 'x', sessionId, message: `m${i}` });
        if (i % 10 === 9) w.clock.advance(CHAT_RATE_LIMIT.windowMs);
      }
      await enter('host', 'c-host');
      await w.change.execute({ userId: 'host', sessionId, connectionId: 'c-host', change: { kind: 'stem_volume', stemId: 'stem-drums', value: 0.5 } });
      await w.change.execute({ userId: 'host', sessionId, connectionId: 'c-host', change: { kind: 'transport', action: 'play', position: 12 } });
      const playedAt = w.clock.time;
      w.clock.advance(3000);

      const state = await enter('viewer', 'c-viewer');
      expect(state.session).toMatchObject({ id: sessionId, participantCount: 3, isActive: true });
      expect(state.role).toBe('viewer');
      expect(state.participants.map((p) => [p.userId, p.role, p.isOnline])).toEqual([
        ['host', 'host', true],
        ['guest', 'collaborator', false],
        ['viewer', 'viewer', true],
      ]);
      expect(state.mix).toEqual({ 'stem-drums': { volume: 0.5, muted: false } });
      expect(state.transport).toEqual({ playing: true, position: 12, at: playedAt + TRANSPORT_START_LEAD_MS });
      expect(state.chat).toHaveLength(CHAT_HISTORY_ON_JOIN);
      expect(state.chat[0].message).toBe('m3');
      expect(state.chat.at(-1)!.message).toBe(`m${CHAT_HISTORY_ON_JOIN + 2}`);
    });

    it('announces a user online once, on their first socket, with lastActive now', async () => {
      await enter('guest', 'tab-1');
      w.clock.advance(1000);
      await enter('guest', 'tab-2');
      await enter('guest', 'tab-1'); // a re-entry of the same socket
      const joined = w.events.ofType('user_joined');
      expect(joined).toHaveLength(1);
      expect(joined[0]).toMatchObject({ userId: 'guest', role: 'collaborator', participant: { userId: 'guest', isOnline: true, lastActive: new Date(w.clock.time - 1000).toISOString() } });
      expect(w.events.published[0].event.origin).toBeNull();
      expect(w.board.liveKeys().sort()).toEqual([`${sessionId}.guest.tab-1`, `${sessionId}.guest.tab-2`]);
    });

    it('announces a user once even when two of their sockets enter at the same moment', async () => {
      await Promise.all([enter('guest', 'tab-1'), enter('guest', 'tab-2'), enter('guest', 'tab-3')]);
      expect(w.events.ofType('user_joined')).toHaveLength(1);
    });

    it('refuses outsiders and unknown sessions (404) and ended sessions (409), putting no key', async () => {
      await expect(enter('stranger', 'c1')).rejects.toMatchObject({ status: 404, message: SESSION_NOT_FOUND });
      await expect(w.enter.execute({ userId: 'guest', sessionId: 'nope', connectionId: 'c1' })).rejects.toMatchObject({ status: 404, message: SESSION_NOT_FOUND });
      await w.remove.execute({ userId: 'host', sessionId, targetUserId: 'host' });
      await expect(enter('guest', 'c1')).rejects.toMatchObject({ status: 409, message: SESSION_NOT_ACTIVE });
      expect(w.board.liveKeys()).toEqual([]);
    });

    it('refuses a connection id that cannot be part of a presence key', async () => {
      await expect(enter('guest', 'a.b')).rejects.toMatchObject({ status: 400 });
      await expect(enter('guest', '*')).rejects.toMatchObject({ status: 400 });
      expect(w.board.liveKeys()).toEqual([]);
    });
  });

  describe('exit', () => {
    it('announces a user offline when their last socket leaves, not before', async () => {
      await enter('guest', 'tab-1');
      await enter('guest', 'tab-2');
      w.events.clear();
      await exit('guest', 'tab-1');
      expect(w.events.published).toEqual([]);
      w.clock.advance(5000);
      expect(await exit('guest', 'tab-2')).toEqual({});
      expect(w.events.ofType('user_left')).toEqual([{ type: 'user_left', sessionId, userId: 'guest', lastActive: new Date(w.clock.time).toISOString() }]);
      expect((await w.sessions.findParticipant(sessionId, 'guest'))!.lastActive).toEqual(new Date(w.clock.time));
      // Leaving again (a late close) changes nothing.
      await exit('guest', 'tab-2');
      expect(w.events.ofType('user_left')).toHaveLength(1);
      expect((await w.queries.participants('host', sessionId)).find((p) => p.userId === 'guest')!.isOnline).toBe(false);
    });

    it('takes ids that cannot be a key, or a session that is gone, as nothing to do', async () => {
      expect(await w.exit.execute({ userId: 'guest', sessionId: 'a.b', connectionId: 'c' })).toEqual({});
      expect(await w.exit.execute({ userId: 'guest', sessionId: 'unknown', connectionId: 'c' })).toEqual({});
      expect(w.events.published).toEqual([]);
    });
  });

  describe('presence sweep', () => {
    it('turns users whose keys all expired offline (lastActive = now, user_left), keeps those whose gateway put them again', async () => {
      await enter('guest', 'tab-1');
      await enter('host', 'c-host');
      w.events.clear();
      // The host's gateway keeps putting its key; the guest's gateway crashed.
      w.clock.advance(PRESENCE_TTL_MS - 1000);
      await w.board.put(sessionId, 'host', 'c-host');
      expect(await w.presence.sweep()).toEqual({ wentOffline: 0, cameOnline: 0 });
      w.clock.advance(1000);
      expect(await w.presence.sweep()).toEqual({ wentOffline: 1, cameOnline: 0 });
      expect(w.events.published).toEqual([{ sessionId, event: { origin: null, message: { type: 'user_left', sessionId, userId: 'guest', lastActive: new Date(w.clock.time).toISOString() } } }]);
      expect(await w.presence.sweep()).toEqual({ wentOffline: 0, cameOnline: 0 });
      expect((await w.queries.participants('host', sessionId)).map((p) => [p.userId, p.isOnline])).toEqual([
        ['host', true],
        ['guest', false],
        ['viewer', false],
      ]);
    });

    it('announces again a user whose key came back after they were turned offline', async () => {
      await enter('guest', 'tab-1');
      w.clock.advance(PRESENCE_TTL_MS);
      await w.presence.sweep();
      w.events.clear();
      await w.board.put(sessionId, 'guest', 'tab-1'); // the gateway's next heartbeat
      expect(await w.presence.sweep()).toEqual({ wentOffline: 0, cameOnline: 1 });
      expect(w.events.ofType('user_joined')).toMatchObject([{ userId: 'guest', participant: { isOnline: true } }]);
      // A socket entering now does not announce them twice.
      await enter('guest', 'tab-2');
      expect(w.events.ofType('user_joined')).toHaveLength(1);
    });

    it('does not announce keys of people no longer in the session, but repeats their removal once per key lifetime (a gateway that missed it lets the socket go)', async () => {
      await enter('guest', 'tab-1');
      await w.remove.execute({ userId: 'host', sessionId, targetUserId: 'guest' });
      await w.board.put(sessionId, 'guest', 'tab-1'); // a heartbeat racing the removal, or a gateway that missed it
      w.events.clear();
      expect(await w.presence.sweep()).toEqual({ wentOffline: 0, cameOnline: 0 });
      expect(await w.presence.sweep()).toEqual({ wentOffline: 0, cameOnline: 0 });
      expect(w.events.published).toEqual([{ sessionId, event: { origin: null, message: { type: 'participant_removed', sessionId, userId: 'guest', byUserId: 'host' } } }]);
      // Still put a key lifetime later (the socket is still there): said once more; then it lapses and nothing follows.
      w.clock.advance(PRESENCE_TTL_MS - 1);
      await w.board.put(sessionId, 'guest', 'tab-1');
      w.clock.advance(1);
      await w.presence.sweep();
      expect(w.events.ofType('participant_removed')).toHaveLength(2);
      w.clock.advance(PRESENCE_TTL_MS * 2);
      await w.presence.sweep();
      expect(w.events.ofType('participant_removed')).toHaveLength(2);
      expect(w.events.ofType('user_joined')).toEqual([]);
    });

    it('repeats the end of a session to sockets whose keys are still put after it ended', async () => {
      await enter('guest', 'tab-1');
      await w.remove.execute({ userId: 'host', sessionId, targetUserId: 'host' });
      await w.board.put(sessionId, 'guest', 'tab-1');
      w.presence.forgetSession(sessionId);
      w.events.clear();
      await w.presence.sweep();
      expect(w.events.published).toEqual([{ sessionId, event: { origin: null, message: { type: 'session_ended', sessionId } } }]);
    });

    it('rebuilds who is online from the bucket at boot, so a restarted service still turns them offline once', async () => {
      await enter('guest', 'tab-1');
      w.events.clear();
      const restarted = new PresenceTracker(w.board, w.sessions, w.events, w.clock);
      await restarted.rebuild();
      expect(restarted.isAnnounced(sessionId, 'guest')).toBe(true);
      expect(await restarted.sweep()).toEqual({ wentOffline: 0, cameOnline: 0 });
      w.clock.advance(PRESENCE_TTL_MS);
      expect(await restarted.sweep()).toEqual({ wentOffline: 1, cameOnline: 0 });
      expect(w.events.ofType('user_left')).toHaveLength(1);
    });

    it('forgets an ended session\'s people (session_ended says it all)', async () => {
      await enter('guest', 'tab-1');
      await w.remove.execute({ userId: 'host', sessionId, targetUserId: 'host' });
      w.events.clear();
      w.clock.advance(PRESENCE_TTL_MS);
      expect(await w.presence.sweep()).toEqual({ wentOffline: 0, cameOnline: 0 });
      await exit('guest', 'tab-1');
      expect(w.events.published).toEqual([]);
    });

    it('sweeps several times within one key\'s lifetime', () => {
      expect(PRESENCE_SWEEP_INTERVAL_MS * 4).toBeLessThanOrEqual(PRESENCE_TTL_MS);
    });
  });

  describe('change', () => {
    const change = (userId: string, c: Parameters<SessionsWorld['change']['execute']>[0]['change']) => w.change.execute({ userId, sessionId, connectionId: 'c', change: c });

    it('plays from a position a little ahead of now, and pauses at a position now; both stored and sent to everyone', async () => {
      const now = w.clock.time;
      await change('guest', { kind: 'transport', action: 'play', position: 30.5 });
      expect(w.sessions.sessions.get(sessionId)!.transport).toEqual({ playing: true, position: 30.5, at: now + TRANSPORT_START_LEAD_MS });
      w.clock.advance(2000);
      await change('host', { kind: 'transport', action: 'pause', position: 32 });
      expect(w.events.published).toEqual([
        { sessionId, event: { origin: null, message: { type: 'audio_sync', sessionId, userId: 'guest', transport: { playing: true, position: 30.5, at: now + TRANSPORT_START_LEAD_MS } } } },
        { sessionId, event: { origin: null, message: { type: 'audio_sync', sessionId, userId: 'host', transport: { playing: false, position: 32, at: now + 2000 } } } },
      ]);
    });

    it('sets one stem\'s level or mute from full level, unmuted, and sends the stem\'s whole mix', async () => {
      await change('guest', { kind: 'stem_muted', stemId: 'stem-vocals', value: true });
      await change('host', { kind: 'stem_volume', stemId: 'stem-vocals', value: 0.25 });
      expect(w.sessions.sessions.get(sessionId)!.mix).toEqual({ 'stem-vocals': { volume: 0.25, muted: true } });
      expect(w.events.ofType('stem_changed')).toEqual([
        { type: 'stem_changed', sessionId, userId: 'guest', stemId: 'stem-vocals', property: 'muted', value: true, mix: { volume: 1, muted: true } },
        { type: 'stem_changed', sessionId, userId: 'host', stemId: 'stem-vocals', property: 'volume', value: 0.25, mix: { volume: 0.25, muted: true } },
      ]);
      expect(w.events.published.every(({ event }) => event.origin === null)).toBe(true);
    });

    it('refuses viewers (403), outsiders (404) and ended sessions (409), changing nothing', async () => {
      await expect(change('viewer', { kind: 'transport', action: 'play', position: 0 })).rejects.toMatchObject({ status: 403, message: VIEWERS_CANNOT_PLAY });
      await expect(change('viewer', { kind: 'stem_volume', stemId: 'stem-vocals', value: 0 })).rejects.toMatchObject({ status: 403, message: VIEWERS_CANNOT_PLAY });
      await expect(change('stranger', { kind: 'stem_muted', stemId: 'stem-vocals', value: true })).rejects.toMatchObject({ status: 404, message: SESSION_NOT_FOUND });
      // A collaborator made a viewer loses the right at once.
      await w.setRole.execute({ userId: 'host', sessionId, targetUserId: 'guest', role: 'viewer' });
      await expect(change('guest', { kind: 'transport', action: 'play', position: 0 })).rejects.toMatchObject({ status: 403 });
      await w.remove.execute({ userId: 'host', sessionId, targetUserId: 'host' });
      await expect(change('host', { kind: 'transport', action: 'play', position: 0 })).rejects.toMatchObject({ status: 409, message: SESSION_NOT_ACTIVE });
      expect(w.sessions.sessions.get(sessionId)!.transport.playing).toBe(false);
      expect(w.events.ofType('audio_sync')).toEqual([]);
      expect(w.events.ofType('stem_changed')).toEqual([]);
    });

    it('refuses a stem that is not one of the host\'s project\'s stems (400); asks media once per session, again for an unknown id', async () => {
      await change('guest', { kind: 'stem_volume', stemId: 'stem-vocals', value: 0.5 });
      await change('guest', { kind: 'stem_volume', stemId: 'stem-drums', value: 0.5 });
      expect(w.projects.stemReads).toBe(1);
      await expect(change('guest', { kind: 'stem_volume', stemId: 'someone-elses-stem', value: 0.5 })).rejects.toMatchObject({ status: 400, message: STEM_NOT_IN_SESSION });
      expect(w.projects.stemReads).toBe(2);
      // Separated again since: the new stem is found on the next ask.
      w.projects.setStems('host', 'p1', ['stem-new']);
      await change('guest', { kind: 'stem_muted', stemId: 'stem-new', value: true });
      expect(stemMixOf(w.sessions.sessions.get(sessionId)!.mix, 'stem-new')).toEqual({ volume: 1, muted: true });
    });

    it('a level and a mute sent at once by two people both stay (each change sets only its own field)', async () => {
      await Promise.all([
        change('guest', { kind: 'stem_volume', stemId: 'stem-drums', value: 0.3 }),
        change('host', { kind: 'stem_muted', stemId: 'stem-drums', value: true }),
      ]);
      expect(stemMixOf(w.sessions.sessions.get(sessionId)!.mix, 'stem-drums')).toEqual({ volume: 0.3, muted: true });
      expect(w.events.ofType('stem_changed').at(-1)).toMatchObject({ mix: { volume: 0.3, muted: true } });
    });
  });
});
