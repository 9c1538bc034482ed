import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  InvalidMultipartError,
  InvalidObjectKeyError,
  InvalidRangeError,
  MULTIPART_MIN_PART_SIZE,
  type MultipartPart,
  MultipartUploadNotFoundError,
  ObjectNotFoundError,
  type ObjectStorage,
  SizeMismatchError,
} from '../../src/storage/object-storage.port.js';

/**
 * Behaviour a backend under test is known to lack. Each names one S3 feature; the contract still
 * runs the test and requires it to fail (`it.failing`), so the gap stays visible in the report and
 * a stand-in that gains the feature is noticed. The fs adapter runs with no gaps, so every
 * behaviour is exercised against at least one adapter.
 */
export type KnownGap =
  | 'range-first-byte'
  | 'list-key-order'
  | 'verify-part-etags'
  | 'min-part-size'
  | 'unknown-upload-id'
  | 'abort-multipart'
  | 'list-multipart-uploads';

export interface ContractTarget {
  /** A ready storage, created once for the suite; tests use their own key prefixes. */
  setup(): Promise<ObjectStorage>;
  teardown?(): Promise<void>;
  /** Known gaps of the backend, each with the reason shown in the test name. */
  gaps?: Partial<Record<KnownGap, string>>;
}

const MiB = 1024 * 1024;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Hashes a stream chunk by chunk, so a large object is never held in memory. */
async function sha256Of(stream: Readable): Promise<{ hash: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { hash: hash.digest('hex'), size };
}

/** `count` chunks of 1 MiB, each different, generated on demand; `onChunk` sees every byte. */
function generatedBody(count: number, onChunk: (chunk: Buffer) => void): Readable {
  const seed = randomBytes(MiB);
  return Readable.from(
    (function* () {
      for (let i = 0; i < count; i++) {
        const chunk = Buffer.from(seed);
        chunk.writeUInt32BE(i, 0);
        onChunk(chunk);
        yield chunk;
      }
    })(),
  );
}

/** A body that delivers some bytes and then fails, like a client that disconnects. */
function failingBody(bytes: number): Readable {
  return Readable.from(
    (async function* () {
      yield randomBytes(bytes);
      throw new Error('client went away');
    })(),
  );
}

/** Samples the process RSS while `work` runs and returns the growth of the peak over the start. */
async function peakRssGrowth(work: () => Promise<void>): Promise<number> {
  const start = process.memoryUsage.rss();
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, process.memoryUsage.rss()) - start;
}

