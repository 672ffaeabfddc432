import { LRUCache } from 'lru-cache';
import { mediaReadCacheReads } from '@stemdeck/platform';

/**
 * The parts of an owner's data a read may be cached under. A change drops every cached read of its scope for
 * that owner: a project, job or analysis change drops `projects` (the library, a project with its jobs, the
 * project a stem read checks), a stem change drops `stems` (a project's stem lists, a stem's stored object).
 */
export type ReadScope = 'projects' | 'stems';

/** A change announced to the other media instances: they drop the same scope of the same owner. */
export interface ReadCacheChange {
  ownerId: string;
  scope: ReadScope;
  /** The instance that made the change (it dropped its own reads already). */
  instance: string;
}

/** How the instances tell each other about changes (NATS in the service, nothing in unit specs). */
export interface ReadCacheLink {
  announce(change: ReadCacheChange): void;
}

/**
 * How a change of one record rewrites a kept read of its scope: the read's new value, or undefined to drop it
 * (a read the change does not touch is returned as it is).
 */
export type ReadRewrite<R> = (result: R, key: string, value: unknown) => unknown;

interface Bucket {
  readonly entries: Map<string, { value: unknown; expires: number }>;
  readonly loading: Map<string, Promise<unknown>>;
}

export interface OwnerReadCacheOptions {
  /** How long a read is served from memory at most (the bound when a change from another instance is missed). */
  ttlMs: number;
  /** How many owner scopes are kept; the least recently read go first. */
  maxBuckets: number;
  instance: string;
  now?: () => number;
}

/**
 * Answers the owner's repeated reads from memory until something changes them. Every write of projects, jobs
 * and stems goes through this service's repositories, and each one calls `changed` after the database has
 * acknowledged it: the instance drops that owner's scope at once and announces it to the others before the
 * change's event goes out on the same connection, so a client that reads after an event reads the change.
 * A read that was under way when its scope changed is answered but not kept (it may hold the old value).
 * Reads are kept `ttlMs` at most, which bounds how long an instance that missed an announcement without losing
 * its connection can answer from before the change (a lost connection clears everything: read-cache.link). Concurrent reads of the same key share one database query.
 */
export class OwnerReadCache {
  private readonly buckets: LRUCache<string, Bucket>;
  private link?: ReadCacheLink;
  private readonly now: () => number;

  constructor(private readonly options: OwnerReadCacheOptions) {
    this.buckets = new LRUCache({ max: options.maxBuckets });
    this.now = options.now ?? Date.now;
  }

  get instance(): string {
    return this.options.instance;
  }

  connect(link: ReadCacheLink): void {
    this.link = link;
  }

  async read<T>(ownerId: string, scope: ReadScope, key: string, load: () => Promise<T>): Promise<T> {
    const name = bucketName(ownerId, scope);
    let bucket = this.buckets.get(name);
    const kept = bucket?.entries.get(key);
    if (kept && kept.expires > this.now()) {
      mediaReadCacheReads.inc({ scope, result: 'hit' });
      return kept.value as T;
    }
    const shared = bucket?.loading.get(key);
    if (shared) {
      mediaReadCacheReads.inc({ scope, result: 'shared' });
      return shared as Promise<T>;
    }
    mediaReadCacheReads.inc({ scope, result: 'miss' });
    if (!bucket) {
      bucket = { entries: new Map(), loading: new Map() };
      this.buckets.set(name, bucket);
    }
    const owner = bucket;
    const loading = load();
    owner.loading.set(key, loading);
    try {
      const value = await loading;
      // Kept only while its scope is unchanged since the query began: a change replaces the bucket, a
      // rewritten record lets go of the queries under way (either may have read the record as it was).
      if (this.buckets.peek(name) === owner && owner.loading.get(key) === loading) owner.entries.set(key, { value, expires: this.now() + this.options.ttlMs });
      return value;
    } finally {
      if (owner.loading.get(key) === loading) owner.loading.delete(key);
    }
  }

  /** A change this instance made (acknowledged by the database): dropped here and announced to the others. */
  changed(ownerId: string, scope: ReadScope): void {
    this.drop(ownerId, scope);
    this.link?.announce({ ownerId, scope, instance: this.options.instance });
  }

  /**
   * A write whose result says what every kept read of the scope becomes (`rewrite`), so the reads stay kept
   * (the mixer's volume changes: the stem lists are read again right after). The rewrite must keep what is
   * newer than the result where answers to overlapping writes can come back in either order (stems carry a
   * change count for this). Queries of the scope under way are let go of: they answer their callers but are
   * not kept, and later reads do not join them (they may hold what the write changed). A failed write drops
   * the scope, as `changed` does (it may have been applied); the other instances drop the scope either way.
   */
  async changedTo<R>(ownerId: string, scope: ReadScope, write: () => Promise<R>, rewrite: ReadRewrite<R>): Promise<R> {
    let result: R;
    try {
      result = await write();
    } catch (error) {
      this.changed(ownerId, scope);
      throw error;
    }
    const bucket = this.buckets.peek(bucketName(ownerId, scope));
    if (bucket) {
      for (const [key, entry] of bucket.entries) {
        const value = rewrite(result, key, entry.value);
        if (value === undefined) bucket.entries.delete(key);
        else entry.value = value;
      }
      bucket.loading.clear();
    }
    this.link?.announce({ ownerId, scope, instance: this.options.instance });
    return result;
  }

  /** Drops every kept read (the announcements of the other instances may have been missed). */
  clear(): void {
    this.buckets.clear();
  }

  /** A change another instance made. */
  heard(change: ReadCacheChange): void {
    if (change.instance !== this.options.instance) this.drop(change.ownerId, change.scope);
  }

  private drop(ownerId: string, scope: ReadScope): void {
    this.buckets.delete(bucketName(ownerId, scope));
  }
}

const bucketName = (ownerId: string, scope: ReadScope) => `${scope}\u0000${ownerId}`;
