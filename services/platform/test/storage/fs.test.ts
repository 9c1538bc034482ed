import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
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
});
