import type { ChatMessage, LiveSessionState, Participant } from '@stemdeck/proto';
import type { LiveServerMessage } from '../live/liveConnection';
import { initialRoomState, mergeChat, noticeOf, roomReducer, type LiveRoomState } from './liveSession';

const SELF = 'me';
const person = (userId: string, role: Participant['role'], isOnline = true): Participant => ({
  id: `p-${userId}`,
  sessionId: 's1',
  userId,
  name: userId === SELF ? 'demo' : userId === 'host' ? 'hank' : userId,
  role,
  isOnline,
  lastActive: '2026-11-24T00:00:00.000Z',
});
const chat = (id: string, createdAt: string, message = id): ChatMessage => ({ id, sessionId: 's1', userId: 'host', name: 'hank', message, type: 'text', createdAt });

const STATE: LiveSessionState = {
  session: { id: 's1', name: 'Jam', projectId: 'p1', projectName: 'song', hostUserId: 'host', hostName: 'hank', maxParticipants: 8, isActive: true, participantCount: 2, createdAt: '2026-11-24T00:00:00.000Z' },
  role: 'collaborator',
  participants: [person('host', 'host'), person(SELF, 'collaborator')],
  mix: { v: { volume: 1, muted: false } },
  transport: { playing: false, position: 0, at: 0 },
  chat: [chat('c1', '2026-11-24T00:00:01.000Z')],
};

const apply = (state: LiveRoomState, ...messages: LiveServerMessage[]) => messages.reduce((s, message) => roomReducer(s, { type: 'message', message, selfUserId: SELF }), state);
const joined = () => apply(initialRoomState, { type: 'session_joined', state: STATE, serverTime: 1 });
const stemName = () => 'Vocals';

describe('the live session reducer', () => {
  it('takes the whole state from session_joined and ignores events of other sessions or while in none', () => {
    const alone = apply(initialRoomState, { type: 'user_left', sessionId: 's1', userId: 'host', lastActive: 'x' });
    expect(alone).toBe(initialRoomState);
    const state = joined();
    expect(state.current).toMatchObject({ sessionId: 's1', role: 'collaborator', cursors: {} });
    expect(apply(state, { type: 'audio_sync', sessionId: 'other', userId: 'host', transport: { playing: true, position: 3, at: 5 } })).toBe(state);
  });

  it('marks people online and offline, adds newcomers, drops removed people and their cursors', () => {
    let state = joined();
    state = apply(state, { type: 'user_joined', sessionId: 's1', userId: 'amy', role: 'viewer', participant: person('amy', 'viewer', false) });
    expect(state.current!.participants.find((p) => p.userId === 'amy')).toMatchObject({ isOnline: true, role: 'viewer' });
    state = apply(state, { type: 'cursor_update', sessionId: 's1', userId: 'amy', name: 'amy', position: { x: 0.2, y: 0.3 } });
    expect(state.current!.cursors.amy).toEqual({ userId: 'amy', name: 'amy', x: 0.2, y: 0.3 });
    state = apply(state, { type: 'user_left', sessionId: 's1', userId: 'amy', lastActive: '2026-11-24T00:05:00.000Z' });
    expect(state.current!.participants.find((p) => p.userId === 'amy')).toMatchObject({ isOnline: false, lastActive: '2026-11-24T00:05:00.000Z' });
    expect(state.current!.cursors).toEqual({});
    state = apply(state, { type: 'participant_removed', sessionId: 's1', userId: 'amy', byUserId: 'host' });
    expect(state.current!.participants.map((p) => p.userId)).toEqual(['host', SELF]);
  });

  it('never draws its own cursor', () => {
    const state = apply(joined(), { type: 'cursor_update', sessionId: 's1', userId: SELF, name: 'demo', position: { x: 0.5, y: 0.5 } });
    expect(state.current!.cursors).toEqual({});
  });

  it('follows role changes, its own included', () => {
    const state = apply(joined(), { type: 'role_changed', sessionId: 's1', userId: SELF, role: 'viewer' });
    expect(state.current!.role).toBe('viewer');
    expect(state.current!.participants.find((p) => p.userId === SELF)!.role).toBe('viewer');
  });

  it('keeps the shared transport, the mix and the chat (by id, oldest first, no duplicates)', () => {
    let state = apply(
      joined(),
      { type: 'audio_sync', sessionId: 's1', userId: 'host', transport: { playing: true, position: 12.5, at: 1000 } },
      { type: 'stem_changed', sessionId: 's1', userId: 'host', stemId: 'v', property: 'volume', value: 0.5, mix: { volume: 0.5, muted: false } },
      { type: 'chat_message', sessionId: 's1', message: chat('c3', '2026-11-24T00:00:03.000Z') },
      { type: 'chat_message', sessionId: 's1', message: chat('c2', '2026-11-24T00:00:02.000Z') },
    );
    state = roomReducer(state, { type: 'chat_posted', message: chat('c3', '2026-11-24T00:00:03.000Z') });
    expect(state.current!.transport).toEqual({ playing: true, position: 12.5, at: 1000 });
    expect(state.current!.mix.v).toEqual({ volume: 0.5, muted: false });
    expect(state.current!.chat.map((m) => m.id)).toEqual(['c1', 'c2', 'c3']);
  });

  it('leaves: on its own leave (nothing to say), when removed or when the session ends (the tabs say so)', () => {
    expect(apply(joined(), { type: 'participant_removed', sessionId: 's1', userId: SELF, byUserId: SELF })).toEqual({ current: null, lastLeft: null });
    expect(apply(joined(), { type: 'participant_removed', sessionId: 's1', userId: SELF, byUserId: 'host' })).toEqual({ current: null, lastLeft: { sessionId: 's1', reason: 'removed' } });
    expect(apply(joined(), { type: 'session_ended', sessionId: 's1' })).toEqual({ current: null, lastLeft: { sessionId: 's1', reason: 'ended' } });
    expect(apply(joined(), { type: 'session_left', sessionId: 's1', reason: 'removed' }).lastLeft).toEqual({ sessionId: 's1', reason: 'removed' });
    expect(roomReducer(joined(), { type: 'left_locally' })).toEqual({ current: null, lastLeft: null });
  });
});

