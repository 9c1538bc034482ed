import { Transform } from 'class-transformer';

// A UUID as a path segment, found and lower-cased in place (isUuid checks one whole value).
// eslint-disable-next-line no-restricted-syntax
const UUID_SEGMENT = /(?<=\/)[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?=\/|$)/g;

/**
 * The request path with every UUID segment in lower case, the form ids are stored and compared
 * in. Applied before routing, so no handler ever sees `/collaborators/{OWNER-ID-IN-UPPER-CASE}`:
 * Postgres compares uuid columns regardless of case while JavaScript compares strings exactly,
 * and that mismatch once let an owner remove their own owner row. The query string is untouched.
 */
export function canonicalPath(url: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (!/[A-F]/.test(path)) return url;
  const canonical = path.replace(UUID_SEGMENT, (id) => id.toLowerCase());
  return query === -1 ? canonical : canonical + url.slice(query);
}

/**
 * A body or query field holding an id: lower-cased before validation, so a service compares it
 * with stored ids as they are (`@CanonicalId() @IsUUID(...) newOwnerId: string`).
 */
export const CanonicalId = (): PropertyDecorator => Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value));
