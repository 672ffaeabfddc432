import type { JobStorage } from '../jobs/jobs.ports';

/** Object keys (with the local file each came from); presigned urls are `signed:<key>`. */
export class InMemoryJobStorage implements JobStorage {
  readonly objects = new Map<string, { path: string; contentType: string }>();
  /** Called as an upload starts (a test can cancel the job at that moment). */
  onPut?: (key: string) => Promise<void> | void;

  async presignedReadUrl(key: string): Promise<string> {
    return `signed:${key}`;
  }

  async putFile(key: string, path: string, contentType: string): Promise<void> {
    await this.onPut?.(key);
    this.objects.set(key, { path, contentType });
  }

  async removePrefix(prefix: string): Promise<void> {
    for (const key of [...this.objects.keys()]) if (key.startsWith(prefix)) this.objects.delete(key);
  }

  keys(): string[] {
    return [...this.objects.keys()];
  }
}
