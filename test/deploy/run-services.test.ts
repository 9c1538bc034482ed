// deploy/run-services.mjs: discovery of what to run, the shared environment, and supervision of
// real child processes (small stand-in HTTP apps, so the test needs no build and no database).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { discoverApps, FIRST_SERVICE_PORT, sharedEnv, supervise, type App } from '../../deploy/run-services.mjs';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

let root: string;

const touch = (path: string, text = '') => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
};

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'timeliner-run-services-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('discoverApps', () => {
  it('finds services and workers by their entry sources, skips platform, and wires the gateway', () => {
    touch('services/social/src/main.ts');
    touch('services/auth/src/main.ts');
    touch('services/media/src/main.ts');
    touch('services/media/src/worker.ts');
    touch('services/platform/src/index.ts');
    touch('services/half-done/src/index.ts');

    const apps = discoverApps(root, { PORT: '9999' });

    expect(apps.map((a) => `${a.name}:${a.port}`)).toEqual([
      `auth:${FIRST_SERVICE_PORT}`,
      `media:${FIRST_SERVICE_PORT + 1}`,
      `media-worker:${FIRST_SERVICE_PORT + 2}`,
      `social:${FIRST_SERVICE_PORT + 3}`,
      'gateway:9999',
    ]);
    expect(apps.find((a) => a.name === 'media-worker')).toMatchObject({
      source: join('services', 'media', 'dist', 'worker.js'),
      entry: join('services', 'media', 'dist', 'worker.bundle.mjs'),
    });
    const gateway = apps.at(-1)!;
    expect(gateway).toMatchObject({ source: join('gateway', 'dist', 'main.js'), entry: join('gateway', 'dist', 'main.bundle.mjs') });
    expect(gateway.env).toEqual({
      AUTH_SERVICE_URL: `http://127.0.0.1:${FIRST_SERVICE_PORT}`,
      MEDIA_SERVICE_URL: `http://127.0.0.1:${FIRST_SERVICE_PORT + 1}`,
      SOCIAL_SERVICE_URL: `http://127.0.0.1:${FIRST_SERVICE_PORT + 3}`,
      WEB_DIST: join(root, 'frontend', 'dist'),
      INTERNAL_PORT: '10000',
    });
  });

  it('puts the gateway\'s probes and metrics on PORT + 1 (not the public port) unless INTERNAL_PORT says otherwise, and asks there whether it is ready', () => {
    const gateway = discoverApps(root, { PORT: '9999' }).at(-1)!;
    expect(gateway).toMatchObject({ port: 9999, readyPort: 10000, env: { INTERNAL_PORT: '10000' } });
    expect(discoverApps(root, {}).at(-1)).toMatchObject({ port: 8080, readyPort: 8081 });
    expect(discoverApps(root, { INTERNAL_PORT: '9100' }).at(-1)).toMatchObject({ readyPort: 9100, env: { INTERNAL_PORT: '9100' } });
  });

  it('invents no PUBLIC_ORIGIN: without one, links lead to the address each request came in on', () => {
    touch('services/timelines/src/main.ts');
    const apps = discoverApps(root, { PORT: '9999' });
    expect(apps.find((a) => a.name === 'timelines')?.env).toEqual({});
    expect(apps.find((a) => a.name === 'media-worker')?.env).toEqual({});
    expect(apps.at(-1)?.env).not.toHaveProperty('PUBLIC_ORIGIN');
    const given = discoverApps(root, { PUBLIC_ORIGIN: 'https://timeliner.example' });
    expect(given.find((a) => a.name === 'timelines')?.env).toEqual({});
  });

  it('gives the gateway port 8080 unless PORT says otherwise', () => {
    expect(discoverApps(root, {}).at(-1)?.port).toBe(8080);
  });
});

describe('sharedEnv', () => {
  it('requires DATABASE_URL and NATS_URL, naming both', () => {
    expect(() => sharedEnv({})).toThrow(/^DATABASE_URL and NATS_URL must be set/);
    expect(() => sharedEnv({ DATABASE_URL: 'postgres://x' })).toThrow(/^NATS_URL must be set/);
  });

  it('generates one INTERNAL_SECRET of at least 32 characters, or keeps the given one', () => {
    const env = { DATABASE_URL: 'postgres://x', NATS_URL: 'nats://y' };
    expect(sharedEnv(env).INTERNAL_SECRET).toMatch(/^[\w-]{32,}$/);
    expect(sharedEnv({ ...env, INTERNAL_SECRET: 'k'.repeat(40) }).INTERNAL_SECRET).toBe('k'.repeat(40));
  });

  it('makes the script exit non-zero with that message', () => {
    const env = { ...process.env, DATABASE_URL: '', NATS_URL: '' };
    const result = spawnSync(process.execPath, [join(repoRoot, 'deploy', 'run-services.mjs')], { env, encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/DATABASE_URL and NATS_URL must be set/);
  });
});

// ------------------------------------------------------------------------------------------------

/** A stand-in app: answers /health/ready, reports what it sees, drains on SIGTERM. */
const FAKE_APP = `
import { createServer } from 'node:http';
const name = process.env.FAKE_NAME;
const server = createServer((req, res) => res.writeHead(req.url === '/health/ready' ? 200 : 404).end());
const upstream = process.env.AUTH_SERVICE_URL;
server.listen(Number(process.env.PORT), process.env.HOST, async () => {
  console.log('listening on ' + process.env.HOST + ':' + process.env.PORT + ' secret=' + process.env.INTERNAL_SECRET);
  if (upstream) console.log('auth ready: ' + (await fetch(upstream + '/health/ready')).status);
  if (process.env.FAKE_CRASH_MS) setTimeout(() => { console.error('crashing'); process.exit(Number(process.env.FAKE_EXIT_CODE ?? 3)); }, Number(process.env.FAKE_CRASH_MS));
});
process.on('SIGTERM', () => { console.log('draining'); server.close(() => process.exit(0)); });
`;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

function collect() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream, text: () => text };
}