export function objectStorageContract(name: string, target: ContractTarget): void {
  describe(`ObjectStorage contract: ${name}`, () => {
    let storage: ObjectStorage;
    const base = `contract/${randomUUID()}`;
    let n = 0;
    /** A prefix of its own for each test. */
    const space = (): string => `${base}/${++n}/`;

    beforeAll(async () => {
      storage = await target.setup();
    });
    afterAll(async () => {
      await target.teardown?.();
    });

    const itUnlessGap = (gap: KnownGap, title: string, fn: () => Promise<void>, timeout?: number): void => {
      const reason = target.gaps?.[gap];
      if (reason) it.failing(`${title} [known gap: ${reason}]`, fn, timeout);
      else it(title, fn, timeout);
    };

    describe('objects', () => {
      it('round-trips binary data with its content type', async () => {
        const key = `${space()}clip.bin`;
        const data = randomBytes(70_000);
        const put = await storage.put(key, data, { contentType: 'video/mp4' });
        expect(put).toMatchObject({ key, size: data.length, contentType: 'video/mp4' });
        expect(typeof put.etag).toBe('string');

        expect((await readAll(await storage.get(key))).equals(data)).toBe(true);
        const stat = await storage.stat(key);
        expect(stat).toMatchObject({ key, size: data.length, contentType: 'video/mp4', etag: put.etag });
        expect(stat?.lastModified).toBeInstanceOf(Date);
      });

      it('stores a stream of unknown length, and defaults the content type', async () => {
        const key = `${space()}stream`;
        const data = randomBytes(300_000);
        await storage.put(key, Readable.from([data.subarray(0, 100_000), data.subarray(100_000)]));
        expect((await readAll(await storage.get(key))).equals(data)).toBe(true);
        expect(await storage.stat(key)).toMatchObject({ size: data.length, contentType: 'application/octet-stream' });
      });

      it('stores an empty object', async () => {
        const key = `${space()}empty`;
        await storage.put(key, Buffer.alloc(0), { contentType: 'text/plain' });
        expect(await storage.stat(key)).toMatchObject({ size: 0, contentType: 'text/plain' });
        expect((await readAll(await storage.get(key))).length).toBe(0);
      });

      it('replaces an object on a second put', async () => {
        const key = `${space()}thing`;
        await storage.put(key, Buffer.from('first'), { contentType: 'text/plain' });
        await storage.put(key, Buffer.from('second version'), { contentType: 'application/json' });
        expect((await readAll(await storage.get(key))).toString()).toBe('second version');
        expect(await storage.stat(key)).toMatchObject({ size: 14, contentType: 'application/json' });
      });

      it('rejects a body of another size than declared and keeps the old object', async () => {
        const key = `${space()}sized`;
        await storage.put(key, Buffer.from('old'));
        await expect(storage.put(key, Readable.from([randomBytes(1000)]), { size: 999 })).rejects.toBeInstanceOf(SizeMismatchError);
        await expect(storage.put(key, Readable.from([randomBytes(1000)]), { size: 1001 })).rejects.toBeInstanceOf(SizeMismatchError);
        await expect(storage.put(key, randomBytes(1000), { size: 999 })).rejects.toBeInstanceOf(SizeMismatchError);
        await expect(storage.put(key, randomBytes(1000), { size: 1001 })).rejects.toBeInstanceOf(SizeMismatchError);
        expect((await readAll(await storage.get(key))).toString()).toBe('old');
      });

      it('keeps the old object when the body fails midway', async () => {
        const key = `${space()}interrupted`;
        await storage.put(key, Buffer.from('old'));
        await expect(storage.put(key, failingBody(100_000))).rejects.toThrow('client went away');
        await expect(storage.put(key, failingBody(20 * MiB))).rejects.toThrow('client went away');
        expect((await readAll(await storage.get(key))).toString()).toBe('old');
      });

      it('reports a missing object: stat null, get ObjectNotFoundError, delete no error', async () => {
        const key = `${space()}missing`;
        expect(await storage.stat(key)).toBeNull();
        await expect(storage.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
        await expect(storage.get(key, { start: 0, end: 10 })).rejects.toBeInstanceOf(ObjectNotFoundError);
        await expect(storage.delete(key)).resolves.toBeUndefined();
      });

      it('deletes an object', async () => {
        const key = `${space()}doomed`;
        await storage.put(key, Buffer.from('x'));
        await storage.delete(key);
        expect(await storage.stat(key)).toBeNull();
        await expect(storage.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
      });

      it('keeps an object and a "directory" of the same name apart', async () => {
        const prefix = space();
        await storage.put(`${prefix}a`, Buffer.from('file'));
        await storage.put(`${prefix}a/b`, Buffer.from('nested'));
        expect((await readAll(await storage.get(`${prefix}a`))).toString()).toBe('file');
        expect((await readAll(await storage.get(`${prefix}a/b`))).toString()).toBe('nested');
        await storage.delete(`${prefix}a`);
        expect((await readAll(await storage.get(`${prefix}a/b`))).toString()).toBe('nested');
      });
    });

    describe('ranges', () => {
      const data = randomBytes(10_000);
      let key: string;
      beforeAll(async () => {
        key = `${space()}ranged`;
        await storage.put(key, data);
      });
      const range = async (start: number, end: number): Promise<Buffer> => readAll(await storage.get(key, { start, end }));

      it('returns a middle range byte-exact', async () => {
        expect((await range(1000, 1999)).equals(data.subarray(1000, 2000))).toBe(true);
      });

      it('returns the last byte', async () => {
        expect((await range(9999, 9999)).equals(data.subarray(9999))).toBe(true);
      });

      it('returns the whole object as a range', async () => {
        expect((await range(0, 9999)).equals(data)).toBe(true);
      });

      it('clamps an end past the object to its last byte', async () => {
        expect((await range(9000, 1_000_000)).equals(data.subarray(9000))).toBe(true);
      });

      itUnlessGap('range-first-byte', 'returns only the first byte for 0-0', async () => {
        expect((await range(0, 0)).equals(data.subarray(0, 1))).toBe(true);
      });

      it('rejects a range that starts past the end, and malformed ranges', async () => {
        await expect(storage.get(key, { start: 10_000, end: 10_001 })).rejects.toBeInstanceOf(InvalidRangeError);
        await expect(storage.get(key, { start: 5, end: 4 })).rejects.toBeInstanceOf(InvalidRangeError);
        await expect(storage.get(key, { start: -1, end: 4 })).rejects.toBeInstanceOf(InvalidRangeError);
      });
    });

    describe('listing and prefixes', () => {
      const listKeys = async (prefix: string): Promise<string[]> => {
        const keys = [];
        for await (const object of storage.list(prefix)) keys.push(object.key.slice(prefix.length));
        return keys;
      };

      it('lists what is under a prefix, with sizes', async () => {
        const prefix = space();
        const keys = ['b/2', 'a', 'a/1', 'b/10', 'c-d/e/f'];
        for (const [i, key] of keys.entries()) await storage.put(prefix + key, randomBytes(i + 1));
        await storage.put(`${prefix.slice(0, -1)}-sibling/z`, Buffer.from('not under the prefix'));

        const listed = [];
        for await (const object of storage.list(prefix)) listed.push(object);
        expect(listed.map((o) => o.key.slice(prefix.length)).sort()).toEqual([...keys].sort());
        expect(listed.find((o) => o.key === `${prefix}c-d/e/f`)).toMatchObject({ size: 5, etag: expect.any(String) });
        expect(listed[0]?.lastModified).toBeInstanceOf(Date);

        expect(await listKeys(`${prefix}b/1`)).toEqual(['0']); // a prefix need not end at a "/"
        expect(await listKeys(`${prefix}nothing/`)).toEqual([]);
      });

      itUnlessGap('list-key-order', 'lists keys in byte order, as S3 does', async () => {
        const prefix = space();
        for (const key of ['b/2', 'a/1', 'a', 'a.x', 'b/10', 'a-']) await storage.put(prefix + key, Buffer.from(key));
        expect(await listKeys(prefix)).toEqual(['a', 'a-', 'a.x', 'a/1', 'b/10', 'b/2']);
      });

      it('deletes everything under a prefix and nothing beside it', async () => {
        const prefix = space();
        for (const key of ['v/1/original', 'v/1/hls/720p.m3u8', 'v/1/hls/720p/0.ts', 'v/10/original']) {
          await storage.put(prefix + key, Buffer.from(key));
        }
        expect(await storage.deletePrefix(`${prefix}v/1/`)).toBe(3);

        const left = [];
        for await (const object of storage.list(prefix)) left.push(object.key);
        expect(left).toEqual([`${prefix}v/10/original`]);
        expect(await storage.deletePrefix(`${prefix}v/1/`)).toBe(0);
      });

      it('refuses to delete by a prefix that does not end with "/"', async () => {
        await expect(storage.deletePrefix(`${space()}v/1`)).rejects.toBeInstanceOf(InvalidObjectKeyError);
        await expect(storage.deletePrefix('')).rejects.toBeInstanceOf(InvalidObjectKeyError);
      });
    });

    describe('keys', () => {
      const bad = ['', '../etc/passwd', 'a/../../b', '/abs/path', 'a//b', 'a/', 'a/./b', '.', 'a b', 'a\\b', 'a~b', 'ü', 'a\0b'];

      it.each(bad)('rejects the key %j on every operation', async (key) => {
        await expect(storage.put(key, Buffer.from('x'))).rejects.toBeInstanceOf(InvalidObjectKeyError);
        await expect(storage.get(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
        await expect(storage.stat(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
        await expect(storage.delete(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
        await expect(storage.createMultipart(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
      });

      it('rejects a listing prefix that climbs out', async () => {
        const iterate = async (): Promise<void> => {
          for await (const object of storage.list('../')) void object;
        };
        await expect(iterate()).rejects.toBeInstanceOf(InvalidObjectKeyError);
      });
    });

    describe('multipart uploads', () => {
      const part1 = randomBytes(5 * MiB);
      const part2 = randomBytes(5 * MiB);
      const part3 = randomBytes(1);
      const whole = Buffer.concat([part1, part2, part3]);

      it('joins 5 MiB + 5 MiB + 1 byte parts, uploaded out of order, into the exact object', async () => {
        const key = `${space()}video`;
        const uploadId = await storage.createMultipart(key, { contentType: 'video/webm' });
        expect(typeof uploadId).toBe('string');

        const third = await storage.uploadPart(key, uploadId, 3, part3, 1);
        const first = await storage.uploadPart(key, uploadId, 1, Readable.from([part1.subarray(0, MiB), part1.subarray(MiB)]), part1.length);
        const second = await storage.uploadPart(key, uploadId, 2, part2, part2.length);
        expect(first).toMatchObject({ partNumber: 1, size: 5 * MiB });
        expect(third).toMatchObject({ partNumber: 3, size: 1 });

        const info = await storage.completeMultipart(key, uploadId, [first, second, third]);
        expect(info).toMatchObject({ key, size: whole.length, contentType: 'video/webm' });
        const stored = await sha256Of(await storage.get(key));
        expect(stored).toEqual({ hash: createHash('sha256').update(whole).digest('hex'), size: whole.length });
      });

      it('replaces a part uploaded again under the same number', async () => {
        const key = `${space()}retried`;
        const uploadId = await storage.createMultipart(key);
        await storage.uploadPart(key, uploadId, 1, randomBytes(5 * MiB), 5 * MiB);
        const retried = await storage.uploadPart(key, uploadId, 1, part1, part1.length);
        const last = await storage.uploadPart(key, uploadId, 2, part3, 1);
        await storage.completeMultipart(key, uploadId, [retried, last]);
        expect((await readAll(await storage.get(key))).equals(Buffer.concat([part1, part3]))).toBe(true);
      });

      it('rejects a part of another size than declared', async () => {
        const key = `${space()}short-part`;
        const uploadId = await storage.createMultipart(key);
        await expect(storage.uploadPart(key, uploadId, 1, Readable.from([randomBytes(100)]), 101)).rejects.toBeInstanceOf(SizeMismatchError);
        await expect(storage.uploadPart(key, uploadId, 1, randomBytes(100), 99)).rejects.toBeInstanceOf(SizeMismatchError);
        await expect(storage.uploadPart(key, uploadId, 1, randomBytes(100), 101)).rejects.toBeInstanceOf(SizeMismatchError);
        await storage.abortMultipart(key, uploadId).catch(() => undefined);
      });

      it('rejects part lists out of order, repeated or empty', async () => {
        const key = `${space()}misordered`;
        const uploadId = await storage.createMultipart(key);
        const a = await storage.uploadPart(key, uploadId, 1, part1, part1.length);
        const b = await storage.uploadPart(key, uploadId, 2, part3, 1);
        await expect(storage.completeMultipart(key, uploadId, [b, a])).rejects.toBeInstanceOf(InvalidMultipartError);
        await expect(storage.completeMultipart(key, uploadId, [a, a])).rejects.toBeInstanceOf(InvalidMultipartError);
        await expect(storage.completeMultipart(key, uploadId, [])).rejects.toBeInstanceOf(InvalidMultipartError);
        await expect(storage.uploadPart(key, uploadId, 0, part3, 1)).rejects.toBeInstanceOf(InvalidMultipartError);
        await expect(storage.uploadPart(key, uploadId, 10_001, part3, 1)).rejects.toBeInstanceOf(InvalidMultipartError);
        await storage.abortMultipart(key, uploadId).catch(() => undefined);
      });

      itUnlessGap('verify-part-etags', 'rejects a completion whose etag does not match the stored part', async () => {
        const key = `${space()}tampered`;
        const uploadId = await storage.createMultipart(key);
        const part = await storage.uploadPart(key, uploadId, 1, part3, 1);
        const wrong: MultipartPart = { ...part, etag: createHash('md5').update('other').digest('hex') };
        await expect(storage.completeMultipart(key, uploadId, [wrong])).rejects.toBeInstanceOf(InvalidMultipartError);
        expect(await storage.stat(key)).toBeNull();
      });

      itUnlessGap('min-part-size', 'rejects a part below 5 MiB that is not the last', async () => {
        const key = `${space()}small-parts`;
        const uploadId = await storage.createMultipart(key);
        const small = await storage.uploadPart(key, uploadId, 1, randomBytes(MULTIPART_MIN_PART_SIZE - 1), MULTIPART_MIN_PART_SIZE - 1);
        const last = await storage.uploadPart(key, uploadId, 2, part3, 1);
        await expect(storage.completeMultipart(key, uploadId, [small, last])).rejects.toBeInstanceOf(InvalidMultipartError);
      });

      itUnlessGap('unknown-upload-id', 'rejects parts for an upload id it never issued, issued for another key, or completed', async () => {
        const key = `${space()}unknown`;
        const madeUp = randomBytes(16).toString('hex');
        await expect(storage.uploadPart(key, madeUp, 1, part3, 1)).rejects.toBeInstanceOf(MultipartUploadNotFoundError);

        const uploadId = await storage.createMultipart(key);
        await expect(storage.uploadPart(`${key}-other`, uploadId, 1, part3, 1)).rejects.toBeInstanceOf(MultipartUploadNotFoundError);
        await storage.completeMultipart(key, uploadId, [await storage.uploadPart(key, uploadId, 1, part3, 1)]);
        await expect(storage.uploadPart(key, uploadId, 2, part3, 1)).rejects.toBeInstanceOf(MultipartUploadNotFoundError);
      });

      itUnlessGap('abort-multipart', 'aborts an upload: its parts are gone and aborting again is harmless', async () => {
        const key = `${space()}aborted`;
        const uploadId = await storage.createMultipart(key);
        const part = await storage.uploadPart(key, uploadId, 1, part3, 1);
        await storage.abortMultipart(key, uploadId);
        await expect(storage.uploadPart(key, uploadId, 2, part3, 1)).rejects.toBeInstanceOf(MultipartUploadNotFoundError);
        await expect(storage.completeMultipart(key, uploadId, [part])).rejects.toBeInstanceOf(MultipartUploadNotFoundError);
        await expect(storage.abortMultipart(key, uploadId)).resolves.toBeUndefined();
        expect(await storage.stat(key)).toBeNull();
      });

      itUnlessGap('list-multipart-uploads', 'lists incomplete uploads by prefix and age', async () => {
        const prefix = space();
        const before = new Date(Date.now() - 1000);
        const first = await storage.createMultipart(`${prefix}one`);
        const second = await storage.createMultipart(`${prefix}two`);
        const done = await storage.createMultipart(`${prefix}three`);
        await storage.completeMultipart(`${prefix}three`, done, [await storage.uploadPart(`${prefix}three`, done, 1, part3, 1)]);

        const listed = [];
        for await (const upload of storage.listMultipartUploads({ prefix })) listed.push(upload);
        expect(listed.map((u) => [u.key, u.uploadId])).toEqual([
          [`${prefix}one`, first],
          [`${prefix}two`, second],
        ]);
        expect(listed[0]?.initiated).toBeInstanceOf(Date);

        const old = [];
        for await (const upload of storage.listMultipartUploads({ prefix, initiatedBefore: before })) old.push(upload);
        expect(old).toEqual([]);
      });
    });

    describe('large objects', () => {
      // Buffering the object would grow the process by at least its 50 MiB. (The S3 suite runs its
      // server in another process, so only the adapter's memory counts here.)
      it(
        'streams a 50 MiB object through put and get with modest memory',
        async () => {
          const key = `${space()}large`;
          const source = createHash('sha256');
          let stored: { hash: string; size: number } | undefined;
          const growth = await peakRssGrowth(async () => {
            await storage.put(key, generatedBody(50, (chunk) => source.update(chunk)), { contentType: 'video/mp4' });
            stored = await sha256Of(await storage.get(key));
          });
          expect(stored).toEqual({ hash: source.digest('hex'), size: 50 * MiB });
          expect(growth).toBeLessThan(40 * MiB);
          await storage.delete(key);
        },
        20_000,
      );
    });

    it('reports itself healthy', async () => {
      expect(await storage.isHealthy()).toBe(true);
    });
  });
}
