import type { StemStorage } from '../separation/separation.ports';
import type { UploadStorage } from '../uploads/ingest.ports';

/** The address `InMemoryStemStorage` hands out for reading an object (FakeMediaTools decodes what is added at it). */
export const memoryUrl = (key: string): string => `memory://${key}`;

/** Object storage as a map of key to bytes; a streamed upload appears only once its body has been read to the end. */
export class InMemoryStemStorage implements StemStorage, UploadStorage {
  readonly objects = new Map<string, { body: Buffer; contentType: string }>();

  async stat(key: string): Promise<{ size: number } | undefined> {
    const object = this.objects.get(key);
    return object ? { size: object.body.length } : undefined;
  }

  async read(key: string, offset: number, length: number): Promise<AsyncIterable<Buffer>> {
    const object = this.objects.get(key);
    if (!object) throw new Error(`${key}: NoSuchKey`);
    const part = object.body.subarray(offset, offset + length);
    return (async function* () {
      yield part;
    })();
  }

  async presignedReadUrl(key: string): Promise<string> {
    return memoryUrl(key);
  }

  async putBuffer(key: string, body: Buffer, contentType: string): Promise<void> {
    this.objects.set(key, { body, contentType });
  }

  async putStream(key: string, body: AsyncIterable<Buffer>, contentType: string): Promise<void> {
    const parts: Buffer[] = [];
    for await (const part of body) parts.push(part);
    this.objects.set(key, { body: Buffer.concat(parts), contentType });
  }

  async removePrefix(prefix: string): Promise<void> {
    for (const key of this.objects.keys()) if (key.startsWith(prefix)) this.objects.delete(key);
  }

  /** Each stored object's size in bytes, by key. */
  sizes(): Record<string, number> {
    return Object.fromEntries([...this.objects].map(([key, { body }]) => [key, body.length]));
  }
}
