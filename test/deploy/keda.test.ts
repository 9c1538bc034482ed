// The media worker scales on its queue: KEDA's ScaledObject (k8s/base/media-worker/scaledobject.yaml)
// rendered by kustomize (the base, the production overlay, and the overlay with the NATS cluster),
// validated against KEDA's CRD schema, its `nats-jetstream` triggers' metadata against the
// scaler's documented fields (keda.sh/docs/scalers/nats-jetstream), and tied to what the apps do:
// the stream and the consumers are the ones the media worker takes its jobs from under the
// rendered BUS_PREFIX, the monitoring endpoint is the NATS Service's on the port NATS serves it,
// KEDA's operator may reach that port, and no HorizontalPodAutoscaler of ours fights KEDA's.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MediaJobs, PersonalData } from '@timeliner/proto';
import { WorkWire } from '../../services/platform/src/bus/work-queue-jetstream.js';
import { availabilityErrors } from './lib/k8s-rules.js';
import { schemaErrors, unknownFieldErrors } from './lib/k8s-schema.js';
import { kustomize } from './lib/kustomize.js';
import { autoscalers, ofKind, podTemplate, type Resource, selects } from './lib/resource.js';

const k8sDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'k8s');

/** The nats-jetstream scaler's metadata: required, then optional. */
const REQUIRED = ['natsServerMonitoringEndpoint', 'stream', 'consumer', 'lagThreshold'];
const OPTIONAL = ['account', 'activationLagThreshold', 'useHttps'];

type Variant = 'base' | 'production' | 'nats-cluster';

interface Selector {
  matchLabels?: Record<string, string>;
}
interface IngressRule {
  from?: Array<{ namespaceSelector?: Selector; podSelector?: Selector }>;
  ports?: Array<{ port?: number | string }>;
}

