// deploy/run-services.mjs with several replicas: what runs, on which ports, and the HAProxy
// configuration in front of them, checked by HAProxy itself (`haproxy -c`). The processes behind
// it are tried by the cluster suite (test/cluster/replicas.cluster.ts).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { checkBalancer, discoverApps, FIRST_REPLICA_PORT, FIRST_SERVICE_PORT, replicasOf, replicate } from '../../deploy/run-services.mjs';

const HAPROXY = process.env.HAPROXY ?? 'haproxy';
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'timeliner-replicas-'));
  for (const path of ['services/auth/src/main.ts', 'services/media/src/main.ts', 'services/media/src/worker.ts', 'services/platform/src/index.ts']) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), '');
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('replicate', () => {
  it('runs N of every process on ports of their own, HAProxy first on the ports the single ones had', () => {
    const single = discoverApps(root, { PORT: '9000' });
    const apps = replicate(single, 2, { env: {} });
    expect(apps.map((a) => `${a.name}:${a.kind}:${a.port}`)).toEqual([
      'haproxy:balancer:9000',
      `auth-1:service:${FIRST_REPLICA_PORT}`,
      `auth-2:service:${FIRST_REPLICA_PORT + 1}`,
      `media-1:service:${FIRST_REPLICA_PORT + 2}`,
      `media-2:service:${FIRST_REPLICA_PORT + 3}`,
      `media-worker-1:worker:${FIRST_REPLICA_PORT + 4}`,
      `media-worker-2:worker:${FIRST_REPLICA_PORT + 5}`,
      `gateway-1:gateway:${FIRST_REPLICA_PORT + 6}`,
      `gateway-2:gateway:${FIRST_REPLICA_PORT + 7}`,
    ]);
    // HAProxy answers readiness where the single gateway did; each gateway has its own internal port.
    expect(apps[0]!.readyPort).toBe(9001);
    const gateways = apps.filter((a) => a.kind === 'gateway');
    expect(gateways.map((g) => g.readyPort)).toEqual([FIRST_REPLICA_PORT + 8, FIRST_REPLICA_PORT + 9]);
    for (const g of gateways) {
      // The services' URLs are HAProxy's frontends on their usual ports; the client is who HAProxy saw.
      expect(g.env).toMatchObject({ AUTH_SERVICE_URL: `http://127.0.0.1:${FIRST_SERVICE_PORT}`, MEDIA_SERVICE_URL: `http://127.0.0.1:${FIRST_SERVICE_PORT + 1}`, INTERNAL_PORT: String(g.readyPort), TRUST_PROXY: '1' });
    }
    expect(replicate(single, 2, { env: { TRUST_PROXY: '10.0.0.0/8' } }).find((a) => a.name === 'gateway-1')!.env.TRUST_PROXY).toBeUndefined();
    expect(replicate(single, 1)).toBe(single);
    expect(() => replicate(single, 0)).toThrow(/at least 1/);
  });

  it('writes a configuration HAProxy accepts: the gateways on the public port, each service over its replicas, every replica checked on /health/ready', () => {
    const apps = replicate(discoverApps(root, { PORT: '9000' }), 3, { env: {} });
    const config = apps[0]!.config!;
    expect(config).toContain('bind 0.0.0.0:9000');
    expect(config).toContain(`frontend auth\n  bind 127.0.0.1:${FIRST_SERVICE_PORT}\n  default_backend auth`);
    expect(config.match(/^ {2}server auth-\d 127\.0\.0\.1:\d+ check$/gm)).toHaveLength(3);
    expect(config.match(/^ {2}server gateway-\d 127\.0\.0\.1:\d+ check port \d+$/gm)).toHaveLength(3);
    // A worker serves no API: nothing balances it.
    expect(config).not.toContain('media-worker');
    expect(config).toContain('option httpchk GET /health/ready');
    expect(config).toContain('retry-on conn-failure empty-response 503');
    // Only reads are retried once they reached a replica.
    expect(config.match(/^ {2}http-request disable-l7-retry unless METH_GET \|\| METH_HEAD \|\| METH_OPTIONS$/gm)).toHaveLength(3);
    expect(config).toContain('option http-server-close');
    expect(config.match(/^ {2}http-response set-header retry-after 2 if \{ status 503 \} !\{ res\.hdr\(retry-after\) -m found \}$/gm)).toHaveLength(3);
    expect(config).toContain('monitor-uri /health/ready');

    const found = spawnSync(HAPROXY, ['-v']);
    if (found.status !== 0) throw new Error(`\`${HAPROXY}\` is not installed: apt-get install -y haproxy (or set HAPROXY to its path)`);
    const file = join(root, 'haproxy.cfg');
    writeFileSync(file, config);
    const checked = spawnSync(HAPROXY, ['-c', '-f', file], { encoding: 'utf8' });
    expect(checked.stderr + checked.stdout).toContain('Configuration file is valid');
    expect(checked.status).toBe(0);
  });

  it('says what to install when HAProxy is missing', () => {
    const apps = replicate(discoverApps(root, {}), 2, { env: {} });
    expect(() => checkBalancer(apps, { HAPROXY: join(root, 'no-haproxy-here') })).toThrow(/apt-get install -y haproxy/);
    expect(() => checkBalancer(discoverApps(root, {}), { HAPROXY: join(root, 'no-haproxy-here') })).not.toThrow();
  });
});

describe('replicasOf', () => {
  it('reads --replicas N, --replicas=N, then REPLICAS, else one', () => {
    expect(replicasOf(['--no-build', '--replicas', '2'], {})).toBe(2);
    expect(replicasOf(['--replicas=3'], { REPLICAS: '2' })).toBe(3);
    expect(replicasOf([], { REPLICAS: '4' })).toBe(4);
    expect(replicasOf([], {})).toBe(1);
    expect(() => replicasOf(['--replicas', 'two'], {})).toThrow(/whole number/);
    expect(() => replicasOf([], { REPLICAS: '0' })).toThrow(/whole number/);
  });
});
