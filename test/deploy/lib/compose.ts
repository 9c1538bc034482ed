// Validates a compose file against the Compose Specification's JSON schema. The schema comes
// vendored in the `dclint` package (a Docker Compose linter), which tracks the upstream
// compose-spec repository.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { parse } from 'yaml';

const require = createRequire(import.meta.url);
const schemaFile = join(dirname(require.resolve('dclint/package.json')), 'schemas', 'compose.schema.json');

let validator: ReturnType<Ajv['compile']> | undefined;

function validate() {
  if (!validator) {
    // A draft-07 schema, but its `$schema` spells the meta-schema's address in a form Ajv does not
    // know (https, no `#`); Ajv's default dialect is draft-07 anyway. Its vendor keywords
    // (`x-...`, `deprecated`) would trip Ajv's strict mode.
    const { $schema: _dialect, ...schema } = JSON.parse(readFileSync(schemaFile, 'utf8')) as Record<string, unknown>;
    validator = new Ajv({ allErrors: true, strict: false }).compile(schema);
  }
  return validator;
}

/** Parses compose YAML the way docker compose does (YAML 1.1 merge keys `<<:` included). */
export function parseCompose(text: string): Record<string, unknown> {
  return parse(text, { merge: true }) as Record<string, unknown>;
}

const describe = (e: ErrorObject) => `${e.instancePath || '/'} ${e.message ?? e.keyword}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`;

export function composeSchemaErrors(doc: unknown): string[] {
  const check = validate();
  return check(doc) ? [] : (check.errors ?? []).map(describe);
}

/* eslint-disable @typescript-eslint/no-explicit-any */
type Service = Record<string, any>;

/** Stage names of a Dockerfile (`FROM ... AS <name>`). */
export function dockerfileStages(dockerfile: string): string[] {
  return [...dockerfile.matchAll(/^FROM\s+\S+\s+AS\s+(\S+)/gim)].map((m) => m[1]!);
}

/**
 * The topology rules: only the gateway publishes a port; every image we build names an existing
 * Dockerfile target; `service_healthy` waits only on services that have a health check (their
 * own, or the HEALTHCHECK of our Dockerfile).
 */
export function composeRuleErrors(doc: Record<string, any>, dockerfile: string): string[] {
  const services: Record<string, Service> = doc.services ?? {};
  const stages = dockerfileStages(dockerfile);
  const imageHasHealthcheck = /^HEALTHCHECK\s/m.test(dockerfile);
  const errors: string[] = [];
  for (const [name, svc] of Object.entries(services)) {
    if (name !== 'gateway' && (svc.ports ?? []).length > 0) errors.push(`${name} publishes ports ${JSON.stringify(svc.ports)}; only the gateway may`);
    if (svc.build) {
      if (svc.build.dockerfile !== 'deploy/Dockerfile') errors.push(`${name}: built from ${svc.build.dockerfile}, not deploy/Dockerfile`);
      if (!stages.includes(svc.build.target)) errors.push(`${name}: build target ${svc.build.target} is not a stage of deploy/Dockerfile`);
    }
    const dependsOn = Array.isArray(svc.depends_on) ? {} : (svc.depends_on ?? {});
    for (const [dep, cond] of Object.entries<Service>(dependsOn)) {
      const target = services[dep];
      if (!target) errors.push(`${name} depends on missing service ${dep}`);
      else if (cond.condition === 'service_healthy' && !target.healthcheck && !(target.build && imageHasHealthcheck)) {
        errors.push(`${name} waits for ${dep} to be healthy, but ${dep} has no health check`);
      }
    }
  }
  if (!(services.gateway?.ports ?? []).length) errors.push('the gateway publishes no port');
  return errors;
}