describe('the media worker\'s KEDA ScaledObject', () => {
  let scratch: string;
  const renders = {} as Record<Variant, Resource[]>;

  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'timeliner-keda-'));
    const copy = join(scratch, 'k8s');
    cpSync(k8sDir, copy, { recursive: true, filter: (src) => !/overlays\/[^/]+\/secrets\/[^/]+\.env$/.test(src) });
    const secrets = join(copy, 'overlays', 'production', 'secrets');
    for (const example of readdirSync(secrets).filter((f) => f.endsWith('.env.example'))) {
      writeFileSync(join(secrets, example.replace(/\.example$/, '')), readFileSync(join(secrets, example), 'utf8').replaceAll('REPLACE', 'test-value'));
    }
    const cluster = join(copy, 'variants', 'nats-cluster');
    mkdirSync(cluster, { recursive: true });
    writeFileSync(join(cluster, 'kustomization.yaml'), 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - ../../overlays/production\ncomponents:\n  - ../../components/nats-cluster\n');
    renders.base = kustomize(join(copy, 'base'));
    renders.production = kustomize(join(copy, 'overlays', 'production'));
    renders['nats-cluster'] = kustomize(cluster);
  });

  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  const scaledObject = (variant: Variant) => ofKind(renders[variant], 'ScaledObject').find((o) => o.metadata.name === 'media-worker')!;

  it.each(['base', 'production', 'nats-cluster'] as const)('%s: valid against KEDA\'s schema, the only autoscaler of the media worker', async (variant) => {
    const object = scaledObject(variant);
    expect(object).toBeDefined();
    expect(object.apiVersion).toBe('keda.sh/v1alpha1');
    expect(await schemaErrors([object])).toEqual([]);
    expect(unknownFieldErrors([object])).toEqual([]);
    expect(object.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'media-worker' });
    expect(ofKind(renders[variant], 'Deployment').some((d) => d.metadata.name === 'media-worker')).toBe(true);
    // KEDA makes its own HorizontalPodAutoscaler from this; one of ours on the same Deployment would fight it.
    expect(autoscalers(renders[variant]).filter((a) => a.target.name === 'media-worker').map((a) => a.resource.kind)).toEqual(['ScaledObject']);
    expect(availabilityErrors(renders[variant])).toEqual([]);
    // Never to zero (the worker also re-queues stuck jobs and relays its outbox); the slow scale-down kept.
    expect(object.spec.minReplicaCount).toBeGreaterThanOrEqual(1);
    expect(object.spec.maxReplicaCount).toBeGreaterThan(object.spec.minReplicaCount);
    expect(object.spec.advanced.horizontalPodAutoscalerConfig.behavior.scaleDown.stabilizationWindowSeconds).toBeGreaterThanOrEqual(300);
  });

  it('keeps production\'s two to twelve workers', () => {
    expect(scaledObject('production').spec).toMatchObject({ minReplicaCount: 2, maxReplicaCount: 12 });
    expect(scaledObject('base').spec).toMatchObject({ minReplicaCount: 1, maxReplicaCount: 6 });
  });

  it.each(['base', 'production', 'nats-cluster'] as const)('%s: scales on the lag of the consumers the media worker takes its jobs from, and on CPU', (variant) => {
    const resources = renders[variant];
    const config = ofKind(resources, 'ConfigMap').find((c) => c.metadata.name.startsWith('timeliner-config'))!;
    const wire = new WorkWire(config.data!.BUS_PREFIX!);
    const triggers: Array<{ type: string; metadata: Record<string, string>; metricType?: string }> = scaledObject(variant).spec.triggers;
    const queues = triggers.filter((t) => t.type === 'nats-jetstream');
    for (const trigger of queues) {
      const keys = Object.keys(trigger.metadata);
      expect(REQUIRED.filter((key) => !keys.includes(key))).toEqual([]);
      expect(keys.filter((key) => !REQUIRED.includes(key) && !OPTIONAL.includes(key))).toEqual([]);
      // No accounts are configured on our NATS: everything is in the global account.
      expect(trigger.metadata.account).toBe('$G');
      expect(trigger.metadata.stream).toBe(wire.stream);
      expect(Number(trigger.metadata.lagThreshold)).toBeGreaterThanOrEqual(1);
      expect(trigger.metadata.useHttps).toBe('false');
    }
    expect(queues.map((t) => t.metadata.consumer).sort()).toEqual([wire.consumer(MediaJobs.Export.subject), wire.consumer(MediaJobs.Process.subject), wire.consumer(PersonalData.ExportJob.subject)].sort());
    expect(triggers.filter((t) => t.type === 'cpu')).toEqual([{ type: 'cpu', metricType: 'Utilization', metadata: { value: '70' } }]);

    // The endpoint is the NATS Service, in the namespace, on the port the servers serve monitoring on.
    const nats = ofKind(resources, 'StatefulSet').find((s) => s.metadata.name === 'nats')!;
    const service = ofKind(resources, 'Service').find((s) => s.metadata.name === 'nats')!;
    expect(selects({ matchLabels: service.spec.selector }, podTemplate(nats)!.metadata!.labels)).toBe(true);
    const args: string[] = podTemplate(nats)!.spec.containers[0].args;
    const monitoringPort = args.map((arg, i) => (arg === '--http_port' ? args[i + 1] : /^--http_port=(\d+)$/.exec(arg)?.[1])).find(Boolean);
    for (const trigger of queues) expect(trigger.metadata.natsServerMonitoringEndpoint).toBe(`nats.${service.metadata.namespace}.svc.cluster.local:${monitoringPort}`);
    // In a cluster KEDA asks the consumer's leader at <server name>.<endpoint>: the servers are named after their pods, which the headless Service resolves.
    if (variant === 'nats-cluster') {
      expect(service.spec.clusterIP).toBe('None');
      expect(args).toContain('--server_name=$(POD_NAME)');
    }

    // KEDA's operator may reach that port.
    const admits = ofKind(resources, 'NetworkPolicy').filter(
      (p) =>
        selects(p.spec.podSelector, podTemplate(nats)!.metadata!.labels) &&
        (p.spec.ingress as IngressRule[] | undefined)?.some(
          (rule) =>
            rule.from?.some((peer) => peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'keda' && peer.podSelector?.matchLabels?.['app.kubernetes.io/name'] === 'keda-operator') &&
            rule.ports?.some((port) => String(port.port) === monitoringPort),
        ),
    );
    expect(admits.map((p) => p.metadata.name)).toEqual(['nats-monitoring-from-keda']);
  });
});
