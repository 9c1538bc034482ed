// CloudNativePG's custom resources (postgresql.cnpg.io/v1 Cluster and Pooler), checked the way
// kubeconform -strict checks a CRD with its schema: field names, types, enums and required fields.
// No npm package ships these schemas, so the fields are written here from the operator's API
// reference (ClusterSpec, PoolerSpec, PgBouncerSpec and the types they use); a field the operator
// accepts but this list lacks is reported as unknown: add it here from the reference.
import { id, type Resource } from './resource.js';

type Schema =
  | 'string'
  | 'integer'
  | 'boolean'
  | 'quantity'
  /** Anything: a Kubernetes core type (pod template, resources, tolerations...) not checked here. */
  | 'any'
  | { enum: readonly string[] }
  | { object: Record<string, Schema>; required?: readonly string[] }
  | { map: Schema }
  | { array: Schema };

const secretRef: Schema = { object: { name: 'string' }, required: ['name'] };
const labelsAndAnnotations: Schema = { object: { labels: { map: 'string' }, annotations: { map: 'string' } } };
const storage: Schema = { object: { size: 'quantity', storageClass: 'string', resizeInUseVolumes: 'boolean', pvcTemplate: 'any' } };
const resources: Schema = { object: { requests: { map: 'quantity' }, limits: { map: 'quantity' }, claims: 'any' } };

const clusterSpec: Schema = {
  object: {
    description: 'string',
    inheritedMetadata: labelsAndAnnotations,
    imageName: 'string',
    imageCatalogRef: 'any',
    imagePullPolicy: { enum: ['Always', 'Never', 'IfNotPresent'] },
    imagePullSecrets: { array: secretRef },
    schedulerName: 'string',
    postgresUID: 'integer',
    postgresGID: 'integer',
    instances: 'integer',
    minSyncReplicas: 'integer',
    maxSyncReplicas: 'integer',
    postgresql: {
      object: {
        parameters: { map: 'string' },
        synchronous: 'any',
        pg_hba: { array: 'string' },
        pg_ident: { array: 'string' },
        syncReplicaElectionConstraint: 'any',
        shared_preload_libraries: { array: 'string' },
        ldap: 'any',
        promotionTimeout: 'integer',
        enableAlterSystem: 'boolean',
        extensions: 'any',
      },
    },
    replicationSlots: 'any',
    bootstrap: {
      object: {
        initdb: {
          object: {
            database: 'string',
            owner: 'string',
            secret: secretRef,
            options: { array: 'string' },
            dataChecksums: 'boolean',
            encoding: 'string',
            localeCollate: 'string',
            localeCType: 'string',
            locale: 'string',
            localeProvider: 'string',
            icuLocale: 'string',
            icuRules: 'string',
            walSegmentSize: 'integer',
            postInitSQL: { array: 'string' },
            postInitApplicationSQL: { array: 'string' },
            postInitTemplateSQL: { array: 'string' },
            postInitSQLRefs: 'any',
            postInitApplicationSQLRefs: 'any',
            postInitTemplateSQLRefs: 'any',
            import: 'any',
          },
        },
        recovery: 'any',
        pg_basebackup: 'any',
      },
    },
    replica: 'any',
    superuserSecret: secretRef,
    enableSuperuserAccess: 'boolean',
    certificates: 'any',
    storage,
    serviceAccountTemplate: 'any',
    walStorage: storage,
    ephemeralVolumeSource: 'any',
    startDelay: 'integer',
    stopDelay: 'integer',
    smartShutdownTimeout: 'integer',
    switchoverDelay: 'integer',
    failoverDelay: 'integer',
    livenessProbeTimeout: 'integer',
    affinity: {
      object: {
        enablePodAntiAffinity: 'boolean',
        topologyKey: 'string',
        nodeSelector: { map: 'string' },
        nodeAffinity: 'any',
        tolerations: { array: 'any' },
        podAntiAffinityType: { enum: ['preferred', 'required'] },
        additionalPodAntiAffinity: 'any',
        additionalPodAffinity: 'any',
      },
    },
    topologySpreadConstraints: { array: 'any' },
    resources,
    ephemeralVolumesSizeLimit: 'any',
    priorityClassName: 'string',
    primaryUpdateStrategy: { enum: ['unsupervised', 'supervised'] },
    primaryUpdateMethod: { enum: ['switchover', 'restart'] },
    backup: 'any',
    nodeMaintenanceWindow: { object: { inProgress: 'boolean', reusePVC: 'boolean' } },
    monitoring: {
      object: {
        disableDefaultQueries: 'boolean',
        customQueriesConfigMap: { array: 'any' },
        customQueriesSecret: { array: 'any' },
        enablePodMonitor: 'boolean',
        tls: 'any',
        podMonitorMetricRelabelings: { array: 'any' },
        podMonitorRelabelings: { array: 'any' },
      },
    },
    externalClusters: { array: 'any' },
    logLevel: { enum: ['error', 'warning', 'info', 'debug', 'trace'] },
    projectedVolumeTemplate: 'any',
    env: { array: 'any' },
    envFrom: { array: 'any' },
    managed: 'any',
    seccompProfile: 'any',
    tablespaces: { array: 'any' },
    enablePDB: 'boolean',
    plugins: { array: 'any' },
    probes: 'any',
  },
  required: ['instances'],
};

