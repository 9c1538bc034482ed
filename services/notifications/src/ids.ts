const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are checked before they reach a query: a malformed id is simply not found. */
export const isUuid = (value: string): boolean => UUID.test(value);

/** The canonical (lower-case) form of an id from an event, or null when it is not a UUID. */
export const idOf = (value: string): string | null => (isUuid(value) ? value.toLowerCase() : null);
