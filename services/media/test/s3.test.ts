import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type ChildProcess, fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tus from 'tus-js-client';
import { createObjectStorage } from '@timeliner/platform';
import { binary, type MediaHarness, mp4Bytes, startHarness } from './harness.js';

/**
 * The upload path on the S3 adapter (s3rver in a child process; no MinIO installs here): tus
 * chunks smaller than S3's 5 MiB part minimum become 8 MiB parts through the stored tail, the
 * multipart upload completes into one object, and Range answers stay byte-exact even though
 * s3rver mishandles `bytes=0-0` and suffix ranges (the service asks for absolute ranges and
 * passes on exactly the bytes asked for).
 */
const MiB = 1024 * 1024;
const script = fileURLToPath(new URL('../../platform/test/storage/s3rver-process.mjs', import.meta.url));

describe('uploads and streaming on S3 (s3rver)', () => {
  let h: MediaHarness;
  let server: ChildProcess;
  let directory: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'media-s3rver-'));
    server = fork(script, [directory], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const [{ port }] = (await once(server, 'message')) as [{ port: number }];
    const storage = await createObjectStorage({ S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_ACCESS_KEY: 'S3RVER', S3_SECRET_KEY: 'S3RVER', S3_BUCKET: 'media', DATA_DIR: directory });
    h = await startHarness('medias3', { storage });
  });
  afterAll(async () => {
    await h.close();
    const exited = once(server, 'exit');
    server.disconnect();
    await exited;
    await rm(directory, { recursive: true, force: true });
  });

  it('a 20 MB tus upload in 3 MB chunks becomes one object, byte for byte; Range answers are exact', async () => {
    const data = mp4Bytes(20 * MiB + 17, 5);
    const as = h.as('owner');
    const upload = new tus.Upload(data, {
      endpoint: `${h.service.url}/api/uploads`,
      chunkSize: 3 * MiB,
      retryDelays: [0, 100],
      metadata: { timelineId: h.world.privateTimeline, filename: 'take.mp4', filetype: 'video/mp4' },
      onBeforeRequest(req) {
        for (const [k, v] of Object.entries(h.sign(req.getMethod(), new URL(req.getURL()).pathname, as))) req.setHeader(k, v);
      },
    });
    await new Promise<void>((resolve, reject) => {
      upload.options.onSuccess = () => resolve();
      upload.options.onError = reject;
      upload.start();
    });
    const id = upload.url!.split('/').pop()!;
    const [s] = await h.query<{ media_id: string; chunks: Array<{ size: number }> }>('SELECT media_id, chunks FROM upload_sessions WHERE id = $1', [id]);
    expect(s!.chunks.map((c) => c.size)).toEqual([8 * MiB, 8 * MiB, 4 * MiB + 17]);
    const stored = createHash('sha256');
    for await (const chunk of (await h.storage.get(`media/${s!.media_id}/original`)) as AsyncIterable<Buffer>) stored.update(chunk);
    expect(stored.digest('hex')).toBe(createHash('sha256').update(data).digest('hex'));

    const get = (range: string) => h.call('get', `/api/videos/${s!.media_id}/stream`, h.as('viewer')).set('range', range).buffer(true).parse(binary);
    for (const [range, start, end] of [['bytes=0-0', 0, 0], ['bytes=-1000', data.length - 1000, data.length - 1], ['bytes=9000000-9999999', 9_000_000, 9_999_999]] as const) {
      const res = await get(range).expect(206);
      expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${data.length}`);
      expect((res.body as Buffer).equals(data.subarray(start, end + 1))).toBe(true);
    }
  });
});
