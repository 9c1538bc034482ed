import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
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

    /** A body that yields its bytes in pieces, waiting for `gate` before the last piece (or failing there). */
    const gatedBody = (bytes: Buffer, gate: Promise<void>, fail = false): Readable =>
      Readable.from(
        (async function* () {
          const half = bytes.length >> 1;
          yield bytes.subarray(0, half);
          await gate;
          if (fail) throw new Error('client went away');
          yield bytes.subarray(half);
        })(),
      );
    const sequenceIndex = async (uploadId: string): Promise<number[]> => {
      const log = await readFile(join(uploadDir(uploadId), 'sequence.log'), 'utf8');
      // Whole lines only, as the adapter reads them: a torn last line is not a record.
      return log.split('\n').slice(0, -1).map((line) => (JSON.parse(line) as { partNumber: number }).partNumber);
    };

    it('writes the next parts while earlier ones are still arriving, and records them in order', async () => {
      const parts = [randomBytes(5 * MiB), randomBytes(5 * MiB), randomBytes(5 * MiB), randomBytes(777)];
      const uploadId = await storage.createMultipart('seq/pipelined');
      let openFirst!: () => void;
      const firstGate = new Promise<void>((resolve) => (openFirst = resolve));
      // Part 1 is held back midway while parts 2 to 4 arrive whole: they must wait to be recorded, not go to files of their own.
      const first = storage.uploadPart('seq/pipelined', uploadId, 1, gatedBody(parts[0]!, firstGate), parts[0]!.length);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const rest = parts.slice(1).map((part, index) => storage.uploadPart('seq/pipelined', uploadId, index + 2, part, part.length));
      let restSettled = false;
      void Promise.allSettled(rest).then(() => (restSettled = true));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(restSettled).toBe(false);
      openFirst();
      const stored = [await first, ...(await Promise.all(rest))];
      expect(stored.map((part) => part.partNumber)).toEqual([1, 2, 3, 4]);
      expect(await sequenceIndex(uploadId)).toEqual([1, 2, 3, 4]);
      expect((await readdir(uploadDir(uploadId))).filter((name) => name.endsWith('.part'))).toEqual([]);
      const { ino } = await stat(join(uploadDir(uploadId), 'sequence.data'));

      await storage.completeMultipart('seq/pipelined', uploadId, stored);
      expect((await readBuffer('seq/pipelined')).equals(Buffer.concat(parts))).toBe(true);
      const version = (await readdir(join(root, 'storage', 'objects', 'seq'))).find((name) => name.startsWith('pipelined~'))!;
      expect((await stat(join(root, 'storage', 'objects', 'seq', version))).ino).toBe(ino);
    });

    it('fails the parts reserved after one that failed, keeps the recorded prefix, and appends again from there', async () => {
      const parts = [randomBytes(5 * MiB), randomBytes(5 * MiB), randomBytes(5 * MiB)];
      const uploadId = await storage.createMultipart('seq/broken');
      const one = await storage.uploadPart('seq/broken', uploadId, 1, parts[0]!, parts[0]!.length);
      let cut!: () => void;
      const gate = new Promise<void>((resolve) => (cut = resolve));
      const second = storage.uploadPart('seq/broken', uploadId, 2, gatedBody(parts[1]!, gate, true), parts[1]!.length);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const third = storage.uploadPart('seq/broken', uploadId, 3, parts[2]!, parts[2]!.length);
      cut();
      await expect(second).rejects.toThrow('client went away');
      await expect(third).rejects.toThrow('client went away');
      expect(await sequenceIndex(uploadId)).toEqual([1]);

      // Sent again, in order: appended right after part 1, over what the failed ones wrote.
      const two = await storage.uploadPart('seq/broken', uploadId, 2, parts[1]!, parts[1]!.length);
      const three = await storage.uploadPart('seq/broken', uploadId, 3, parts[2]!, parts[2]!.length);
      expect(await sequenceIndex(uploadId)).toEqual([1, 2, 3]);
      expect((await readdir(uploadDir(uploadId))).filter((name) => name.endsWith('.part'))).toEqual([]);
      await storage.completeMultipart('seq/broken', uploadId, [one, two, three]);
      expect((await readBuffer('seq/broken')).equals(Buffer.concat(parts))).toBe(true);
    });

    it('makes the parts written while a group is being synced durable together, with fewer syncs than parts', async () => {
      const parts = Array.from({ length: 8 }, () => randomBytes(5 * MiB));
      const uploadId = await storage.createMultipart('seq/grouped');
      const stored = await Promise.all(parts.map((part, index) => storage.uploadPart('seq/grouped', uploadId, index + 1, part, part.length)));
      const log = await readFile(join(uploadDir(uploadId), 'sequence.log'), 'utf8');
      expect(log.split('\n').filter(Boolean).map((line) => JSON.parse(line))).toEqual(stored.map(({ partNumber, size, etag }) => ({ partNumber, size, etag })));
      await storage.completeMultipart('seq/grouped', uploadId, stored);
      expect((await readBuffer('seq/grouped')).equals(Buffer.concat(parts))).toBe(true);
    });

    it('reads a torn last record as absent, and writes the next record over it', async () => {
      const parts = [randomBytes(5 * MiB), randomBytes(5 * MiB), randomBytes(5 * MiB)];
      const uploadId = await storage.createMultipart('seq/torn');
      const one = await storage.uploadPart('seq/torn', uploadId, 1, parts[0]!, parts[0]!.length);
      await storage.uploadPart('seq/torn', uploadId, 2, parts[1]!, parts[1]!.length);
      // A crash while the second record was being written: half of its line is on disk.
      const logPath = join(uploadDir(uploadId), 'sequence.log');
      const lines = (await readFile(logPath, 'utf8')).split('\n');
      await writeFile(logPath, `${lines[0]}\n${lines[1]!.slice(0, 30)}`);
      expect(await sequenceIndex(uploadId)).toEqual([1]);

      const two = await storage.uploadPart('seq/torn', uploadId, 2, parts[1]!, parts[1]!.length);
      const three = await storage.uploadPart('seq/torn', uploadId, 3, parts[2]!, parts[2]!.length);
      expect(await sequenceIndex(uploadId)).toEqual([1, 2, 3]);
      await storage.completeMultipart('seq/torn', uploadId, [one, two, three]);
      expect((await readBuffer('seq/torn')).equals(Buffer.concat(parts))).toBe(true);
    });

    it('completes without copying when a recorded part was sent again with the same bytes (a resume after a crash)', async () => {
      const parts = [randomBytes(5 * MiB), randomBytes(5 * MiB), randomBytes(99)];
      const uploadId = await storage.createMultipart('seq/again');
      const one = await storage.uploadPart('seq/again', uploadId, 1, parts[0]!, parts[0]!.length);
      await storage.uploadPart('seq/again', uploadId, 2, parts[1]!, parts[1]!.length);
      // The caller never learnt that part 2 was stored, so it sends it again: a file of its own.
      const two = await storage.uploadPart('seq/again', uploadId, 2, parts[1]!, parts[1]!.length);
      const three = await storage.uploadPart('seq/again', uploadId, 3, parts[2]!, parts[2]!.length);
      expect((await readdir(uploadDir(uploadId))).filter((name) => name.endsWith('.part'))).toEqual(['00002.part']);
      const { ino } = await stat(join(uploadDir(uploadId), 'sequence.data'));
      await storage.completeMultipart('seq/again', uploadId, [one, two, three]);
      expect((await readBuffer('seq/again')).equals(Buffer.concat(parts))).toBe(true);
      const version = (await readdir(join(root, 'storage', 'objects', 'seq'))).find((name) => name.startsWith('again~'))!;
      expect((await stat(join(root, 'storage', 'objects', 'seq', version))).ino).toBe(ino);
    });

    it('continues an upload recorded in the index of earlier versions (sequence.json)', async () => {
      const parts = [randomBytes(5 * MiB), randomBytes(5 * MiB), randomBytes(5 * MiB)];
      const uploadId = await storage.createMultipart('seq/legacy');
      const one = await storage.uploadPart('seq/legacy', uploadId, 1, parts[0]!, parts[0]!.length);
      const two = await storage.uploadPart('seq/legacy', uploadId, 2, parts[1]!, parts[1]!.length);
      const logPath = join(uploadDir(uploadId), 'sequence.log');
      const records = (await readFile(logPath, 'utf8')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as unknown);
      await writeFile(join(uploadDir(uploadId), 'sequence.json'), JSON.stringify(records));
      await rm(logPath);

      const three = await storage.uploadPart('seq/legacy', uploadId, 3, parts[2]!, parts[2]!.length);
      expect(await sequenceIndex(uploadId)).toEqual([1, 2, 3]);
      expect((await readdir(uploadDir(uploadId))).filter((name) => name.endsWith('.part'))).toEqual([]);
      await storage.completeMultipart('seq/legacy', uploadId, [one, two, three]);
      expect((await readBuffer('seq/legacy')).equals(Buffer.concat(parts))).toBe(true);
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