async function until(condition: () => boolean, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('supervise', () => {
  // Whatever a test left running (it failed before stopping it) is stopped, so no child outlives the run.
  const running: Array<{ stop: () => void; done: Promise<number> }> = [];
  const started = <T extends { stop: () => void; done: Promise<number> }>(run: T): T => {
    running.push(run);
    return run;
  };
  afterEach(async () => {
    for (const run of running.splice(0)) {
      run.stop();
      await run.done;
    }
  });

  async function fakeApps(crashAuthAfterMs?: number, exitCode = 3): Promise<App[]> {
    touch('fake-app.mjs', FAKE_APP);
    const [authPort, gatewayPort] = [await freePort(), await freePort()];
    return [
      { name: 'auth', kind: 'service', source: 'fake-app.mjs', entry: 'fake-app.mjs', port: authPort, env: { FAKE_NAME: 'auth', ...(crashAuthAfterMs ? { FAKE_CRASH_MS: String(crashAuthAfterMs), FAKE_EXIT_CODE: String(exitCode) } : {}) } },
      { name: 'gateway', kind: 'gateway', source: 'fake-app.mjs', entry: 'fake-app.mjs', port: gatewayPort, env: { FAKE_NAME: 'gateway', AUTH_SERVICE_URL: `http://127.0.0.1:${authPort}` } },
    ];
  }

  it('starts services, then the gateway once they are ready, prefixes output, and stops gracefully', async () => {
    const apps = await fakeApps();
    const out = collect();
    const env = { ...process.env, INTERNAL_SECRET: 's'.repeat(32), HOST: '127.0.0.1' };
    const run = started(supervise(apps, { root, env, out: out.stream, err: out.stream, readyTimeoutMs: 10_000 }));

    // The gateway asks auth once it listens, so its answer may come after the ready line.
    await until(() => out.text().includes('ready: http://localhost:') && out.text().includes('gateway | auth ready'));
    const text = out.text();
    expect(text).toContain(`auth    | listening on 127.0.0.1:${apps[0]!.port} secret=${'s'.repeat(32)}`);
    expect(text).toContain(`gateway | listening on 127.0.0.1:${apps[1]!.port}`);
    // The gateway found auth ready the moment it started.
    expect(text).toContain('gateway | auth ready: 200');

    run.stop();
    expect(await run.done).toBe(0);
    expect(out.text()).toContain('auth    | draining');
    expect(out.text()).toContain('gateway | draining');
  }, 20_000);

  it('forwards SIGTERM to every child and exits 0 once they have drained', async () => {
    const apps = await fakeApps();
    const runner = `import { supervise } from ${JSON.stringify(pathToFileURL(join(repoRoot, 'deploy', 'run-services.mjs')).href)};
process.exitCode = await supervise(JSON.parse(process.env.APPS), { root: ${JSON.stringify(root)} }).done;`;
    touch('runner.mjs', runner);
    const child = spawn(process.execPath, [join(root, 'runner.mjs')], { env: { ...process.env, HOST: '127.0.0.1', APPS: JSON.stringify(apps) } });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    started({ stop: () => child.kill('SIGTERM'), done: exited.then((code) => code ?? 0) });

    await until(() => text.includes('ready: http://localhost:'));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(text).toContain('SIGTERM: stopping 2 process(es)');
    expect(text).toContain('auth    | draining');
    expect(text).toContain('gateway | draining');
  }, 20_000);

  it('restarts a child that dies on its own, with growing pauses, while the others keep running', async () => {
    const apps = await fakeApps(1500);
    const out = collect();
    const run = started(supervise(apps, {
      root, env: { ...process.env, HOST: '127.0.0.1' }, out: out.stream, err: out.stream, readyTimeoutMs: 10_000,
      restartDelays: { first: 200, max: 400, stableAfter: 60_000 },
    }));
    const starts = () => out.text().split('\n').filter((line) => line.startsWith('auth    | listening on')).length;
    await until(() => starts() >= 3, 15_000);
    const text = out.text();
    expect(text).toContain('auth    | exited unexpectedly (code 3); restarting in 0.2 s');
    expect(text).toContain('auth    | exited unexpectedly (code 3); restarting in 0.4 s');
    expect(text).not.toContain('gateway | draining');
    run.stop();
    expect(await run.done).toBe(0);
    expect(out.text()).toContain('gateway | draining');
  }, 25_000);

  it('stops everything and reports failure when a child says its configuration is wrong (exit 78)', async () => {
    const apps = await fakeApps(1500, 78);
    const out = collect();
    const run = started(supervise(apps, { root, env: { ...process.env, HOST: '127.0.0.1' }, out: out.stream, err: out.stream, readyTimeoutMs: 10_000 }));

    expect(await run.done).toBe(1);
    expect(out.text()).toContain('auth    | crashing');
    expect(out.text()).toContain('auth    | exited (code 78): its configuration is wrong; stopping the others');
    expect(out.text()).toContain('gateway | draining');
  }, 20_000);
});
