// Every app is deployable everywhere: each service (and worker) that exists in the source tree has
// an image target, a compose container, a Kubernetes Deployment and Service, and the gateway is
// told where to find it. The list of apps comes from the same discovery `npm run start:services`
// uses (deploy/run-services.mjs), so a new services/<name>/src/main.ts fails here until its
// deployment exists.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { discoverApps, type App } from '../../deploy/run-services.mjs';
import { parseCompose } from './lib/compose.js';
import { kustomize } from './lib/kustomize.js';
import { ofKind, type Resource } from './lib/resource.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Stage name → the entry file its CMD runs (`CMD ["node", "<entry>"]`), for stages that have one. */
function dockerfileEntries(text: string): Map<string, string> {
  const entries = new Map<string, string>();
  let stage = '';
  for (const line of text.split('\n')) {
    const from = /^FROM\s+\S+\s+AS\s+(\S+)/i.exec(line);
    if (from) stage = from[1]!;
    const cmd = /^CMD\s+(\[.*\])\s*$/.exec(line);
    if (cmd) {
      const argv = JSON.parse(cmd[1]!) as string[];
      if (argv[0] === 'node' && argv[1]) entries.set(stage, argv[1]);
    }
  }
  return entries;
}

const envName = (name: string) => name.toUpperCase().replace(/[^A-Z0-9]/g, '_');

/* eslint-disable @typescript-eslint/no-explicit-any */
let apps: App[];
let dockerfile: Map<string, string>;
let compose: { services: Record<string, any> };
let k8s: Resource[];

beforeAll(() => {
  apps = discoverApps(repoRoot, {});
  dockerfile = dockerfileEntries(readFileSync(join(repoRoot, 'deploy', 'Dockerfile'), 'utf8'));
  compose = parseCompose(readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8')) as typeof compose;
  k8s = kustomize(join(repoRoot, 'k8s', 'base'));
});

describe('every app in the source tree is deployed', () => {
  it('has a deploy/Dockerfile target that runs its entry', () => {
    for (const app of apps) expect([app.name, dockerfile.get(app.name)]).toEqual([app.name, app.entry.split('\\').join('/')]);
  });

  it('has a docker-compose.yml container built from that target', () => {
    for (const app of apps) expect([app.name, compose.services[app.name]?.build?.target]).toEqual([app.name, app.name]);
  });

  it('has a Kubernetes Deployment (and, for HTTP services, a Service)', () => {
    const deployments = ofKind(k8s, 'Deployment').map((d) => d.metadata.name);
    const services = ofKind(k8s, 'Service').map((s) => s.metadata.name);
    for (const app of apps) {
      expect([app.name, deployments.includes(app.name)]).toEqual([app.name, true]);
      if (app.kind !== 'worker') expect([app.name, services.includes(app.name)]).toEqual([app.name, true]);
    }
  });

  it('is known to the gateway as <NAME>_SERVICE_URL in compose and in the k8s config', () => {
    const config = ofKind(k8s, 'ConfigMap').find((c) => c.metadata.name.startsWith('timeliner-config'))!.data ?? {};
    const gatewayEnv = compose.services.gateway.environment as Record<string, string>;
    for (const app of apps.filter((a) => a.kind === 'service')) {
      const key = `${envName(app.name)}_SERVICE_URL`;
      expect([key, gatewayEnv[key]]).toEqual([key, `http://${app.name}:3000`]);
      expect([key, config[key]]).toEqual([key, `http://${app.name}`]);
    }
  });
});

describe('the gateway in compose', () => {
  it('keeps probes and metrics off its published port: an internal port its healthcheck asks, on loopback', () => {
    const gateway = compose.services.gateway;
    const env = gateway.environment as Record<string, string>;
    expect(env.INTERNAL_PORT).toBeDefined();
    expect(env.INTERNAL_PORT).not.toBe(env.PORT);
    expect(env).not.toHaveProperty('INTERNAL_HOST');
    expect((gateway.ports as string[]).some((p) => p.endsWith(`:${env.INTERNAL_PORT}`))).toBe(false);
    // The image's HEALTHCHECK (deploy/healthcheck.mjs) asks INTERNAL_PORT when it is set.
    expect(readFileSync(join(repoRoot, 'deploy', 'healthcheck.mjs'), 'utf8')).toContain('process.env.INTERNAL_PORT');
  });
});

describe('nothing is deployed that does not exist', () => {
  it('every Dockerfile app target runs an entry of an existing package', () => {
    for (const [stage, entry] of dockerfile) {
      const pkg = entry.replace(/\/dist\/[^/]+$/, '');
      expect([stage, existsSync(join(repoRoot, pkg, 'package.json'))]).toEqual([stage, true]);
    }
  });

  it('every compose app and k8s Deployment has a Dockerfile target', () => {
    const built = Object.entries(compose.services).filter(([, s]) => s.build).map(([name]) => name);
    const deployed = ofKind(k8s, 'Deployment').map((d) => d.metadata.name);
    for (const name of [...built, ...deployed]) expect([name, dockerfile.has(name)]).toEqual([name, true]);
  });
});
