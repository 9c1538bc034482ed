import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { type BucketItem, Client } from 'minio';
import { fixedSizeChunks, readExactly } from './chunks.js';
import {
  assertValidDirectoryPrefix,
  assertValidKey,
  assertValidPartList,
  assertValidPartNumber,
  assertValidPrefix,
  assertValidRange,
  assertValidSize,
} from './object-key.js';
import {
  type ByteRange,
  InvalidMultipartError,
  InvalidRangeError,
  MULTIPART_MAX_PARTS,
  MULTIPART_MIN_PART_SIZE,
  type MultipartPart,
  type MultipartUploadInfo,
  MultipartUploadNotFoundError,
  type ObjectInfo,
  ObjectNotFoundError,
  type ObjectStorage,
  type ObjectSummary,
  type PutOptions,
  SizeMismatchError,
} from './object-storage.port.js';

export interface S3ObjectStorageOptions {
  /** `http(s)://host[:port]`; buckets are addressed path-style, as MinIO expects. */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region?: string;
  /** Part size of put(); one put holds at most two parts in memory. Default 8 MiB. */
  partSize?: number;
  /** Largest part uploadPart() accepts, since a part is held in memory while it is sent. Default 64 MiB. */
  maxPartSize?: number;
}

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';
const MiB = 1024 * 1024;
const DELETE_BATCH = 1000; // DeleteObjects' limit per request

/**
 * S3 (MinIO, AWS, ...) through the `minio` client.
 *
 * put() never hands a stream to the client's putObject: for streams up to its part size (64 MiB)
 * that buffers the whole body, and above it looks for an earlier upload of the same key to resume
 * (ListMultipartUploads), which is surprising and not universally implemented. Instead a body is
 * cut into parts here: one small body is one PUT, a larger one is our own multipart upload, so a
 * put holds at most two parts in memory whatever the object's size.
 *
 * Parts are sent as Buffers because over plain HTTP the request signature covers the payload's
 * SHA-256, which must be known before the first byte goes out.
 */
export class S3ObjectStorage implements ObjectStorage {
  readonly kind = 's3' as const;
  private readonly client: Client;
  private readonly bucket: string;
  private readonly region: string;
  private readonly partSize: number;
  private readonly maxPartSize: number;

