const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are checked before they reach a query: a malformed id is simply not found. */
export const isUuid = (value: string): boolean => UUID.test(value);

/** Code points, as varchar(n) counts them. */
export const clip = (value: string, max: number): string => (value.length <= max ? value : Array.from(value).slice(0, max).join(''));
