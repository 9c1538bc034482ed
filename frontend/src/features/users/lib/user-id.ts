const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** User ids are UUIDs; anything else cannot name a profile. */
export function isUserId(value: string | undefined): value is string {
  return value !== undefined && UUID_PATTERN.test(value);
}