  constructor(options: S3ObjectStorageOptions) {
    const url = new URL(options.endpoint);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new Error(`S3 endpoint must be an http(s):// URL, got ${options.endpoint}`);
    }
    const useSSL = url.protocol === 'https:';
    this.bucket = options.bucket;
    this.region = options.region ?? 'us-east-1';
    this.partSize = Math.max(options.partSize ?? 8 * MiB, MULTIPART_MIN_PART_SIZE);
    this.maxPartSize = options.maxPartSize ?? 64 * MiB;
    this.client = new Client({
      endPoint: url.hostname,
      port: url.port ? Number(url.port) : useSSL ? 443 : 80,
      useSSL,
      accessKey: options.accessKey,
      secretKey: options.secretKey,
      region: this.region,
      pathStyle: true,
    });
  }

  /** Creates the bucket unless it exists. Several replicas may race here; all of them win. */
  async init(): Promise<void> {
    if (await this.client.bucketExists(this.bucket)) return;
    try {
      await this.client.makeBucket(this.bucket, this.region);
    } catch (err) {
      if (s3Code(err) !== 'BucketAlreadyOwnedByYou') throw err;
    }
  }

  async put(key: string, body: Readable | Buffer, options: PutOptions = {}): Promise<ObjectInfo> {
    assertValidKey(key);
    if (options.size !== undefined) assertValidSize(options.size, 'size');
    const contentType = options.contentType ?? DEFAULT_CONTENT_TYPE;
    const chunks = fixedSizeChunks(body, this.partSizeFor(options.size));
    try {
      const split = await splitAfterOnePart(chunks);
      if ('whole' in split) {
        checkSize(options.size, split.whole.length, true);
        await this.client.putObject(this.bucket, key, split.whole, split.whole.length, { 'Content-Type': contentType });
      } else {
        await this.putInParts(key, contentType, split.parts, options.size);
      }
    } finally {
      await chunks.return(undefined); // on failure, stops reading (and destroys) the body
    }
    return this.statOrThrow(key);
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertValidKey(key);
    if (range) assertValidRange(range);
    try {
      if (!range) return await this.client.getObject(this.bucket, key);
      // getPartialObject(offset, length) sends `Range: bytes=<start>-<start+length-1>`.
      return await this.client.getPartialObject(this.bucket, key, range.start, range.end - range.start + 1);
    } catch (err) {
      throw translate(err, key);
    }
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    assertValidKey(key);
    try {
      const stat = await this.client.statObject(this.bucket, key);
      const contentType = stat.metaData['content-type'] as string | undefined;
      return { key, size: stat.size, contentType: contentType ?? DEFAULT_CONTENT_TYPE, etag: stat.etag, lastModified: stat.lastModified };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    try {
      await this.client.removeObject(this.bucket, key);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  async deletePrefix(prefix: string): Promise<number> {
    assertValidDirectoryPrefix(prefix);
    let count = 0;
    let batch: string[] = [];
    const flush = async (): Promise<void> => {
      const results = await this.client.removeObjects(this.bucket, batch);
      const failed = results.find((result) => result?.Error);
      if (failed?.Error) throw new Error(`Could not delete ${failed.Error.Key}: ${failed.Error.Code} ${failed.Error.Message}`);
      count += batch.length;
      batch = [];
    };
    for await (const object of this.list(prefix)) {
      batch.push(object.key);
      if (batch.length === DELETE_BATCH) await flush();
    }
    if (batch.length > 0) await flush();
    return count;
  }

  async *list(prefix: string): AsyncGenerator<ObjectSummary> {
    assertValidPrefix(prefix);
    const items = this.client.listObjectsV2(this.bucket, prefix, true) as unknown as AsyncIterable<BucketItem>;
    for await (const item of items) {
      if (item.name === undefined) continue; // a common prefix; none in a recursive listing
      yield { key: item.name, size: item.size, etag: item.etag, lastModified: item.lastModified };
    }
  }

  async createMultipart(key: string, options: { contentType?: string } = {}): Promise<string> {
    assertValidKey(key);
    return this.client.initiateNewMultipartUpload(this.bucket, key, {
      'Content-Type': options.contentType ?? DEFAULT_CONTENT_TYPE,
    });
  }

  async uploadPart(key: string, uploadId: string, partNumber: number, body: Readable | Buffer, size: number): Promise<MultipartPart> {
    assertValidKey(key);
    assertValidPartNumber(partNumber);
    assertValidSize(size, 'Part size');
    assertValidUploadId(uploadId);
    if (size > this.maxPartSize) {
      throw new InvalidMultipartError(`Part of ${size} bytes exceeds the ${this.maxPartSize}-byte limit of this adapter`);
    }
    const payload = await readExactly(body, size);
    return this.sendPart(key, uploadId, partNumber, payload);
  }

  async completeMultipart(key: string, uploadId: string, parts: MultipartPart[]): Promise<ObjectInfo> {
    assertValidKey(key);
    assertValidUploadId(uploadId);
    assertValidPartList(parts);
    try {
      // The client escapes the upload id in this call itself.
      await this.client.completeMultipartUpload(
        this.bucket,
        key,
        uploadId,
        parts.map((part) => ({ part: part.partNumber, etag: part.etag })),
      );
    } catch (err) {
      throw translate(err, key, uploadId);
    }
    return this.statOrThrow(key);
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    assertValidKey(key);
    assertValidUploadId(uploadId);
    try {
      await this.client.abortMultipartUpload(this.bucket, key, escapeQueryValue(uploadId));
    } catch (err) {
      if (s3Code(err) !== 'NoSuchUpload') throw err;
    }
  }

  async *listMultipartUploads(options: { prefix?: string; initiatedBefore?: Date } = {}): AsyncGenerator<MultipartUploadInfo> {
    const prefix = options.prefix ?? '';
    assertValidPrefix(prefix);
    let keyMarker = '';
    let uploadIdMarker = '';
    for (;;) {
      const page = await this.client.listIncompleteUploadsQuery(this.bucket, prefix, keyMarker, uploadIdMarker ? escapeQueryValue(uploadIdMarker) : '', '');
      for (const upload of page.uploads) {
        if (options.initiatedBefore && upload.initiated >= options.initiatedBefore) continue;
        yield { key: upload.key, uploadId: upload.uploadId, initiated: upload.initiated };
      }
      // Continue after the last upload seen. (The client's own nextUploadIdMarker is never filled in.)
      const last = page.uploads.at(-1);
      if (!page.isTruncated || !last) return;
      keyMarker = last.key;
      uploadIdMarker = last.uploadId;
    }
  }

  async isHealthy(): Promise<boolean> {
    try {
      return await this.client.bucketExists(this.bucket);
    } catch {
      return false;
    }
  }

  private async sendPart(key: string, uploadId: string, partNumber: number, payload: Buffer): Promise<MultipartPart> {
    const md5 = createHash('md5').update(payload).digest();
    try {
      const result = await this.client.uploadPart(
        {
          bucketName: this.bucket,
          objectName: key,
          // This call puts the id into the query string as given, so escape it here.
          uploadID: escapeQueryValue(uploadId),
          partNumber,
          // Lets the server reject a part damaged on the way, also where the payload is not signed (https).
          headers: { 'Content-MD5': md5.toString('base64') },
        },
        payload,
      );
      return { partNumber, etag: result.etag || md5.toString('hex'), size: payload.length };
    } catch (err) {
      throw translate(err, key, uploadId);
    }
  }

  private async putInParts(key: string, contentType: string, chunks: AsyncIterable<Buffer>, expectedSize: number | undefined): Promise<void> {
    const uploadId = await this.createMultipart(key, { contentType });
    try {
      const parts: MultipartPart[] = [];
      let total = 0;
      for await (const chunk of chunks) {
        total += chunk.length;
        checkSize(expectedSize, total, false);
        if (parts.length === MULTIPART_MAX_PARTS) throw new InvalidMultipartError(`Body needs more than ${MULTIPART_MAX_PARTS} parts`);
        parts.push(await this.sendPart(key, uploadId, parts.length + 1, chunk));
      }
      checkSize(expectedSize, total, true);
      await this.completeMultipart(key, uploadId, parts);
    } catch (err) {
      // Best effort: an upload left behind is found again by listMultipartUploads().
      await this.abortMultipart(key, uploadId).catch(() => undefined);
      throw err;
    }
  }

  /** Part size for a put: large enough that a body of `size` bytes fits in the part limit. */
  private partSizeFor(size: number | undefined): number {
    if (size === undefined) return this.partSize;
    return Math.max(this.partSize, Math.ceil(size / MULTIPART_MAX_PARTS / MiB) * MiB);
  }

  private async statOrThrow(key: string): Promise<ObjectInfo> {
    const info = await this.stat(key);
    if (!info) throw new ObjectNotFoundError(key);
    return info;
  }
}

/**
 * Reads two chunks to learn whether the body fits in one part, then hands them on in order, so
 * the consumer holds no more chunks than fixedSizeChunks' pool allows.
 */
async function splitAfterOnePart(chunks: AsyncGenerator<Buffer>): Promise<{ whole: Buffer } | { parts: AsyncGenerator<Buffer> }> {
  const first = await chunks.next();
  const head = first.done ? Buffer.alloc(0) : first.value;
  const second = await chunks.next();
  if (second.done) return { whole: head };
  const readAhead = [head, second.value];
  return {
    parts: (async function* () {
      for (let chunk = readAhead.shift(); chunk; chunk = readAhead.shift()) yield chunk;
      yield* chunks;
    })(),
  };
}

/** Checks a running (`final` = false) or final byte count against the declared size. */
function checkSize(expected: number | undefined, actual: number, final: boolean): void {
  if (expected === undefined) return;
  if (actual > expected || (final && actual !== expected)) throw new SizeMismatchError(expected, actual);
}

/** Upload ids come from the server; they only ever travel in a query string. */
function assertValidUploadId(uploadId: string): void {
  if (typeof uploadId !== 'string' || !/^[\x21-\x7e]{1,1024}$/.test(uploadId)) {
    throw new MultipartUploadNotFoundError(String(uploadId));
  }
}

/** RFC 3986 escaping as SigV4 expects it (encodeURIComponent leaves !'()* alone). */
const escapeQueryValue = (value: string): string =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const s3Code = (err: unknown): string | undefined =>
  typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'string'
    ? (err as { code: string }).code
    : undefined;

const isNotFound = (err: unknown): boolean => ['NoSuchKey', 'NotFound'].includes(s3Code(err) ?? '');

/** Maps S3 error codes onto the port's errors; anything else passes through unchanged. */
function translate(err: unknown, key: string, uploadId?: string): unknown {
  const code = s3Code(err);
  const message = err instanceof Error ? err.message : String(err);
  if (code === 'NoSuchKey' || code === 'NotFound') return new ObjectNotFoundError(key);
  if (code === 'NoSuchUpload') return new MultipartUploadNotFoundError(uploadId ?? '');
  if (code === 'InvalidRange') return new InvalidRangeError(`Range not satisfiable for ${key}: ${message}`);
  if (code === 'InvalidPart' || code === 'InvalidPartOrder' || code === 'EntityTooSmall') return new InvalidMultipartError(message);
  return err;
}
