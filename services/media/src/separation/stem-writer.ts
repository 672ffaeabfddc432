import type { StemSet, StemType } from '@stemdeck/audio';
import { bindToActiveSpan, SPAN_ATTRIBUTES, spanUntilSettled } from '@stemdeck/platform';
import { STEM_TYPES } from '@stemdeck/proto';
import type { StemEncoder } from './separation.ports';

/** Where the encoded stems go: the storage adapter's streaming upload (multipart, one part in memory). */
export interface StemUploader {
  putStream(key: string, body: AsyncIterable<Buffer>, contentType: string): Promise<void>;
}

export const STEM_CONTENT_TYPE = 'audio/flac';
/** Used only when a job writes no samples at all, so its stems are still valid (empty) files. */
const FALLBACK_SAMPLE_RATE = 44_100;

/**
 * Writes the four stems of one separation as they are produced: one FLAC encoder per stem (started on
 * the first samples, which carry the rate), its output streamed into object storage while the
 * separation goes on. Memory is a few chunks per stem however long the song. The objects appear at
 * their keys only when `finish` completes (a multipart upload is invisible until completed), so stems
 * already there — the first seconds, or an earlier run — stay playable meanwhile. Any failure stops
 * every encoder and upload; nothing half-written is kept.
 */
export class StemWriter {
  private encoders?: Record<StemType, StemEncoder>;
  private uploads?: Promise<void>;
  private failure?: Error;
  /** Encoded bytes handed to storage so far, all stems together. */
  bytesWritten = 0;
  /** Starts the uploads in the trace context the writer was made in (its first samples come from a callback). */
  private readonly inCreatorContext = bindToActiveSpan((work: () => void) => work());

  constructor(
    private readonly storage: StemUploader,
    private readonly newEncoder: (sampleRate: number) => StemEncoder,
    private readonly keys: Record<StemType, string>,
    /** Attributes for each stem's storage span (ids only). */
    private readonly spanAttributes: Record<string, string> = {},
  ) {}

  async write(stems: StemSet): Promise<void> {
    if (this.failure) throw this.failure;
    const encoders = this.start(stems.vocals.sampleRate);
    await Promise.all(STEM_TYPES.map((type) => encoders[type].write(stems[type].left, stems[type].right)));
    if (this.failure) throw this.failure;
  }

  /** Ends the encoders and waits until every stem is stored. */
  async finish(): Promise<void> {
    if (this.failure) throw this.failure;
    const encoders = this.start(FALLBACK_SAMPLE_RATE);
    await Promise.all(STEM_TYPES.map((type) => encoders[type].end().catch(() => undefined)));
    await this.uploads;
  }

  /** Stops everything and waits until the uploads have aborted their multipart parts. */
  async abort(): Promise<void> {
    this.stop();
    await this.uploads?.catch(() => undefined);
  }

  private stop(): void {
    this.failure ??= new Error('stem writing stopped');
    for (const type of STEM_TYPES) this.encoders?.[type].abort();
  }

  private start(sampleRate: number): Record<StemType, StemEncoder> {
    if (this.encoders) return this.encoders;
    const encoders = {} as Record<StemType, StemEncoder>;
    const uploads: Promise<void>[] = [];
    this.inCreatorContext(() => {
      for (const type of STEM_TYPES) {
        const encoder = (encoders[type] = this.newEncoder(sampleRate));
        const upload = spanUntilSettled('media.storage.write', { ...this.spanAttributes, [SPAN_ATTRIBUTES.stemType]: type }, async (span) => {
          let bytes = 0;
          const counted = untilEncoderSucceeded(encoder, (length) => {
            bytes += length;
            this.bytesWritten += length;
          });
          try {
            await this.storage.putStream(this.keys[type], counted, STEM_CONTENT_TYPE);
          } finally {
            span.setAttribute(SPAN_ATTRIBUTES.bytes, bytes);
          }
        });
        uploads.push(upload);
      }
    });
    this.encoders = encoders;
    this.uploads = Promise.all(uploads).then(
      () => undefined,
      (error: Error) => {
        // One stem failed: stop the others too (a stalled upload would block its encoder's writes).
        this.failure ??= error;
        this.stop();
        throw error;
      },
    );
    this.uploads.catch(() => undefined);
    return encoders;
  }
}

/**
 * The encoder's bytes, then its exit status: an encoder that was stopped or failed ends its output like
 * a finished one, so the upload must hear of the failure before it completes, or it would store a
 * truncated stem.
 */
async function* untilEncoderSucceeded(encoder: StemEncoder, onBytes: (length: number) => void = () => undefined): AsyncGenerator<Buffer> {
  for await (const chunk of encoder.output as AsyncIterable<Buffer>) {
    onBytes(chunk.length);
    yield chunk;
  }
  await encoder.done;
}
