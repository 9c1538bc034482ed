// The production overlay with its options (k8s/components/): a three-server NATS, and managed
// Postgres, NATS and S3 in place of the in-cluster ones. Each combination is rendered with the
// real kustomize and held to the same checks as the base (schemas, strict fields, design rules,
// which include the PodDisruptionBudgets and the Postgres connection budget), plus its own
// promises. The connection budget's check is also fed a budget it breaks.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connectionBudget, connectionBudgetErrors, MAX_CONNECTIONS_ANNOTATION } from './lib/connection-budget.js';
import { availabilityErrors, designRuleErrors } from './lib/k8s-rules.js';
import { cnpgErrors } from './lib/cnpg-schema.js';
import { schemaErrors, unknownFieldErrors } from './lib/k8s-schema.js';
import { kustomize } from './lib/kustomize.js';
import { ofKind, podTemplate, type Resource, selects } from './lib/resource.js';

const k8sDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'k8s');

const VARIANTS = {
  'nats-cluster': ['nats-cluster'],
  managed: ['managed-postgres', 'managed-nats', 'managed-object-storage'],
  'prometheus-rules': ['prometheus-rules'],
  'cloudnative-pg': ['cloudnative-pg'],
} as const;
type Variant = keyof typeof VARIANTS | 'base' | 'production';

/* eslint-disable @typescript-eslint/no-explicit-any */
const find = (resources: Resource[], kind: string, name: string) => ofKind(resources, kind).find((r) => r.metadata.name === name);
const config = (resources: Resource[]) => ofKind(resources, 'ConfigMap').find((c) => c.metadata.name.startsWith('timeliner-config'))!.data!;
const labelsOf = (resources: Resource[], deployment: string) => podTemplate(find(resources, 'Deployment', deployment)!)!.metadata!.labels!;

/** Egress rules that let pods with `labels` reach `port` at an address outside the cluster. */
const externalEgress = (resources: Resource[], labels: Record<string, string>, port: number) =>
  ofKind(resources, 'NetworkPolicy')
    .filter((p) => selects(p.spec?.podSelector, labels) && (p.spec?.policyTypes ?? []).includes('Egress'))
    .flatMap((p) => p.spec.egress ?? [])
    .filter((rule: any) => rule.to?.some((peer: any) => peer.ipBlock?.cidr) && rule.ports?.some((p: any) => p.port === port));

