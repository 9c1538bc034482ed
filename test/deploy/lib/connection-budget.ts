// The Postgres connection budget of rendered manifests: every pod that opens a database pool
// (component service or worker), at its most replicas (the HPA's maximum, else the Deployment's
// count) plus the extra pods of a rolling update, times its pool (DATABASE_POOL_SIZE: the
// container's env, else the ConfigMaps it reads, else the processes' default), against Postgres's
// max_connections less a reserve. k8s/README.md, "Connection budget", has the same sum in words.
import { autoscalers, ofKind, podTemplate, type Resource } from './resource.js';

/** Connections kept for what is not an app pool: superusers (3), psql and pg_dump sessions, a metrics exporter. */
export const RESERVED_CONNECTIONS = 20;
/** The processes' pool size when DATABASE_POOL_SIZE is not set (services/platform/src/database). */
export const DEFAULT_POOL_SIZE = 10;
/** Where max_connections is written when Postgres is not in the manifests (components/managed-postgres). */
export const MAX_CONNECTIONS_ANNOTATION = 'timeliner/postgres-max-connections';

const POOLED_COMPONENTS = ['service', 'worker'];

export interface PoolUse {
  deployment: string;
  pods: number;
  pool: number;
  connections: number;
}

export interface ConnectionBudget {
  uses: PoolUse[];
  total: number;
  maxConnections: number | undefined;
  available: number | undefined;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
function poolSizeOf(resources: Resource[], deployment: Resource): number {
  const container = podTemplate(deployment)!.spec.containers[0];
  const own = (container.env ?? []).find((e: any) => e.name === 'DATABASE_POOL_SIZE')?.value;
  if (own !== undefined) return Number(own);
  // envFrom: a later source wins over an earlier one.
  let fromConfig: string | undefined;
  for (const source of container.envFrom ?? []) {
    const configMap = ofKind(resources, 'ConfigMap').find((c) => c.metadata.name === source.configMapRef?.name);
    const value = configMap?.data?.DATABASE_POOL_SIZE;
    if (value !== undefined) fromConfig = value;
  }
  return fromConfig === undefined ? DEFAULT_POOL_SIZE : Number(fromConfig);
}

/** Pods a rolling update may add above the desired count: maxSurge, a number or a percentage (default 25%). */
function surgeOf(deployment: Resource, replicas: number): number {
  if (deployment.spec?.strategy?.type === 'Recreate') return 0;
  const surge = deployment.spec?.strategy?.rollingUpdate?.maxSurge ?? '25%';
  return typeof surge === 'number' ? surge : Math.ceil((replicas * Number.parseInt(surge, 10)) / 100);
}

function maxConnectionsOf(resources: Resource[]): number | undefined {
  const postgres = ofKind(resources, 'StatefulSet').find((s) => s.metadata.name === 'postgres');
  if (postgres) {
    const args: string[] = podTemplate(postgres)!.spec.containers[0].args ?? [];
    const setting = args.map((arg) => /^max_connections=(\d+)$/.exec(arg)).find(Boolean);
    return setting ? Number(setting[1]) : undefined;
  }
  const declared = ofKind(resources, 'NetworkPolicy')
    .map((p) => p.metadata.annotations?.[MAX_CONNECTIONS_ANNOTATION])
    .find((value) => value !== undefined);
  return declared === undefined ? undefined : Number(declared);
}

export function connectionBudget(resources: Resource[]): ConnectionBudget {
  const scalers = autoscalers(resources);
  const uses = ofKind(resources, 'Deployment')
    .filter((d) => POOLED_COMPONENTS.includes(podTemplate(d)!.metadata?.labels?.['app.kubernetes.io/component'] ?? ''))
    .map((d) => {
      const scaler = scalers.find((a) => a.target.kind === 'Deployment' && a.target.name === d.metadata.name);
      const replicas: number = scaler ? scaler.maxReplicas : (d.spec?.replicas ?? 1);
      const pods = replicas + surgeOf(d, replicas);
      const pool = poolSizeOf(resources, d);
      return { deployment: d.metadata.name, pods, pool, connections: pods * pool };
    })
    .sort((a, b) => a.deployment.localeCompare(b.deployment));
  const total = uses.reduce((sum, use) => sum + use.connections, 0);
  const maxConnections = maxConnectionsOf(resources);
  return { uses, total, maxConnections, available: maxConnections === undefined ? undefined : maxConnections - RESERVED_CONNECTIONS };
}

/** The pools at their most pods fit max_connections less the reserve, and max_connections is stated. */
export function connectionBudgetErrors(resources: Resource[]): string[] {
  const budget = connectionBudget(resources);
  const errors: string[] = [];
  for (const use of budget.uses) {
    if (!Number.isInteger(use.pool) || use.pool < 2) errors.push(`Deployment/${use.deployment}: DATABASE_POOL_SIZE ${use.pool} is not a whole number of at least 2`);
  }
  if (budget.available === undefined || Number.isNaN(budget.available)) {
    errors.push(`Postgres's max_connections is not stated (args "-c", "max_connections=N" on the postgres StatefulSet, or the ${MAX_CONNECTIONS_ANNOTATION} annotation for a managed one)`);
  } else if (budget.total > budget.available) {
    const sum = budget.uses.map((u) => `${u.deployment} ${u.pods}×${u.pool}`).join(' + ');
    errors.push(`the database pools can open ${budget.total} connections (${sum}), more than max_connections ${budget.maxConnections} less ${RESERVED_CONNECTIONS} reserved`);
  }
  return errors;
}
