import type { Request } from 'express';
import { currentUser } from '../auth/signed-in.guard';
import { DomainError } from '../errors/domain-error';
import type { SessionUser } from '../session/session-user';

/** The longest name the sessions service stores for a participant. */
const NAME_MAX = 200;

/** Who is calling: the signed-in user's stable id, and the name the other participants see. */
export interface SessionCaller {
  id: string;
  name: string;
}

/**
 * The name a participant is shown by: the account's first and last name, else its e-mail, else "User" and
 * the id's last four characters (the words the studio's header uses for the same person).
 */
export function participantNameOf(user: Pick<SessionUser, 'id' | 'firstName' | 'lastName' | 'email'>): string {
  const name = [user.firstName, user.lastName].map((part) => part?.trim()).filter(Boolean).join(' ');
  return (name || user.email?.trim() || `User ${user.id.slice(-4)}`).slice(0, NAME_MAX);
}

export const sessionCallerOf = (req: Request): SessionCaller => {
  const user = currentUser(req);
  return { id: user.id, name: participantNameOf(user) };
};

/**
 * A body naming a user (the host of a new session, who joins, who writes) must name the caller: the browser
 * sends its own id, and nobody acts in a session as someone else.
 */
export function mustBeCaller(claimedUserId: string, caller: SessionCaller, refusal: string): void {
  if (claimedUserId !== caller.id) throw new DomainError(403, refusal);
}
