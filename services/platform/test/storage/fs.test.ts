import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FsObjectStorage } from '../../src/storage/fs-object-storage.js';
import { MultipartUploadNotFoundError } from '../../src/storage/object-storage.port.js';
import { createObjectStorage } from '../../src/storage/storage.factory.js';
import { objectStorageContract } from './object-storage.contract.js';

let contractDir: string | undefined;

objectStorageContract('fs', {
  async setup() {
    contractDir = await mkdtemp(join(tmpdir(), 'fs-storage-'));
    const storage = await createObjectStorage({ S3_BUCKET: 'unused', DATA_DIR: contractDir });
    if (storage.kind !== 'fs') throw new Error('expected the fs adapter');
    return storage;
  },
  async teardown() {
    if (contractDir) await rm(contractDir, { recursive: true, force: true });
  },
});

/** What only the fs adapter promises: its files stay inside the root and crashes leave no half objects. */
describe('FsObjectStorage on disk', () => {
  let root: string;
  let storage: FsObjectStorage;
  const read = async (key: string): Promise<string> => {
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.get(key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString();
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'fs-storage-disk-'));
    storage = new FsObjectStorage({ root: join(root, 'storage') });
    await storage.init();
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('writes nothing outside its root, whatever the key or upload id', async () => {
    await storage.put('inside/ok', Buffer.from('x'));
    for (const key of ['../escape', 'a/../../escape', '/tmp/escape']) {
      await expect(storage.put(key, Buffer.from('x'))).rejects.toThrow();
    }
    for (const uploadId of ['../../objects/inside/ok', '..', 'not-an-id', '0'.repeat(31)]) {
      await expect(storage.uploadPart('inside/ok', uploadId, 1, Buffer.from('x'), 1)).rejects.toBeInstanceOf(MultipartUploadNotFoundError);
    }
    expect((await readdir(root)).sort()).toEqual(['storage']);
    expect(await read('inside/ok')).toBe('x');
  });

  it('leaves no temp files behind after a failed put', async () => {
    const failing = Readable.from(
      (async function* () {
        yield randomBytes(1000);
        throw new Error('client went away');
      })(),
    );
    await expect(storage.put('crash/target', failing)).rejects.toThrow('client went away');
    expect(await readdir(join(root, 'storage', '.tmp'))).toEqual([]);
    expect(await storage.stat('crash/target')).toBeNull();
  });

  it('ignores a version file no sidecar names, as a crash mid-put leaves behind', async () => {
    await storage.put('crash/kept', Buffer.from('committed'));
    await writeFile(join(root, 'storage', 'objects', 'crash', 'kept~0123456789abcdef'), 'half written');
    await writeFile(join(root, 'storage', 'objects', 'crash', 'orphan~0123456789abcdef'), 'never committed');
    expect(await read('crash/kept')).toBe('committed');
    expect(await storage.stat('crash/orphan')).toBeNull();
    const keys = [];
    for await (const object of storage.list('crash/')) keys.push(object.key);
    expect(keys).toEqual(['crash/kept']);
  });

  it('removes temp files older than an hour on start, and only those', async () => {
    const tmp = join(root, 'storage', '.tmp');
    await writeFile(join(tmp, 'stale.tmp'), 'x');
    await mkdir(join(tmp, 'stale.upload'));
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(join(tmp, 'stale.tmp'), twoHoursAgo, twoHoursAgo);
    await utimes(join(tmp, 'stale.upload'), twoHoursAgo, twoHoursAgo);
    await writeFile(join(tmp, 'in-progress.tmp'), 'x');

    await new FsObjectStorage({ root: join(root, 'storage') }).init();
    expect(await readdir(tmp)).toEqual(['in-progress.tmp']);
    await rm(join(tmp, 'in-progress.tmp'));
  });

  it('removes directories a delete leaves empty', async () => {
    await storage.put('videos/v1/hls/720p/0.ts', Buffer.from('segment'));
    await storage.put('videos/v2/original', Buffer.from('other'));
    await storage.deletePrefix('videos/v1/');
    expect(await readdir(join(root, 'storage', 'objects', 'videos'))).toEqual(['v2']);
  });

  it('keeps serving the version a reader opened while a put replaces it', async () => {
    const big = randomBytes(4 * 1024 * 1024);
    await storage.put('swap/object', big);
    const stream = await storage.get('swap/object');
    await storage.put('swap/object', Buffer.from('new'));
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(big)).toBe(true);
    expect(await read('swap/object')).toBe('new');
  });

  describe('multipart uploads whose parts arrive in order', () => {
    const MiB = 1024 * 1024;
    const uploadDir = (uploadId: string) => join(root, 'storage', '.uploads', uploadId);
    const readBuffer = async (key: string): Promise<Buffer> => {
      const chunks: Buffer[] = [];
      for await (const chunk of await storage.get(key)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    };

    it('completes by moving the appended parts into place, not by copying them', async () => {
      const parts = [randomBytes(5 * MiB), randomBytes(5 * MiB), randomBytes(123)];
      const uploadId = await storage.createMultipart('seq/fast');
      const stored = [];
      for (const [index, part] of parts.entries()) stored.push(await storage.uploadPart('seq/fast', uploadId, index + 1, Readable.from([part]), part.length));
      const { ino } = await stat(join(uploadDir(uploadId), 'sequence.data'));
      expect((await readdir(uploadDir(uploadId))).filter((name) => name.endsWith('.part'))).toEqual([]);

      const info = await storage.completeMultipart('seq/fast', uploadId, stored);
      expect(info.size).toBe(10 * MiB + 123);
      expect(info.etag).toMatch(/^[0-9a-f]{32}-3$/);
      expect((await readBuffer('seq/fast')).equals(Buffer.concat(parts))).toBe(true);
      const objectFiles = await readdir(join(root, 'storage', 'objects', 'seq'));
      const version = objectFiles.find((name) => name.startsWith('fast~'))!;
      expect((await stat(join(root, 'storage', 'objects', 'seq', version))).ino).toBe(ino);
      await expect(stat(uploadDir(uploadId))).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('never keeps the bytes of a part cut off midway, and a part sent again wins', async () => {
      const first = randomBytes(5 * MiB);
      const second = randomBytes(5 * MiB);
      const uploadId = await storage.createMultipart('seq/cut');
      const one = await storage.uploadPart('seq/cut', uploadId, 1, first, first.length);
      const cutOff = Readable.from(
        (async function* () {
          yield randomBytes(3 * MiB);
          throw new Error('client went away');
        })(),
      );
      await expect(storage.uploadPart('seq/cut', uploadId, 2, cutOff, 5 * MiB)).rejects.toThrow('client went away');
      const shortLast = await storage.uploadPart('seq/cut', uploadId, 2, Buffer.from('end'), 3);
      // The same number again: the newer bytes count.
      const replacedFirst = await storage.uploadPart('seq/cut', uploadId, 1, second, second.length);
      expect(replacedFirst.etag).not.toBe(one.etag);
      await expect(storage.completeMultipart('seq/cut', uploadId, [one, shortLast])).rejects.toThrow(/does not match etag/);
      await storage.completeMultipart('seq/cut', uploadId, [replacedFirst, shortLast]);
      expect((await readBuffer('seq/cut')).equals(Buffer.concat([second, Buffer.from('end')]))).toBe(true);
    });

    it('completes with fewer parts than were appended, dropping the rest', async () => {
      const parts = [randomBytes(5 * MiB), randomBytes(5 * MiB)];
      const uploadId = await storage.createMultipart('seq/prefix');
      const one = await storage.uploadPart('seq/prefix', uploadId, 1, parts[0]!, parts[0]!.length);
      await storage.uploadPart('seq/prefix', uploadId, 2, parts[1]!, parts[1]!.length);
      const info = await storage.completeMultipart('seq/prefix', uploadId, [one]);
      expect(info.size).toBe(5 * MiB);
      expect((await readBuffer('seq/prefix')).equals(parts[0]!)).toBe(true);
    });
  });
});
