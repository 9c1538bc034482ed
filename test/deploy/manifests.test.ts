// k8s/ is rendered with the real kustomize and checked three ways (Kubernetes API schemas, strict
// field names, the design rules); docker-compose.yml is checked against the Compose
// Specification schema and the topology rules. Each checker is also fed a broken input, to show
// that it fails on the kind of mistake it exists for.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { composeRuleErrors, composeSchemaErrors, parseCompose } from './lib/compose.js';
import {
  availabilityErrors,
  designRuleErrors,
  ingressErrors,
  networkPolicyErrors,
  probeAndResourceErrors,
  referenceErrors,
  servicePortErrors,
} from './lib/k8s-rules.js';
import { schemaErrors, unknownFieldErrors } from './lib/k8s-schema.js';
import { kustomize } from './lib/kustomize.js';
import { id, ofKind, type Resource } from './lib/resource.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const k8sDir = join(repoRoot, 'k8s');
const NAMESPACE = 'timeliner';

/** Reads KEY=value lines of an env file (comments and blanks skipped). */
function envFile(path: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(path, 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

const secretValues = (secret: Resource) =>
  Object.fromEntries(Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));

/**
 * The production overlay renders only with its secret env files, which are never committed. A
 * copy of k8s/ gets test values made from the committed templates (REPLACE → a test value).
 */
function withProductionSecrets(scratch: string, secrets: boolean): string {
  const copy = join(scratch, secrets ? 'with-secrets' : 'without-secrets');
  cpSync(k8sDir, copy, { recursive: true, filter: (src) => !/overlays\/[^/]+\/secrets\/[^/]+\.env$/.test(src) });
  if (secrets) {
    const dir = join(copy, 'overlays', 'production', 'secrets');
    for (const example of readdirSync(dir).filter((f) => f.endsWith('.env.example'))) {
      const text = readFileSync(join(dir, example), 'utf8').replaceAll('REPLACE', `test-value-from-${example.split('.')[0]}`);
      writeFileSync(join(dir, example.replace(/\.example$/, '')), text);
    }
  }
  return join(copy, 'overlays', 'production');
}

describe('k8s', () => {
  let scratch: string;
  let renders: Record<'base' | 'production', Resource[]>;

  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'timeliner-k8s-'));
    renders = {
      base: kustomize(join(k8sDir, 'base')),
      production: kustomize(withProductionSecrets(scratch, true)),
    };
  });

  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  describe.each(['base', 'production'] as const)('k8s/%s rendered by kustomize', (name) => {
    const resources = () => renders[name];

    it('holds the whole product', () => {
      const kinds = new Set(resources().map((r) => r.kind));
      for (const kind of ['Namespace', 'ConfigMap', 'Secret', 'Deployment', 'Service', 'Ingress', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'NetworkPolicy', 'StatefulSet']) {
        expect(kinds).toContain(kind);
      }
      expect(ofKind(resources(), 'Deployment').map((d) => d.metadata.name).sort()).toEqual(expect.arrayContaining(['auth', 'gateway', 'media', 'media-worker', 'notifications', 'search', 'social', 'timelines']));
      expect(ofKind(resources(), 'StatefulSet').map((s) => s.metadata.name).sort()).toEqual(['nats', 'postgres', 'redis', 'seaweedfs']);
    });

    it('matches the Kubernetes API schemas', async () => {
      expect(await schemaErrors(resources())).toEqual([]);
    });

    it('uses no field the API does not define', () => {
      expect(unknownFieldErrors(resources())).toEqual([]);
    });

    it('follows the design rules (probes, resources, security, ports, policies, ingress, availability)', () => {
      expect(designRuleErrors(resources())).toEqual([]);
    });

    it('trusts exactly the one proxy hop in front of the gateway, so each client is its own address', () => {
      // Only the ingress controller reaches the gateway (NetworkPolicy gateway-from-ingress-controller):
      // without TRUST_PROXY every user would share its address and its rate limits.
      const config = ofKind(resources(), 'ConfigMap').find((c) => c.metadata.name.startsWith('timeliner-config'));
      expect((config as unknown as { data: Record<string, string> }).data.TRUST_PROXY).toBe('1');
      const policy = ofKind(resources(), 'NetworkPolicy').find((p) => p.metadata.name === 'gateway-from-ingress-controller');
      expect(JSON.stringify(policy)).toContain('ingress-nginx');
    });

    it('keeps the gateway\'s metrics and probes off the port the Ingress reaches', () => {
      const gateway = ofKind(resources(), 'Deployment').find((d) => d.metadata.name === 'gateway') as unknown as {
        spec: { template: { metadata: { annotations: Record<string, string> }; spec: { containers: Array<Record<string, unknown> & { env: Array<{ name: string; value: string }>; ports: Array<{ name: string; containerPort: number }> }> } } };
      };
      const container = gateway.spec.template.spec.containers[0]!;
      const internal = container.ports.find((p) => p.name === 'internal')!;
      expect(container.env).toContainEqual({ name: 'INTERNAL_PORT', value: String(internal.containerPort) });
      // Probed from outside the pod: every address (the internal port's default is loopback).
      expect(container.env).toContainEqual({ name: 'INTERNAL_HOST', value: '0.0.0.0' });
      for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) {
        expect((container[probe] as { httpGet: { port: string } }).httpGet.port).toBe('internal');
      }
      expect(gateway.spec.template.metadata.annotations['prometheus.io/port']).toBe(String(internal.containerPort));
      const service = ofKind(resources(), 'Service').find((r) => r.metadata.name === 'gateway') as unknown as { spec: { ports: Array<{ targetPort: string }> } };
      expect(service.spec.ports.map((p) => p.targetPort)).toEqual(['http']);
    });

    it(`puts everything in the ${NAMESPACE} namespace`, () => {
      const misplaced = resources().filter((r) => r.kind !== 'Namespace' && r.metadata.namespace !== NAMESPACE);
      expect(misplaced.map(id)).toEqual([]);
    });
  });

  describe('the in-cluster S3 store (SeaweedFS)', () => {
    /* eslint-disable @typescript-eslint/no-explicit-any */
    const named = (kind: string, name: string) => ofKind(renders.base, kind).find((r) => r.metadata.name === name) as any;
    const config = () => ofKind(renders.base, 'ConfigMap').find((c) => c.metadata.name.startsWith('timeliner-config'))!.data!;

    it('is what S3_ENDPOINT names, on the S3 port of its Service, with a volume and a budget', () => {
      const store = named('StatefulSet', 'seaweedfs');
      const container = store.spec.template.spec.containers[0];
      expect(container.image).toMatch(/^chrislusf\/seaweedfs:\d+\.\d+$/);
      expect(container.args).toEqual(expect.arrayContaining(['server', '-s3', '-dir=/data', '-s3.port=8333']));
      expect(container.volumeMounts).toContainEqual({ name: 'data', mountPath: '/data' });
      const port = named('Service', 'seaweedfs').spec.ports[0].port;
      expect(config().S3_ENDPOINT).toBe(`http://seaweedfs:${port}`);
      expect(container.ports).toContainEqual({ name: 's3', containerPort: port });
      expect(named('PodDisruptionBudget', 'seaweedfs').spec.selector.matchLabels).toEqual({ 'app.kubernetes.io/name': 'seaweedfs' });
      expect(renders.base.filter((r) => /minio/i.test(JSON.stringify(r)))).toEqual([]);
    });

    it('takes its one identity from the apps\' S3 key, written in memory where the server reads it', () => {
      const pod = named('StatefulSet', 'seaweedfs').spec.template.spec;
      const init = pod.initContainers.find((c: any) => c.name === 's3-identities');
      const env = Object.fromEntries(init.env.map((e: any) => [e.name, e.valueFrom.secretKeyRef ?? e.valueFrom.configMapKeyRef]));
      expect(env.S3_ACCESS_KEY).toMatchObject({ name: expect.stringMatching(/^timeliner-app/), key: 'S3_ACCESS_KEY' });
      expect(env.S3_SECRET_KEY).toMatchObject({ name: expect.stringMatching(/^timeliner-app/), key: 'S3_SECRET_KEY' });
      expect(env.S3_BUCKET).toMatchObject({ name: expect.stringMatching(/^timeliner-config/), key: 'S3_BUCKET' });
      expect(init.args[0]).toContain('"Admin:$b"');
      const configArg = pod.containers[0].args.find((a: string) => a.startsWith('-s3.config='));
      const mount = pod.containers[0].volumeMounts.find((m: any) => configArg.slice('-s3.config='.length).startsWith(`${m.mountPath}/`));
      expect(init.volumeMounts).toContainEqual({ name: mount.name, mountPath: mount.mountPath });
      expect(pod.volumes.find((v: any) => v.name === mount.name).emptyDir.medium).toBe('Memory');
    });

    it('is reachable by the apps on the S3 port only', () => {
      const toStore = named('NetworkPolicy', 'apps-to-infra').spec.egress.find((r: any) => r.to[0].podSelector.matchLabels['app.kubernetes.io/name'] === 'seaweedfs');
      expect(toStore.ports).toEqual([{ protocol: 'TCP', port: 8333 }]);
      const into = named('NetworkPolicy', 'infra-from-apps').spec.ingress.flatMap((r: any) => r.ports.map((p: any) => p.port));
      expect(into).toContain(8333);
    });
  });

  describe('k8s/overlays/production', () => {
    it('does not render without its secret env files (no development placeholder can slip through)', () => {
      expect(() => kustomize(withProductionSecrets(scratch, false))).toThrow(/secrets\/app\.env/);
    });

    it('takes its secrets from those files, with the same keys as the base', () => {
      const base = Object.fromEntries(ofKind(renders.base, 'Secret').map((s) => [s.metadata.name.replace(/-[a-z0-9]{10}$/, ''), secretValues(s)]));
      for (const secret of ofKind(renders.production, 'Secret')) {
        const name = secret.metadata.name.replace(/-[a-z0-9]{10}$/, '');
        const values = secretValues(secret);
        expect(Object.keys(values).sort()).toEqual(Object.keys(base[name] ?? {}).sort());
        expect(Object.values(values).join(' ')).not.toMatch(/CHANGE-ME/);
        expect(Object.values(values).join(' ')).toMatch(/test-value-from-/);
      }
      const templates = ['app', 'infra'].map((f) => envFile(join(k8sDir, 'overlays', 'production', 'secrets', `${f}.env.example`)));
      const devSecrets = ['app', 'infra'].map((f) => envFile(join(k8sDir, 'base', 'dev-secrets', `${f}.env`)));
      expect(templates.map((t) => Object.keys(t).sort())).toEqual(devSecrets.map((d) => Object.keys(d).sort()));
    });

    it('runs our images from a registry at a pinned version', () => {
      const ours = ofKind(renders.production, 'Deployment').flatMap((d) => d.spec.template.spec.containers.map((c: { image: string }) => c.image));
      expect(ours.length).toBeGreaterThan(0);
      for (const image of ours) expect(image).toMatch(/^[a-z0-9.-]+\.[a-z]+\/timeliner\/[a-z-]+:(?!dev$|latest$)[\w.-]+$/);
    });
  });

  // ------------------------------------------------------------------------------------------------
  // The checkers catch real mistakes.

  /** The rendered base with one resource replaced by an edited copy. */
  function broken(kind: string, name: string, edit: (r: Resource) => void): Resource[] {
    return renders.base.map((r) => {
      if (r.kind !== kind || r.metadata.name !== name) return r;
      const copy = structuredClone(r);
      edit(copy);
      return copy;
    });
  }

  const firstContainer = (d: Resource) => d.spec.template.spec.containers[0];

  describe('the k8s checks fail on', () => {
    it('a wrong field type (containerPort as a string)', async () => {
      const resources = broken('Deployment', 'gateway', (d) => (firstContainer(d).ports[0].containerPort = 'eighty'));
      expect(await schemaErrors(resources)).toEqual([expect.stringMatching(/^Deployment\/gateway: .*containerPort must be integer/)]);
    });

    it('a missing required field (a container without a name)', async () => {
      const resources = broken('Deployment', 'auth', (d) => delete firstContainer(d).name);
      expect(await schemaErrors(resources)).toEqual([expect.stringMatching(/^Deployment\/auth: .*must have required property name$/)]);
    });

    it('a kind the API does not have', async () => {
      const resources = broken('Service', 'auth', (s) => (s.kind = 'Servce'));
      expect(await schemaErrors(resources)).toEqual(['Servce/auth: no schema for v1 Servce']);
    });

    it('a misspelt field (readinesProbe)', () => {
      const resources = broken('Deployment', 'gateway', (d) => {
        const c = firstContainer(d);
        c.readinesProbe = c.readinessProbe;
        delete c.readinessProbe;
      });
      expect(unknownFieldErrors(resources)).toEqual([expect.stringMatching(/^Deployment\/gateway: .*'"?readinesProbe"?' does not exist in type/)]);
      expect(probeAndResourceErrors(resources)).toEqual(['Deployment/gateway container gateway: no readinessProbe']);
    });

    it('a container without an image or resource requests', () => {
      const resources = broken('Deployment', 'auth', (d) => {
        delete firstContainer(d).image;
        delete firstContainer(d).resources.requests;
      });
      expect(probeAndResourceErrors(resources)).toEqual([
        'Deployment/auth container auth: no image',
        'Deployment/auth container auth: no cpu and memory requests',
      ]);
    });

    it('a Service whose targetPort no container exposes', () => {
      const resources = broken('Service', 'auth', (s) => (s.spec.ports[0].targetPort = 'metrics'));
      expect(servicePortErrors(resources)).toEqual(['Service/auth: targetPort metrics is not a container port of Deployment/auth']);
    });

    it('a reference to a ConfigMap that does not exist', () => {
      const resources = broken('Deployment', 'auth', (d) => (firstContainer(d).envFrom[0].configMapRef.name = 'timeliner-confg'));
      expect(referenceErrors(resources)).toEqual(['Deployment/auth: references missing ConfigMap timeliner-confg']);
    });

    it('a NetworkPolicy that lets another namespace reach a service, or no default deny', () => {
      const open = broken('NetworkPolicy', 'services-from-gateway', (p) => p.spec.ingress[0].from.push({ namespaceSelector: {} }));
      // One finding per service Deployment the policy now opens (it selects component=service).
      const services = ofKind(renders.base, 'Deployment')
        .filter((d) => d.spec.template.metadata.labels['app.kubernetes.io/component'] === 'service')
        .map((d) => d.metadata.name)
        .sort();
      expect(services).toEqual(expect.arrayContaining(['auth', 'notifications', 'search', 'social', 'timelines']));
      expect(networkPolicyErrors(open)).toEqual(
        services.map((name) => `NetworkPolicy/services-from-gateway admits {"namespaceSelector":{}} to Deployment/${name}, which is not the gateway`),
      );
      const noDeny = renders.base.filter((r) => !(r.kind === 'NetworkPolicy' && r.metadata.name === 'default-deny'));
      expect(networkPolicyErrors(noDeny)).toEqual([expect.stringMatching(/^no default-deny ingress NetworkPolicy/)]);
    });

    it('a worker reachable from the gateway, without its autoscaler, or with two', () => {
      const open = broken('NetworkPolicy', 'services-from-gateway', (p) => (p.spec.podSelector = { matchLabels: { 'app.kubernetes.io/name': 'media-worker' } }));
      expect(networkPolicyErrors(open)).toEqual([
        'NetworkPolicy/services-from-gateway admits {"podSelector":{"matchLabels":{"app.kubernetes.io/component":"gateway"}}} to worker Deployment/media-worker, which takes no inbound traffic',
      ]);
      const unscaled = renders.base.filter((r) => !(r.kind === 'ScaledObject' && r.metadata.name === 'media-worker'));
      expect(availabilityErrors(unscaled)).toEqual(['Deployment/media-worker: a worker without a HorizontalPodAutoscaler or ScaledObject']);
      const hpa = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'media-worker' }, spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'media-worker' }, minReplicas: 1, maxReplicas: 6 } };
      expect(availabilityErrors([...renders.base, hpa])).toEqual(['Deployment/media-worker: scaled by both HorizontalPodAutoscaler/media-worker and ScaledObject/media-worker']);
    });

    it('an Ingress path that bypasses the gateway', () => {
      const resources = broken('Ingress', 'timeliner', (i) =>
        i.spec.rules[0].http.paths.push({ path: '/api/auth', pathType: 'Prefix', backend: { service: { name: 'auth', port: { name: 'http' } } } }),
      );
      expect(ingressErrors(resources)).toEqual(['Ingress/timeliner routes /api/auth to auth, not the gateway']);
    });
  });
});

