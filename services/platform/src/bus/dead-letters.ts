/**
 * Dead letters: events a consumer group gave up on because of their content (after bounded tries)
 * or because they can never be handled. They are kept (JetStream: the `<PREFIX>_DEAD_LETTERS`
 * stream; in-process: memory) with the error, counted here for the `/metrics` gauge
 * `events_dead_letters{group}`, logged once each, and replayed with `scripts/dead-letters.mjs`.
 */
export interface DeadLetter {
  group: string;
  subject: string;
  eventId: string;
  attempts: number;
  error: string;
  at: string;
}

const counts = new Map<string, number>();

/** Dead letters held per consumer group, as this process knows them. */
export const deadLetterStats = {
  set(group: string, count: number): void {
    counts.set(group, count);
  },
  add(group: string): void {
    counts.set(group, (counts.get(group) ?? 0) + 1);
  },
  entries(): Array<[string, number]> {
    return [...counts.entries()];
  },
};

/** Header names of a dead letter's extra facts (besides the event's own metadata headers). */
export const DeadLetterHeader = {
  group: 'Tl-Dead-Group',
  subject: 'Tl-Dead-Subject',
  error: 'Tl-Dead-Error',
  attempts: 'Tl-Dead-Attempts',
  at: 'Tl-Dead-At',
} as const;

/** A failure's text for a header: one printable line. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.replace(/[^\x20-\x7e]/g, ' ').slice(0, 500);
}
