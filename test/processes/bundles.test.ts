// The processes run from their bundles (deploy/bundle.mjs), as the containers and `npm run
// start:services` run them: the whole topology starts from them on a real Postgres and NATS, and a
// video goes through every one of them: account (auth), timeline (timelines), tus upload and
// streaming (media), processing with ffmpeg (media worker), all through the gateway, whose API
// viewer serves files from a package left outside its bundle.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as tus from 'tus-js-client';
import { createTestDatabase, deleteBusStreams, freePort, testBusPrefix, type TestDatabase } from '@timeliner/platform/testing';
import { discoverApps, sharedEnv, supervise } from '../../deploy/run-services.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const envName = (name: string) => name.toUpperCase().replace(/[^A-Z0-9]/g, '_');


describe('the topology runs from its bundles', () => {
  let db: TestDatabase;
  let dataDir: string;
  let prefix: string;
  let baseUrl: string;
  let run: ReturnType<typeof supervise> | undefined;
  const output: string[] = [];

  beforeAll(async () => {
    const apps = discoverApps(root, {});
    for (const app of apps) expect([app.name, existsSync(join(root, app.entry))]).toEqual([app.name, true]);
    db = await createTestDatabase('bundles');
    prefix = testBusPrefix('bundles');
    dataDir = mkdtempSync(join(tmpdir(), 'timeliner-bundles-'));
    // Ports of our own, so this never meets another run of the topology on 3001 and up.
    const gatewayPort = await freePort();
    for (const app of apps) if (app.kind !== 'gateway') app.port = await freePort();
    const gateway = apps.find((app) => app.kind === 'gateway')!;
    gateway.port = gatewayPort;
    // Its probes on a free port of their own too (the default, PORT + 1, may be taken).
    gateway.readyPort = await freePort();
    gateway.env.INTERNAL_PORT = String(gateway.readyPort);
    for (const app of apps.filter((a) => a.kind === 'service')) gateway.env[`${envName(app.name)}_SERVICE_URL`] = `http://127.0.0.1:${app.port}`;
    baseUrl = `http://127.0.0.1:${gatewayPort}`;

    const log = new PassThrough();
    log.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const env = sharedEnv({
      PATH: process.env.PATH ?? '',
      DATABASE_URL: db.url,
      NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
      BUS_PREFIX: prefix,
      DATA_DIR: dataDir,
      PUBLIC_ORIGIN: baseUrl,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    });
    run = supervise(apps, { root, env, out: log, err: log, readyTimeoutMs: 60_000 });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ready = await fetch(`http://127.0.0.1:${gateway.readyPort}/health/ready`).then((res) => res.ok, () => false);
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`the gateway never got ready:\n${output.join('')}`);
      await new Promise((done) => setTimeout(done, 100));
    }
  }, 90_000);

  afterAll(async () => {
    if (run) {
      run.stop();
      await run.done;
    }
    await deleteBusStreams(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', prefix).catch(() => undefined);
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  const api = async <T>(method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
  };

  it('takes a video from upload to playback across every process', async () => {
    const account = { displayName: 'Bundle Tester', username: `bundle_${prefix.slice(-6).toLowerCase()}`, email: `bundle_${prefix.slice(-6).toLowerCase()}@example.com`, password: 'correct-horse-battery' };
    const registered = await api<{ session: { token: string } }>('POST', '/api/auth/register', undefined, account);
    expect(registered.status).toBe(201);
    const token = registered.body.session.token;
    const timeline = await api<{ id: string }>('POST', '/api/timelines', token, { title: 'Bundled' });
    expect(timeline.status).toBe(201);

    const clipPath = join(dataDir, 'clip.mp4');
    const ffmpeg = spawnSync(process.env.FFMPEG_PATH ?? 'ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=25:duration=2', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-y', clipPath]);
    expect(ffmpeg.status).toBe(0);
    const clip = readFileSync(clipPath);
    await new Promise<void>((done, fail) => {
      new tus.Upload(clip, {
        endpoint: `${baseUrl}/api/uploads`,
        chunkSize: 64 * 1024,
        retryDelays: [],
        headers: { authorization: `Bearer ${token}` },
        metadata: { timelineId: timeline.body.id, filename: 'clip.mp4', filetype: 'video/mp4' },
        onSuccess: () => done(),
        onError: fail,
      }).start();
    });

    type Video = { id: string; status: string; duration: number | null; hlsUrl?: string | null };
    let videos: Video[] = [];
    const deadline = Date.now() + 60_000;
    while (!(videos[0]?.status === 'completed') && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 250));
      videos = (await api<Video[]>('GET', `/api/timelines/${timeline.body.id}/videos`, token)).body;
    }
    expect(videos).toHaveLength(1);
    expect(videos[0]).toMatchObject({ status: 'completed' });
    expect(videos[0]!.duration).toBeGreaterThan(1.5);

    const range = await fetch(`${baseUrl}/api/videos/${videos[0]!.id}/stream`, { headers: { authorization: `Bearer ${token}`, range: 'bytes=0-99' } });
    expect(range.status).toBe(206);
    expect(Buffer.from(await range.arrayBuffer()).equals(clip.subarray(0, 100))).toBe(true);
  }, 90_000);

  it('serves the API viewer from a package outside the gateway bundle', async () => {
    expect((await fetch(`${baseUrl}/api/docs`)).status).toBe(200);
    const script = await fetch(`${baseUrl}/api/docs/swagger-ui-bundle.js`);
    expect(script.status).toBe(200);
    expect((await script.text()).length).toBeGreaterThan(100_000);
    const openapi = await api<{ paths: Record<string, unknown> }>('GET', '/api/openapi.json');
    expect(Object.keys(openapi.body.paths)).toEqual(expect.arrayContaining(['/api/uploads', '/api/timelines', '/api/auth/register']));
  });
});
