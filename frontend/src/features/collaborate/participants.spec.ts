import type { Participant } from '@stemdeck/proto';
import { canPerform, initials, lastActiveLabel, onlineCount, participantName, sortParticipants } from './participants';

const person = (userId: string, role: Participant['role'], isOnline: boolean, name = userId): Participant => ({
  id: `p-${userId}`,
  sessionId: 's1',
  userId,
  name,
  role,
  isOnline,
  lastActive: '2026-11-24T00:00:00.000Z',
});

describe('participants', () => {
  it('sorts the host first, then those online, then by role name, then by name', () => {
    const sorted = sortParticipants([
      person('v-off', 'viewer', false, 'zed'),
      person('c-off', 'collaborator', false, 'amy'),
      person('v-on', 'viewer', true, 'bob'),
      person('host', 'host', false, 'hank'),
      person('c-on-b', 'collaborator', true, 'bea'),
      person('c-on-a', 'collaborator', true, 'abe'),
    ]);
    expect(sorted.map((p) => p.userId)).toEqual(['host', 'c-on-a', 'c-on-b', 'v-on', 'c-off', 'v-off']);
  });

  it('does not reorder the list it was given', () => {
    const list = [person('b', 'viewer', true), person('a', 'host', true)];
    sortParticipants(list);
    expect(list.map((p) => p.userId)).toEqual(['b', 'a']);
  });

  it("labels last-active times 'Just now' under a minute, 'Nm ago' under an hour, else 'Nh ago'", () => {
    const at = Date.parse('2026-11-24T10:00:00.000Z');
    const iso = (msBefore: number) => new Date(at - msBefore).toISOString();
    expect(lastActiveLabel(iso(0), at)).toBe('Just now');
    expect(lastActiveLabel(iso(59_999), at)).toBe('Just now');
    expect(lastActiveLabel(iso(60_000), at)).toBe('1m ago');
    expect(lastActiveLabel(iso(59 * 60_000 + 59_999), at)).toBe('59m ago');
    expect(lastActiveLabel(iso(60 * 60_000), at)).toBe('1h ago');
    expect(lastActiveLabel(iso(5 * 3_600_000 + 59 * 60_000), at)).toBe('5h ago');
    // A clock a little ahead of this browser's is not "in the future".
    expect(lastActiveLabel(iso(-5_000), at)).toBe('Just now');
  });

  it("names a person by their signed-in name, else 'User' and the last 4 characters of their id", () => {
    expect(participantName({ name: 'demo', userId: 'abc-123456' })).toBe('demo');
    expect(participantName({ name: '  ', userId: 'abc-123456' })).toBe('User 3456');
    expect(participantName({ userId: 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6' })).toBe('User 6bf6');
  });

  it('makes avatar initials from the name', () => {
    expect(initials('demo')).toBe('DE');
    expect(initials('Jane Doe')).toBe('JD');
    expect(initials('User 6bf6')).toBe('U6');
    expect(initials('')).toBe('U');
  });

  it('lets hosts and collaborators perform, not viewers', () => {
    expect([canPerform('host'), canPerform('collaborator'), canPerform('viewer'), canPerform(null)]).toEqual([true, true, false, false]);
  });

  it('counts who is online', () => {
    expect(onlineCount([person('a', 'host', true), person('b', 'viewer', false), person('c', 'viewer', true)])).toBe(2);
  });
});
