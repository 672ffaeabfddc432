import { Client } from 'minio';

export interface ObjectStorageConfig {
  S3_ENDPOINT: string;
  S3_ACCESS_KEY: string;
  S3_SECRET_KEY: string;
  S3_BUCKET: string;
  S3_REGION: string;
}

/** The one place that talks to S3-compatible object storage (MinIO locally). */
export class ObjectStorageAdapter {
  readonly bucket: string;
  private readonly client: Client;

  constructor(config: ObjectStorageConfig) {
    const endpoint = new URL(config.S3_ENDPOINT);
    this.bucket = config.S3_BUCKET;
    this.client = new Client({
      endPoint: endpoint.hostname,
      port: endpoint.port ? Number(endpoint.port) : undefined,
      useSSL: endpoint.protocol === 'https:',
      accessKey: config.S3_ACCESS_KEY,
      secretKey: config.S3_SECRET_KEY,
      region: config.S3_REGION,
      pathStyle: true,
    });
  }

  /** Creates the bucket when it does not exist yet; safe to call from every replica at boot. */
  async ensureBucket(): Promise<void> {
    if (await this.client.bucketExists(this.bucket)) return;
    try {
      await this.client.makeBucket(this.bucket);
    } catch (error) {
      // Another replica may have created it between the two calls.
      if ((error as { code?: string }).code !== 'BucketAlreadyOwnedByYou') throw error;
    }
  }

  /** Readiness probe: the bucket is reachable with our credentials. */
  async ping(): Promise<void> {
    if (!(await this.client.bucketExists(this.bucket))) throw new Error(`bucket ${this.bucket} does not exist`);
  }
}