describe('k8s production options', () => {
  let scratch: string;
  const renders = {} as Record<Variant, Resource[]>;

  beforeAll(() => {
    // A copy of k8s/ with the production secrets made from their committed templates, and one
    // kustomization per variant: the production overlay plus the variant's components.
    scratch = mkdtempSync(join(tmpdir(), 'timeliner-k8s-options-'));
    const copy = join(scratch, 'k8s');
    cpSync(k8sDir, copy, { recursive: true, filter: (src) => !/overlays\/[^/]+\/secrets\/[^/]+\.env$/.test(src) });
    const secrets = join(copy, 'overlays', 'production', 'secrets');
    for (const example of readdirSync(secrets).filter((f) => f.endsWith('.env.example'))) {
      writeFileSync(join(secrets, example.replace(/\.example$/, '')), readFileSync(join(secrets, example), 'utf8').replaceAll('REPLACE', 'test-value'));
    }
    renders.base = kustomize(join(copy, 'base'));
    renders.production = kustomize(join(copy, 'overlays', 'production'));
    for (const [variant, components] of Object.entries(VARIANTS)) {
      const dir = join(copy, 'variants', variant);
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, 'kustomization.yaml'),
        ['apiVersion: kustomize.config.k8s.io/v1beta1', 'kind: Kustomization', 'resources:', '  - ../../overlays/production', 'components:', ...components.map((c) => `  - ../../components/${c}`), ''].join('\n'),
      );
      renders[variant as Variant] = kustomize(dir);
    }
  });

  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  describe.each(Object.keys(VARIANTS) as (keyof typeof VARIANTS)[])('production with %s', (variant) => {
    const resources = () => renders[variant];

    it('matches the Kubernetes API schemas and uses no field the API does not define', async () => {
      expect(await schemaErrors(resources())).toEqual([]);
      expect(unknownFieldErrors(resources())).toEqual([]);
    });

    it('follows the design rules (budgets for every Deployment and StatefulSet, connections within max_connections)', () => {
      expect(designRuleErrors(resources())).toEqual([]);
    });

    it('still trusts the one proxy hop and keeps the gateway’s /metrics off the public port', () => {
      expect(config(resources()).TRUST_PROXY).toBe('1');
      const gateway = podTemplate(find(resources(), 'Deployment', 'gateway')!)!.spec.containers[0];
      const internal = gateway.ports.find((p: any) => p.name === 'internal');
      expect(gateway.env).toContainEqual({ name: 'INTERNAL_PORT', value: String(internal.containerPort) });
      expect(find(resources(), 'Service', 'gateway')!.spec.ports.map((p: any) => p.targetPort)).toEqual(['http']);
    });
  });

  describe('the alert rules (Prometheus Operator)', () => {
    const rules = () => ofKind(renders['prometheus-rules'], 'PrometheusRule').flatMap((r) => r.spec.groups.flatMap((g: any) => g.rules));
    const operations = readFileSync(join(k8sDir, 'OPERATIONS.md'), 'utf8');
    /** GitHub's anchor of a Markdown heading. */
    const anchors = new Set([...operations.matchAll(/^#+ (.+)$/gm)].map((m) => m[1]!.trim().toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-')));

    it('alert on every consumer metric: pending, oldest pending age, redeliveries by reason, dead letters', () => {
      const exprs = rules().map((r: any) => r.expr as string).join('\n');
      for (const metric of ['events_pending', 'events_oldest_pending_seconds', 'events_dead_letters']) expect(exprs).toContain(metric);
      for (const reason of ['missing_reference', 'failed', 'outage']) expect(exprs).toContain(`events_redeliveries_total{reason="${reason}"}`);
      expect(ofKind(renders.production, 'PrometheusRule')).toEqual([]); // only where the component is listed
    });

    it('give each alert a severity and a runbook section in k8s/OPERATIONS.md that exists', () => {
      for (const rule of rules()) {
        expect(rule.labels.severity).toMatch(/^(warning|critical)$/);
        const [file, anchor] = (rule.annotations.runbook as string).split('#');
        expect(file).toBe('k8s/OPERATIONS.md');
        expect(anchor).toBe((rule.alert as string).toLowerCase());
        expect(anchors).toContain(anchor);
      }
    });
  });

  describe('the three-server NATS', () => {
    const resources = () => renders['nats-cluster'];

    it('runs three JetStream servers on different nodes, each named, routed to all three', () => {
      const nats = find(resources(), 'StatefulSet', 'nats')!;
      expect(nats.spec.replicas).toBe(3);
      expect(nats.spec.podManagementPolicy).toBe('Parallel');
      const pod = podTemplate(nats)!.spec;
      expect(pod.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey).toBe('kubernetes.io/hostname');
      const args: string[] = pod.containers[0].args;
      expect(args).toEqual(expect.arrayContaining(['--jetstream', '--server_name=$(POD_NAME)', '--cluster=nats://0.0.0.0:6222']));
      expect(args.find((a) => a.startsWith('--routes='))).toBe('--routes=nats://nats-0.nats:6222,nats://nats-1.nats:6222,nats://nats-2.nats:6222');
      expect(pod.containers[0].env).toContainEqual({ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } });
      expect(find(resources(), 'Service', 'nats')!.spec.publishNotReadyAddresses).toBe(true);
    });

    it('sets sync_interval explicitly, from a config file every server reads', () => {
      const pod = podTemplate(find(resources(), 'StatefulSet', 'nats')!)!.spec;
      const path = (pod.containers[0].args as string[]).find((a) => a.startsWith('--config='))!.slice('--config='.length);
      const mount = pod.containers[0].volumeMounts.find((m: any) => m.mountPath === path);
      const volume = pod.volumes.find((v: any) => v.name === mount.name);
      const configMap = find(resources(), 'ConfigMap', volume.configMap.name)!;
      expect(configMap.data![mount.subPath]).toMatch(/jetstream\s*\{[^}]*\n\s*sync_interval:\s*(always|\d+[smh])\s*\n/);
    });

    it('keeps every stream on three servers and lets one server go at a time', () => {
      expect(config(resources()).STREAM_REPLICAS).toBe('3');
      expect(find(resources(), 'PodDisruptionBudget', 'nats')!.spec).toMatchObject({ maxUnavailable: 1 });
    });

    it('lets the servers reach each other on the cluster port, in and out', () => {
      const labels = podTemplate(find(resources(), 'StatefulSet', 'nats')!)!.metadata!.labels!;
      const routes = find(resources(), 'NetworkPolicy', 'nats-cluster-routes')!;
      expect(selects(routes.spec.podSelector, labels)).toBe(true);
      expect(selects(routes.spec.ingress[0].from[0].podSelector, labels)).toBe(true);
      expect(selects(routes.spec.egress[0].to[0].podSelector, labels)).toBe(true);
      expect([routes.spec.ingress[0].ports[0].port, routes.spec.egress[0].ports[0].port]).toEqual([6222, 6222]);
    });
  });

  describe('managed Postgres, NATS and S3', () => {
    const resources = () => renders.managed;

    it('runs none of them in the cluster', () => {
      expect(ofKind(resources(), 'StatefulSet').map((s) => s.metadata.name)).toEqual(['redis']);
      expect(ofKind(resources(), 'Job')).toEqual([]);
      const budgets = ofKind(resources(), 'PodDisruptionBudget').map((p) => p.metadata.name);
      for (const name of ['postgres', 'nats', 'seaweedfs']) expect(budgets).not.toContain(name);
      expect(ofKind(resources(), 'Service').map((s) => s.metadata.name)).not.toContain('seaweedfs');
    });

    it('points the apps at them', () => {
      expect(config(resources())).toMatchObject({ NATS_URL: expect.stringMatching(/^tls:\/\//), S3_ENDPOINT: expect.stringMatching(/^https:\/\//) });
    });

    it('lets the services and workers out to the database and S3, and every app to NATS, on their ports only', () => {
      for (const deployment of ['auth', 'media', 'media-worker']) {
        expect([deployment, externalEgress(resources(), labelsOf(resources(), deployment), 5432).length]).toEqual([deployment, 1]);
        expect([deployment, externalEgress(resources(), labelsOf(resources(), deployment), 443).length]).toEqual([deployment, 1]);
      }
      for (const deployment of ['gateway', 'social', 'media-worker']) {
        expect([deployment, externalEgress(resources(), labelsOf(resources(), deployment), 4222).length]).toEqual([deployment, 1]);
      }
      // The gateway keeps no database connection and stores no object.
      expect(externalEgress(resources(), labelsOf(resources(), 'gateway'), 5432)).toEqual([]);
      expect(externalEgress(resources(), labelsOf(resources(), 'gateway'), 443)).toEqual([]);
    });

    it('sizes the pools against the managed database’s stated max_connections', () => {
      const budget = connectionBudget(resources());
      const stated = ofKind(resources(), 'NetworkPolicy').find((p) => p.metadata.annotations?.[MAX_CONNECTIONS_ANNOTATION]);
      expect(budget.maxConnections).toBe(Number(stated!.metadata.annotations![MAX_CONNECTIONS_ANNOTATION]));
      expect(budget.total).toBeLessThanOrEqual(budget.available!);
    });
  });

  describe('CloudNativePG: three instances and PgBouncer in transaction mode', () => {
    const resources = () => renders['cloudnative-pg'];
    const envOf = (deployment: string) => podTemplate(find(resources(), 'Deployment', deployment)!)!.spec.containers[0].env as any[];

    it('runs a Cluster of three instances on different nodes instead of the StatefulSet', () => {
      const clusters = ofKind(resources(), 'Cluster');
      expect(clusters.map((c) => [c.apiVersion, c.metadata.name])).toEqual([['postgresql.cnpg.io/v1', 'timeliner-db']]);
      expect(clusters[0]!.spec).toMatchObject({ instances: 3, affinity: { enablePodAntiAffinity: true, topologyKey: 'kubernetes.io/hostname', podAntiAffinityType: 'required' } });
      expect(ofKind(resources(), 'StatefulSet').map((s) => s.metadata.name)).not.toContain('postgres');
      expect(ofKind(resources(), 'Service').map((s) => s.metadata.name)).not.toContain('postgres');
    });

    it('puts a transaction-mode Pooler in front of the primary and one in front of the replicas', () => {
      const poolers = ofKind(resources(), 'Pooler').map((p) => [p.metadata.name, p.spec.cluster.name, p.spec.type, p.spec.pgbouncer.poolMode]);
      expect(poolers).toEqual([
        ['timeliner-db-pooler-ro', 'timeliner-db', 'ro', 'transaction'],
        ['timeliner-db-pooler-rw', 'timeliner-db', 'rw', 'transaction'],
      ]);
      // Server connections the poolers may open to the primary fit its max_connections.
      const maxConnections = Number(find(resources(), 'Cluster', 'timeliner-db')!.spec.postgresql.parameters.max_connections);
      const rw = find(resources(), 'Pooler', 'timeliner-db-pooler-rw')!.spec;
      expect(rw.instances * Number(rw.pgbouncer.parameters.default_pool_size)).toBeLessThanOrEqual(maxConnections - 20);
    });

    it('points every service and worker at the rw pooler, its lag-tolerant reads at the ro pooler, in transaction mode', () => {
      expect(config(resources()).DATABASE_POOL_MODE).toBe('transaction');
      for (const deployment of ['auth', 'social', 'search', 'timelines', 'notifications', 'media', 'media-worker']) {
        const env = envOf(deployment);
        const names = env.map((e) => e.name);
        expect(env).toContainEqual({ name: 'DATABASE_PASSWORD', valueFrom: { secretKeyRef: { name: 'timeliner-db-app', key: 'password' } } });
        // Kubernetes expands $(DATABASE_PASSWORD) only from a variable defined before.
        expect(names.indexOf('DATABASE_PASSWORD')).toBeLessThan(names.indexOf('DATABASE_URL'));
        expect(env.find((e) => e.name === 'DATABASE_URL').value).toBe('postgres://timeliner:$(DATABASE_PASSWORD)@timeliner-db-pooler-rw:5432/timeliner');
        expect(env.find((e) => e.name === 'DATABASE_READ_URL').value).toBe('postgres://timeliner:$(DATABASE_PASSWORD)@timeliner-db-pooler-ro:5432/timeliner');
      }
      expect(envOf('gateway').map((e) => e.name)).not.toContain('DATABASE_URL');
    });

    it('lets the apps reach the poolers, the poolers the instances, and the instances each other', () => {
      const pooler = { 'cnpg.io/poolerName': 'timeliner-db-pooler-rw' };
      const instance = { 'cnpg.io/cluster': 'timeliner-db', 'cnpg.io/podRole': 'instance' };
      const egressTo = (from: Record<string, string>, to: Record<string, string>) =>
        ofKind(resources(), 'NetworkPolicy')
          .filter((p) => selects(p.spec.podSelector, from) && (p.spec.policyTypes ?? []).includes('Egress'))
          .flatMap((p) => p.spec.egress ?? [])
          .some((rule: any) => rule.to?.some((peer: any) => peer.podSelector && selects(peer.podSelector, to)) && rule.ports?.some((p: any) => p.port === 5432));
      const ingressFrom = (to: Record<string, string>, from: Record<string, string>) =>
        ofKind(resources(), 'NetworkPolicy')
          .filter((p) => selects(p.spec.podSelector, to) && (p.spec.policyTypes ?? []).includes('Ingress'))
          .flatMap((p) => p.spec.ingress ?? [])
          .some((rule: any) => rule.from?.some((peer: any) => peer.podSelector && selects(peer.podSelector, from)) && rule.ports?.some((p: any) => p.port === 5432));
      for (const app of ['social', 'media-worker']) {
        expect([app, egressTo(labelsOf(resources(), app), pooler), ingressFrom(pooler, labelsOf(resources(), app))]).toEqual([app, true, true]);
      }
      expect([egressTo(pooler, instance), ingressFrom(instance, pooler), egressTo(instance, instance), ingressFrom(instance, instance)]).toEqual([true, true, true, true]);
      expect(egressTo(labelsOf(resources(), 'gateway'), pooler)).toBe(false);
    });

    it("the CRD check refuses what the operator's schema refuses", () => {
      const cluster = structuredClone(find(resources(), 'Cluster', 'timeliner-db')!);
      delete cluster.spec.instances;
      cluster.spec.instance = 3;
      cluster.spec.postgresql.parameters.max_connections = 200;
      const pooler = structuredClone(find(resources(), 'Pooler', 'timeliner-db-pooler-rw')!);
      pooler.spec.pgbouncer.poolMode = 'statement';
      pooler.spec.pgbouncer.parameters.pool_mode = 'transaction';
      expect([...cnpgErrors(cluster), ...cnpgErrors(pooler)]).toEqual([
        'Cluster/timeliner-db: spec.instances: required',
        'Cluster/timeliner-db: spec.postgresql.parameters.max_connections: must be a string',
        'Cluster/timeliner-db: spec.instance: unknown field',
        'Pooler/timeliner-db-pooler-rw: spec.pgbouncer.parameters.pool_mode: unknown field',
        'Pooler/timeliner-db-pooler-rw: spec.pgbouncer.poolMode: must be one of session, transaction',
      ]);
    });
  });

  describe('the Postgres connection budget', () => {
    it('counts every Deployment with a pool at its most pods, a rolling update’s extra pod included', () => {
      const budget = connectionBudget(renders.production);
      const pooled = ofKind(renders.production, 'Deployment')
        .filter((d) => ['service', 'worker'].includes(podTemplate(d)!.metadata!.labels!['app.kubernetes.io/component']!))
        .map((d) => d.metadata.name)
        .sort();
      expect(budget.uses.map((u) => u.deployment)).toEqual(pooled);
      expect(pooled).not.toContain('gateway');
      const hpaMax = find(renders.production, 'ScaledObject', 'media-worker')!.spec.maxReplicaCount;
      expect(budget.uses.find((u) => u.deployment === 'media-worker')).toMatchObject({ pods: hpaMax + 1, pool: 5 });
      expect(budget.uses.find((u) => u.deployment === 'auth')).toMatchObject({ pods: find(renders.production, 'Deployment', 'auth')!.spec.replicas + 1, pool: Number(config(renders.production).DATABASE_POOL_SIZE) });
      expect(budget.maxConnections).toBe(300);
      for (const variant of ['base', 'production'] as const) {
        const { uses, total, maxConnections, available } = connectionBudget(renders[variant]);
        console.log(`${variant}: ${uses.map((u) => `${u.deployment} ${u.pods}×${u.pool}`).join(' + ')} = ${total} of ${available} (max_connections ${maxConnections})`);
      }
    });

    it('fails when the pools outgrow max_connections, or max_connections is not stated', () => {
      const bigger = renders.production.map((r) => {
        if (!r.metadata.name.startsWith('timeliner-config')) return r;
        const copy = structuredClone(r);
        copy.data!.DATABASE_POOL_SIZE = '20';
        return copy;
      });
      expect(connectionBudgetErrors(bigger)).toEqual([expect.stringMatching(/^the database pools can open \d+ connections \(.*auth 4×20.*\), more than max_connections 300 less 20 reserved$/)]);
      const unstated = renders.production.map((r) => {
        if (r.kind !== 'StatefulSet' || r.metadata.name !== 'postgres') return r;
        const copy = structuredClone(r);
        delete podTemplate(copy)!.spec.containers[0].args;
        return copy;
      });
      expect(connectionBudgetErrors(unstated)).toEqual([expect.stringMatching(/^Postgres's max_connections is not stated/)]);
    });

    it('and the availability check fails on a StatefulSet without a PodDisruptionBudget', () => {
      const withoutBudget = renders.base.filter((r) => !(r.kind === 'PodDisruptionBudget' && r.metadata.name === 'postgres'));
      expect(availabilityErrors(withoutBudget)).toEqual(['StatefulSet/postgres: no PodDisruptionBudget']);
    });
  });
});
