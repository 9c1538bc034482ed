const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are checked before they reach a query or another service: a malformed id is simply not found. */
export const isUuid = (value: string): boolean => UUID.test(value);
