import type { Participant, SessionRole } from '@stemdeck/proto';

/** How people in a session read: names, initials, roles, last-active times, the panel's order. Plain functions, no React. */

export const ROLE_NAMES: Record<SessionRole, string> = { host: 'Host', collaborator: 'Collaborator', viewer: 'Viewer' };

/** The host and collaborators play pads, move the transport and mix; viewers listen and chat. */
export const canPerform = (role: SessionRole | null | undefined): boolean => role === 'host' || role === 'collaborator';

/** The signed-in name a participant joined with; without one, "User" and the last 4 characters of their id. */
export function participantName(person: { name?: string | null; userId: string }): string {
  const name = person.name?.trim();
  return name ? name : `User ${person.userId.slice(-4)}`;
}

/** Two letters for the avatar: the first letters of the first two words, else the first two letters of the name. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return 'U';
  const letters = words.length > 1 ? words[0]![0]! + words[1]![0]! : words[0]!.slice(0, 2);
  return letters.toUpperCase();
}

/** The participants panel's order: the host first, then those online, then by role name, then by name. */
export function sortParticipants<T extends Pick<Participant, 'role' | 'isOnline' | 'name' | 'userId'>>(people: readonly T[]): T[] {
  const rank = (person: T) => [person.role === 'host' ? 0 : 1, person.isOnline ? 0 : 1] as const;
  return [...people].sort((a, b) => {
    const [ra, rb] = [rank(a), rank(b)];
    return ra[0] - rb[0] || ra[1] - rb[1] || a.role.localeCompare(b.role) || participantName(a).localeCompare(participantName(b)) || a.userId.localeCompare(b.userId);
  });
}

/** When an offline participant was last active: 'Just now' under a minute, 'Nm ago' under an hour, else 'Nh ago'. */
export function lastActiveLabel(lastActiveIso: string, nowMs: number): string {
  const at = Date.parse(lastActiveIso);
  if (Number.isNaN(at)) return 'Just now';
  const minutes = Math.floor(Math.max(0, nowMs - at) / 60_000);
  if (minutes < 1) return 'Just now';
  if (minutes < 60) return `${minutes}m ago`;
  return `${Math.floor(minutes / 60)}h ago`;
}

export const onlineCount = (people: readonly Pick<Participant, 'isOnline'>[]): number => people.filter((person) => person.isOnline).length;
