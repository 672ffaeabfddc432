import type { User } from '../../api/authTypes';

export type { User };

/** First and last name together, falling back to the email, then "User". */
export function displayName(user: Pick<User, 'firstName' | 'lastName' | 'email'> | null | undefined): string {
  const name = [user?.firstName, user?.lastName].filter((part) => part && part.trim()).join(' ');
  return name || user?.email || 'User';
}

/** First letter of the first name, else of the email, else "U". */
export function avatarFallback(user: Pick<User, 'firstName' | 'email'> | null | undefined): string {
  const source = user?.firstName?.trim() || user?.email?.trim();
  return source ? source[0]!.toUpperCase() : 'U';
}
