/**
 * Checks on what arrives from outside (a path, a query, an event's payload) before it reaches a
 * query or another service, and the clipping of text to what a column holds. One copy for every
 * service: a service never declares its own UUID pattern or clip function.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a UUID, in either case. A malformed id is simply not found (`if (!isUuid(id)) throw new NotFoundException(...)`). */
export const isUuid = (value: string): boolean => UUID.test(value);

/** The canonical (lower-case) form of an id, or null when it is not a UUID. */
export const idOf = (value: string): string | null => (isUuid(value) ? value.toLowerCase() : null);

/**
 * At most `max` characters as Postgres's `varchar(n)` counts them (code points): an emoji is one
 * character and is never cut in half. Use it for text going into a `varchar(n)` column.
 */
export const clipCodePoints = (value: string, max: number): string => (value.length <= max ? value : Array.from(value).slice(0, max).join(''));

/**
 * At most `max` UTF-16 code units, as `String.prototype.length` counts them (`value.slice(0, max)`):
 * always fits a `varchar(max)`, but keeps fewer characters than `clipCodePoints` when the text has
 * emoji or other characters outside the Basic Multilingual Plane, and may cut one in half. Kept
 * for the fields that have always been clipped this way; new code uses `clipCodePoints`.
 */
export const clipCodeUnits = (value: string, max: number): string => value.slice(0, max);
