import type { RouteTable } from '../routes/route-table.js';
import type { OpenApiDocument } from './openapi-document.js';

export class OpenApiMergeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OpenApiMergeError';
  }
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Object keys sorted at every depth (arrays keep their order): the same input always prints the same. */
export function sortKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sortKeys) as T;
  if (typeof value !== 'object' || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted as T;
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));

/**
 * One API description from the services' own (by service name). Paths are merged per
 * operation and components per name. Two services describing the same operation, or the same
 * component name differently, is an error: the merged document would silently describe only one
 * of them. The same component described identically (a shared error shape) is kept once.
 */
export function mergeOpenApi(
  documents: Record<string, OpenApiDocument>,
  info: OpenApiDocument['info'] = { title: 'Timeliner API', version: '1' },
): OpenApiDocument {
  const services = Object.keys(documents).sort();
  const versions = new Set(services.map((s) => documents[s]!.openapi));
  if (versions.size > 1) throw new OpenApiMergeError(`Services use different OpenAPI versions: ${[...versions].join(', ')}`);

  const paths: Record<string, Record<string, unknown>> = {};
  const components: Record<string, Record<string, unknown>> = {};
  const tags = new Map<string, { name: string }>();
  const owner = new Map<string, string>();

  for (const service of services) {
    const document = documents[service]!;
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      const merged = (paths[path] ??= {});
      for (const [key, value] of Object.entries(item)) {
        const id = `paths ${path} ${key}`;
        if (key in merged && (METHODS.has(key) || !sameJson(merged[key], value))) {
          const what = METHODS.has(key) ? `${key.toUpperCase()} ${path}` : `"${key}" of ${path}`;
          throw new OpenApiMergeError(`${what} is described by both ${owner.get(id)} and ${service}`);
        }
        merged[key] = value;
        owner.set(id, service);
      }
    }
    for (const [section, entries] of Object.entries(document.components ?? {})) {
      for (const [name, value] of Object.entries(entries ?? {})) {
        const id = `components.${section}.${name}`;
        const existing = components[section]?.[name];
        if (existing !== undefined && !sameJson(existing, value)) {
          throw new OpenApiMergeError(`${id} is described differently by ${owner.get(id)} and ${service}`);
        }
        (components[section] ??= {})[name] = value;
        if (!owner.has(id)) owner.set(id, service);
      }
    }
    for (const tag of document.tags ?? []) if (!tags.has(tag.name)) tags.set(tag.name, tag);
  }

  return sortKeys({
    openapi: [...versions][0] ?? '3.0.0',
    info,
    paths,
    components,
    tags: [...tags.values()].sort((a, b) => a.name.localeCompare(b.name)),
  });
}

/**
 * A service's document reduced to the paths the gateway actually routes to it; the rest would
 * be documented but answer 404. Returns the dropped paths so the caller can report them.
 */
export function routedOnly(service: string, document: OpenApiDocument, routes: RouteTable): { document: OpenApiDocument; dropped: string[] } {
  const kept: Record<string, Record<string, unknown>> = {};
  const dropped: string[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    // `{id}` stands for any one segment, which is what `:id` and `*` in the table match.
    const sample = path.replace(/\{[^}/]+\}/g, 'x');
    if (routes.resolve(sample)?.service === service) kept[path] = item;
    else dropped.push(path);
  }
  return { document: { ...document, paths: kept }, dropped };
}