// ------------------------------------------------------------------------------------------------

describe('docker-compose.yml', () => {
  const compose = () => parseCompose(readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8'));
  const dockerfile = () => readFileSync(join(repoRoot, 'deploy', 'Dockerfile'), 'utf8');

  it('matches the Compose Specification schema', () => {
    expect(composeSchemaErrors(compose())).toEqual([]);
  });

  it('publishes only the gateway, builds from deploy/Dockerfile targets, waits on health checks', () => {
    expect(composeRuleErrors(compose(), dockerfile())).toEqual([]);
    const doc = compose() as { services: Record<string, { ports?: unknown[] }> };
    expect(Object.keys(doc.services).filter((s) => doc.services[s]!.ports)).toEqual(['gateway']);
  });

  /** Compose's `${NAME:-default}` and `${NAME}` with nothing set: what a bare `docker compose up` runs. */
  const withDefaults = (value: string) => value.replace(/\$\{(\w+)(?::?-([^}]*))?\}/g, (_m, _name: string, fallback?: string) => fallback ?? '');
  type ComposeService = { command?: string[]; volumes?: string[]; environment?: Record<string, string>; depends_on?: Record<string, { condition: string }>; healthcheck?: unknown; build?: unknown; configs?: Array<{ source: string; target: string }>; image?: string };
  const services = () => (compose() as { services: Record<string, ComposeService> }).services;
  const apps = () => Object.entries(services()).filter(([, s]) => s.build);
  /** The value after a flag, as `--flag value` or `-flag=value`. */
  const flag = (command: string[], name: string) => {
    const i = command.indexOf(name);
    if (i >= 0) return command[i + 1];
    return command.find((c) => c.startsWith(`${name}=`))?.slice(name.length + 1);
  };
  const configContent = (name: string) => withDefaults((compose() as { configs: Record<string, { content: string }> }).configs[name]!.content);

  it('runs NATS as three JetStream servers in one cluster, each named, routed to all three, on its own volume', () => {
    const nats = Object.entries(services()).filter(([, s]) => s.image?.startsWith('nats:'));
    expect(nats.map(([name]) => name)).toEqual(['nats-1', 'nats-2', 'nats-3']);
    const routes = nats.map(([name]) => `nats://${name}:6222`).join(',');
    const volumes = new Set<string>();
    for (const [name, server] of nats) {
      const command = server.command!;
      expect([name, command]).toEqual([name, expect.arrayContaining(['-js'])]);
      expect([name, flag(command, '--server_name'), flag(command, '--cluster_name'), flag(command, '--cluster'), flag(command, '--routes')]).toEqual([
        name,
        name,
        'timeliner',
        'nats://0.0.0.0:6222',
        routes,
      ]);
      const storeDir = flag(command, '-sd')!;
      const volume = server.volumes!.find((v) => v.endsWith(`:${storeDir}`));
      expect([name, volume]).toEqual([name, expect.stringMatching(/^[\w-]+:/)]);
      volumes.add(volume!.split(':')[0]!);
      expect(server.healthcheck).toBeDefined();
      // sync_interval has no flag: it comes from the config file every server reads.
      const config = server.configs!.find((c) => c.target === flag(command, '-c'));
      expect([name, configContent(config!.source)]).toEqual([name, expect.stringMatching(/jetstream\s*\{[^}]*sync_interval:\s*\S+/)]);
    }
    expect(volumes.size).toBe(3);
  });

  it('points every app at all three NATS servers, waits for them, and keeps each stream on all three', () => {
    const nats = Object.keys(services()).filter((name) => name.startsWith('nats-'));
    for (const [name, app] of apps()) {
      expect([name, app.environment!.NATS_URL!.split(',')]).toEqual([name, nats.map((n) => `nats://${n}:4222`)]);
      expect([name, Number(app.environment!.STREAM_REPLICAS)]).toEqual([name, nats.length]);
      for (const server of nats) expect([name, app.depends_on?.[server]?.condition]).toEqual([name, 'service_healthy']);
    }
  });

  it('stores objects in SeaweedFS on a volume, with the apps\' key limited to their bucket, and no MinIO', () => {
    expect(Object.keys(services()).filter((name) => /minio/i.test(name) || /minio/i.test(services()[name]!.image ?? ''))).toEqual([]);
    const store = services().seaweedfs!;
    expect(store.image).toMatch(/^chrislusf\/seaweedfs:\d+\.\d+$/);
    const command = store.command!;
    expect(command).toEqual(expect.arrayContaining(['server', '-s3']));
    expect(store.volumes).toContain(`seaweedfs-data:${flag(command, '-dir')}`);
    expect(store.healthcheck).toBeDefined();
    const endpoint = `http://seaweedfs:${flag(command, '-s3.port')}`;
    const identities = store.configs!.find((c) => c.target === flag(command, '-s3.config'))!;
    const { identities: [identity, ...others] } = JSON.parse(configContent(identities.source)) as { identities: Array<{ credentials: Array<{ accessKey: string; secretKey: string }>; actions: string[] }> };
    expect(others).toEqual([]);
    for (const [name, app] of apps()) {
      const env = app.environment!;
      expect([name, env.S3_ENDPOINT]).toEqual([name, endpoint]);
      expect([name, app.depends_on?.seaweedfs?.condition]).toEqual([name, 'service_healthy']);
      // The identity is the apps' own key, and it may touch only their bucket.
      expect([name, identity!.credentials]).toEqual([name, [{ accessKey: withDefaults(env.S3_ACCESS_KEY!), secretKey: withDefaults(env.S3_SECRET_KEY!) }]]);
      const bucket = withDefaults(env.S3_BUCKET!);
      expect([name, identity!.actions.every((a) => a.endsWith(`:${bucket}`))]).toEqual([name, true]);
      expect(identity!.actions).toContain(`Admin:${bucket}`); // creates the bucket on first start
    }
  });

  it('the schema check fails on a wrong type or an unknown condition', () => {
    const doc = compose() as { services: Record<string, Record<string, unknown>> };
    doc.services.auth!.ports = '3000:3000';
    (doc.services.gateway!.depends_on as Record<string, { condition: string }>).auth!.condition = 'service_ready';
    expect(composeSchemaErrors(doc)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/services\/auth\/ports must be array/),
        expect.stringMatching(/^\/services\/gateway\/depends_on\/auth\/condition must be equal to one of the allowed values/),
      ]),
    );
  });

  it('the rule check fails on a second published port or an unknown build target', () => {
    const doc = compose() as { services: Record<string, Record<string, unknown>> };
    doc.services.auth!.ports = ['3000:3000'];
    (doc.services.auth!.build as { target: string }).target = 'auht';
    expect(composeRuleErrors(doc, dockerfile())).toEqual([
      'auth publishes ports ["3000:3000"]; only the gateway may',
      'auth: build target auht is not a stage of deploy/Dockerfile',
    ]);
  });
});
