import type { ShareLinkRecord } from './shareApi';

/** The share panel's choices and how a link reads in its list. Plain functions, no React. */

export const EXPIRY_CHOICES = [
  { id: 'never', label: 'Never', days: null },
  { id: '1', label: '1 day', days: 1 },
  { id: '7', label: '7 days', days: 7 },
  { id: '30', label: '30 days', days: 30 },
] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number]['id'];

export const expiryDays = (choice: ExpiryChoice): number | null => EXPIRY_CHOICES.find((c) => c.id === choice)?.days ?? null;

export const STATUS_NAMES: Record<ShareLinkRecord['status'], string> = { active: 'Active', expired: 'Expired', revoked: 'Revoked' };
export const STATUS_PALETTE: Record<ShareLinkRecord['status'], string> = { active: 'green', expired: 'gray', revoked: 'red' };

/** A link's date as people read it here: the local date and time, or "Never" for no expiry. */
export function linkDate(iso: string | null, never = 'Never'): string {
  if (!iso) return never;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** The page's full address: the server may answer a path (`/s/<token>`) or a whole url. */
export const absoluteUrl = (url: string, origin: string): string => new URL(url, origin).href;

/** The links newest first. */
export const newestFirst = (links: readonly ShareLinkRecord[]): ShareLinkRecord[] => [...links].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