describe('toasts for live events', () => {
  it('says who joined and left, not for oneself, not twice for someone already online', () => {
    const state = joined();
    expect(noticeOf(state, { type: 'user_joined', sessionId: 's1', userId: 'amy', role: 'viewer', participant: person('amy', 'viewer') }, SELF, stemName)).toEqual({
      title: 'User Joined',
      description: 'amy joined the session.',
      type: 'info',
    });
    expect(noticeOf(state, { type: 'user_joined', sessionId: 's1', userId: 'host', role: 'host', participant: person('host', 'host') }, SELF, stemName)).toBeNull();
    expect(noticeOf(state, { type: 'user_joined', sessionId: 's1', userId: SELF, role: 'collaborator', participant: person(SELF, 'collaborator') }, SELF, stemName)).toBeNull();
    expect(noticeOf(state, { type: 'user_left', sessionId: 's1', userId: 'host', lastActive: 'x' }, SELF, stemName)).toMatchObject({ title: 'User Left', description: 'hank left the session.' });
    expect(noticeOf(state, { type: 'participant_removed', sessionId: 's1', userId: 'host', byUserId: 'host' }, SELF, stemName)).toMatchObject({ title: 'User Left' });
    // A removal said again for someone already gone from the list is not announced twice.
    expect(noticeOf(state, { type: 'participant_removed', sessionId: 's1', userId: 'nobody-here', byUserId: 'host' }, SELF, stemName)).toBeNull();
  });

  it('tells a removed person and everyone when the host ends the session', () => {
    const state = joined();
    expect(noticeOf(state, { type: 'participant_removed', sessionId: 's1', userId: SELF, byUserId: 'host' }, SELF, stemName)).toEqual({
      title: 'Left Session',
      description: 'The host removed you from the session.',
      type: 'info',
    });
    expect(noticeOf(state, { type: 'session_left', sessionId: 's1', reason: 'ended' }, SELF, stemName)).toMatchObject({ title: 'Left Session', description: 'The host ended the session.' });
    expect(noticeOf(state, { type: 'session_left', sessionId: 's1', reason: 'left' }, SELF, stemName)).toBeNull();
  });

  it("says what someone else changed in the mix or the transport, in words", () => {
    const state = joined();
    expect(noticeOf(state, { type: 'stem_changed', sessionId: 's1', userId: 'host', stemId: 'v', property: 'volume', value: 0.42, mix: { volume: 0.42, muted: false } }, SELF, stemName)).toEqual({
      title: 'Stem Updated',
      description: 'hank set Vocals to 42%.',
      type: 'info',
    });
    expect(noticeOf(state, { type: 'stem_changed', sessionId: 's1', userId: 'host', stemId: 'v', property: 'muted', value: true, mix: { volume: 1, muted: true } }, SELF, stemName)!.description).toBe('hank set Vocals muted.');
    expect(noticeOf(state, { type: 'stem_changed', sessionId: 's1', userId: SELF, stemId: 'v', property: 'muted', value: true, mix: { volume: 1, muted: true } }, SELF, stemName)).toBeNull();
    expect(noticeOf(state, { type: 'audio_sync', sessionId: 's1', userId: 'host', transport: { playing: true, position: 0, at: 0 } }, SELF, stemName)).toMatchObject({ title: 'Audio Event', description: 'hank started playback.' });
  });
});

describe('mergeChat', () => {
  it('merges the polled list and the live messages by id, oldest first', () => {
    const merged = mergeChat([chat('b', '2026-11-24T00:00:02.000Z'), chat('a', '2026-11-24T00:00:01.000Z')], [chat('b', '2026-11-24T00:00:02.000Z', 'edited'), chat('c', '2026-11-24T00:00:03.000Z')]);
    expect(merged.map((m) => [m.id, m.message])).toEqual([
      ['a', 'a'],
      ['b', 'edited'],
      ['c', 'c'],
    ]);
  });
});

describe('departures announced once', () => {
  it('says nothing when someone who already left the session (removed from the list) goes offline, or someone offline goes again', () => {
    let state = apply(joined(), { type: 'participant_removed', sessionId: 's1', userId: 'host', byUserId: 'host' });
    expect(noticeOf(state, { type: 'user_left', sessionId: 's1', userId: 'host', lastActive: 'x' }, SELF, stemName)).toBeNull();
    state = apply(joined(), { type: 'user_left', sessionId: 's1', userId: 'host', lastActive: 'x' });
    expect(noticeOf(state, { type: 'user_left', sessionId: 's1', userId: 'host', lastActive: 'y' }, SELF, stemName)).toBeNull();
  });
});
