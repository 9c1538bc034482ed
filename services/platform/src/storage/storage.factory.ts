import { join } from 'node:path';
import { FsObjectStorage } from './fs-object-storage.js';
import type { ObjectStorage } from './object-storage.port.js';

/** The settings storage reads; the platform's BaseConfig provides them all. */
export interface ObjectStorageConfig {
  S3_ENDPOINT?: string | undefined;
  S3_ACCESS_KEY?: string | undefined;
  S3_SECRET_KEY?: string | undefined;
  S3_BUCKET: string;
  S3_REGION?: string | undefined;
  /** The fs adapter keeps its objects in `<DATA_DIR>/storage`. */
  DATA_DIR: string;
}

/**
 * S3 when an endpoint is configured, else the local directory. The returned storage is ready:
 * the bucket or the directories exist. The S3 adapter (and its client library, a fifth of a
 * service's start-up) is loaded only when it is used.
 */
export async function createObjectStorage(config: ObjectStorageConfig): Promise<ObjectStorage> {
  if (config.S3_ENDPOINT) {
    if (!config.S3_ACCESS_KEY || !config.S3_SECRET_KEY) {
      throw new Error('S3_ACCESS_KEY and S3_SECRET_KEY are required when S3_ENDPOINT is set');
    }
    const { S3ObjectStorage } = await import('./s3-object-storage.js');
    const storage = new S3ObjectStorage({
      endpoint: config.S3_ENDPOINT,
      accessKey: config.S3_ACCESS_KEY,
      secretKey: config.S3_SECRET_KEY,
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
    });
    await storage.init();
    return storage;
  }
  const storage = new FsObjectStorage({ root: join(config.DATA_DIR, 'storage') });
  await storage.init();
  return storage;
}
