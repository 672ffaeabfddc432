import { Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { mediaReadCacheReads } from '@stemdeck/platform';

/**
 * The parts of an owner's data a read may be kept under: `projects` (the library, a project with its jobs, the
 * project a stem read checks: projects and separation jobs) and `stems` (a project's stem lists, a stem's
 * stored object). A change of one of them drops or rewrites that scope of that owner.
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
  /** Resolves once the other instances can hear it (or gives up: a lost announcement is bounded by the time limit). */
  announce(change: ReadCacheChange): Promise<void>;
}

/**
 * How a write's result rewrites a kept read of its scope: the read's new value, or undefined to drop it (a
 * read the change does not touch is returned as it is).
 */
export type ReadRewrite<R> = (result: R, key: string, value: unknown) => unknown;

interface Bucket {
  readonly entries: LRUCache<string, { value: unknown; expires: number }>;
  readonly loading: Map<string, Promise<unknown>>;
}

export interface OwnerReadCacheOptions {
  /** How long a read is answered from memory at most (the bound when a change from another instance is missed); 0 keeps none. */
  ttlMs: number;
  /** How many owner scopes are kept; the least recently read go first. */
  maxBuckets: number;
  /** How many reads one owner scope keeps; the least recently read go first. */
  maxReadsPerBucket: number;
  instance: string;
  now?: () => number;
}

/**
 * Answers the owner's repeated reads from memory until something changes them. Every write of projects, jobs
 * and stems goes through this service's repositories, and each one, once the database has answered, drops
 * that owner's scope here (`changed`) or rewrites its kept reads with what it stored (`changedTo`, the
 * mixer's changes), and announces the change to the other instances before the repository returns: the
 * announcement has reached NATS before the write's reply or event goes out, so an instance hears of a change
 * before a client can ask it again after hearing of the change itself. A read that was under way when its
 * scope changed is answered but not kept (it may hold the old value). Concurrent reads of the same key share
 * one database query. Reads are answered from memory for `ttlMs` at most, which bounds how long an instance
 * that missed an announcement without losing its connection answers from before the change (a lost
 * connection clears everything: read-cache.link). Memory: `maxBuckets` owner scopes of `maxReadsPerBucket`
 * reads at most.
 */
export class OwnerReadCache {
  private readonly logger = new Logger(OwnerReadCache.name);
  private readonly buckets: LRUCache<string, Bucket>;
  private link?: ReadCacheLink;
  private readonly now: () => number;

  constructor(private readonly options: OwnerReadCacheOptions) {
    this.buckets = new LRUCache({ max: options.maxBuckets });
    this.now = options.now ?? Date.now;
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
      bucket = { entries: new LRUCache({ max: this.options.maxReadsPerBucket }), loading: new Map() };
      this.buckets.set(name, bucket);
    }
    const owner = bucket;
    const loading = load();
    owner.loading.set(key, loading);
    try {
      const value = await loading;
      // Kept only while its scope is unchanged since the query began: a change replaces the bucket, a
      // rewrite lets go of the queries under way (either may have read what the change changed).
      const current = this.buckets.peek(name) === owner && owner.loading.get(key) === loading;
      if (current && this.options.ttlMs > 0) owner.entries.set(key, { value, expires: this.now() + this.options.ttlMs });
      return value;
    } finally {
      if (owner.loading.get(key) === loading) owner.loading.delete(key);
    }
  }

  /** A change this instance made (answered by the database: applied, or perhaps applied): dropped here and announced. */
  async changed(ownerId: string, scope: ReadScope): Promise<void> {
    this.drop(ownerId, scope);
    await this.announce(ownerId, scope);
  }

  /** Runs a write of the owner's scope, then `changed` once it has answered (failed too: it may have been applied). */
  async changing<T>(ownerId: string, scope: ReadScope, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } finally {
      await this.changed(ownerId, scope);
    }
  }

  /**
   * A write whose result says what every kept read of the scope becomes (`rewrite`), so the reads stay kept
   * (the mixer's volume changes: the stem lists are read again right after). The rewrite must keep what is
   * newer than the result, as answers to overlapping writes can come back in either order (stems carry a
   * change count for this). Queries of the scope under way are let go of: they answer their callers but are
   * not kept, and later reads do not join them (they may hold what the write changed). The scope is dropped
   * instead, as `changed` does, when the write fails (it may have been applied) and when the scope was not
   * kept all through the write (it was dropped meanwhile: a delete and re-creation may have restarted the
   * change count). The other instances drop the scope either way.
   */
  async changedTo<R>(ownerId: string, scope: ReadScope, write: () => Promise<R>, rewrite: ReadRewrite<R>): Promise<R> {
    const name = bucketName(ownerId, scope);
    const before = this.buckets.peek(name);
    let result: R;
    try {
      result = await write();
    } catch (error) {
      await this.changed(ownerId, scope);
      throw error;
    }
    const bucket = this.buckets.peek(name);
    if (!bucket || bucket !== before) {
      await this.changed(ownerId, scope);
      return result;
    }
    for (const [key, entry] of [...bucket.entries.entries()]) {
      const value = rewrite(result, key, entry.value);
      if (value === undefined) bucket.entries.delete(key);
      else entry.value = value;
    }
    bucket.loading.clear();
    await this.announce(ownerId, scope);
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

  /** The write has happened either way: an announcement that cannot go out (shutting down) is logged, not thrown. */
  private async announce(ownerId: string, scope: ReadScope): Promise<void> {
    try {
      await this.link?.announce({ ownerId, scope, instance: this.options.instance });
    } catch (error) {
      this.logger.warn(`a change of ${scope} could not be announced to the other instances: ${(error as Error).message}`);
    }
  }
}

const bucketName = (ownerId: string, scope: ReadScope) => `${scope}\u0000${ownerId}`;