/**
 * PgBouncer settings CloudNativePG lets a Pooler set (its webhook refuses others); the ones a
 * pooler in front of these apps would use.
 */
const PGBOUNCER_PARAMETERS = [
  'application_name_add_host', 'autodb_idle_timeout', 'cancel_wait_timeout', 'client_idle_timeout', 'client_login_timeout',
  'default_pool_size', 'disable_pqexec', 'dns_max_ttl', 'dns_nxdomain_ttl', 'idle_transaction_timeout', 'ignore_startup_parameters',
  'listen_backlog', 'log_connections', 'log_disconnections', 'log_pooler_errors', 'log_stats', 'max_client_conn', 'max_db_connections',
  'max_packet_size', 'max_prepared_statements', 'max_user_connections', 'min_pool_size', 'pkt_buf', 'query_timeout', 'query_wait_timeout',
  'reserve_pool_size', 'reserve_pool_timeout', 'sbuf_loopcnt', 'server_check_delay', 'server_check_query', 'server_connect_timeout',
  'server_fast_close', 'server_idle_timeout', 'server_lifetime', 'server_login_retry', 'server_reset_query', 'server_reset_query_always',
  'server_round_robin', 'stats_period', 'suspend_timeout', 'tcp_defer_accept', 'tcp_keepalive', 'tcp_keepcnt', 'tcp_keepidle',
  'tcp_keepintvl', 'tcp_user_timeout', 'track_extra_parameters', 'verbose',
] as const;

const poolerSpec: Schema = {
  object: {
    cluster: secretRef,
    type: { enum: ['rw', 'ro', 'r'] },
    instances: 'integer',
    template: 'any',
    pgbouncer: {
      object: {
        poolMode: { enum: ['session', 'transaction'] },
        authQuerySecret: secretRef,
        authQuery: 'string',
        parameters: { object: Object.fromEntries(PGBOUNCER_PARAMETERS.map((p) => [p, 'string' as Schema])) },
        pg_hba: { array: 'string' },
        paused: 'boolean',
      },
    },
    deploymentStrategy: 'any',
    monitoring: { object: { enablePodMonitor: 'boolean', podMonitorMetricRelabelings: { array: 'any' }, podMonitorRelabelings: { array: 'any' } } },
    serviceTemplate: 'any',
  },
  required: ['cluster', 'pgbouncer'],
};

const SPECS: Record<string, Schema> = { Cluster: clusterSpec, Pooler: poolerSpec };

export const CNPG_API_VERSION = 'postgresql.cnpg.io/v1';
export const isCnpg = (resource: Resource): boolean => resource.apiVersion.startsWith('postgresql.cnpg.io/');

const QUANTITY = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+|[KMGTPE]i?|[munkMGTPE])?$/;

function check(value: unknown, schema: Schema, path: string, errors: string[]): void {
  if (schema === 'any') return;
  if (schema === 'string' || schema === 'boolean') {
    if (typeof value !== schema) errors.push(`${path}: must be a ${schema}`);
    return;
  }
  if (schema === 'integer') {
    if (!Number.isInteger(value)) errors.push(`${path}: must be an integer`);
    return;
  }
  if (schema === 'quantity') {
    if (!(typeof value === 'number' || (typeof value === 'string' && QUANTITY.test(value)))) errors.push(`${path}: must be a quantity`);
    return;
  }
  if ('enum' in schema) {
    if (typeof value !== 'string' || !schema.enum.includes(value)) errors.push(`${path}: must be one of ${schema.enum.join(', ')}`);
    return;
  }
  if ('array' in schema) {
    if (!Array.isArray(value)) errors.push(`${path}: must be an array`);
    else value.forEach((item, i) => check(item, schema.array, `${path}[${i}]`, errors));
    return;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    errors.push(`${path}: must be an object`);
    return;
  }
  const fields = value as Record<string, unknown>;
  if ('map' in schema) {
    for (const [key, item] of Object.entries(fields)) check(item, schema.map, `${path}.${key}`, errors);
    return;
  }
  for (const name of schema.required ?? []) if (!(name in fields)) errors.push(`${path}.${name}: required`);
  for (const [key, item] of Object.entries(fields)) {
    const field = schema.object[key];
    if (field === undefined) errors.push(`${path}.${key}: unknown field`);
    else check(item, field, `${path}.${key}`, errors);
  }
}

/** What the operator's CRD schema (and, for PgBouncer's parameters, its webhook) would refuse. */
export function cnpgErrors(resource: Resource): string[] {
  const spec = SPECS[resource.kind];
  if (resource.apiVersion !== CNPG_API_VERSION || !spec) return [`${id(resource)}: no schema for ${resource.apiVersion} ${resource.kind}`];
  const errors: string[] = [];
  const { apiVersion: _a, kind: _k, metadata, spec: body, ...rest } = resource as Resource & { spec?: unknown };
  for (const key of Object.keys(rest)) errors.push(`${key}: unknown field`);
  if (typeof metadata?.name !== 'string') errors.push('metadata.name: required');
  if (body === undefined) errors.push('spec: required');
  else check(body, spec, 'spec', errors);
  return errors.map((e) => `${id(resource)}: ${e}`);
}
