import { Injectable } from '@nestjs/common';
import type { StereoAudio } from '@stemdeck/audio';

const MAX_ENTRIES = 2;
const MAX_AGE_MS = 60_000;
/** Only songs up to this long are kept (≤ 106 MB each at 44.1 kHz); longer recordings are streamed again by the job. */
export const CACHED_AUDIO_MAX_SECONDS = 300;

/**
 * Keeps the last decoded uploads for a minute so the separation job that ingest queues, when this same
 * replica picks it up (the usual case), starts separating at once instead of decoding the file again.
 * Another replica simply decodes; the cache is an optimisation, never a source of truth, and it never
 * holds a long recording (memory must not grow with the file's length).
 */
@Injectable()
export class DecodedAudioCache {
  private readonly entries = new Map<string, { audio: StereoAudio; storedAt: number }>();

  put(objectKey: string, audio: StereoAudio): void {
    this.entries.delete(objectKey);
    const entry = { audio, storedAt: Date.now() };
    this.entries.set(objectKey, entry);
    while (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    // A job taken by another replica never claims its entry: let go of the samples after a minute anyway.
    setTimeout(() => this.entries.get(objectKey) === entry && this.entries.delete(objectKey), MAX_AGE_MS).unref();
  }

  /** The decoded audio, handed over once (the entry is dropped so memory is freed with the job). */
  take(objectKey: string): StereoAudio | undefined {
    const entry = this.entries.get(objectKey);
    this.entries.delete(objectKey);
    if (!entry || Date.now() - entry.storedAt > MAX_AGE_MS) return undefined;
    return entry.audio;
  }
}
