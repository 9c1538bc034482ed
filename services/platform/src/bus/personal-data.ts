import { PersonalData } from '@timeliner/proto';
import { isUuid } from '../payload/payload-checks.js';
import type { EventBus, Subscription } from './event-bus.port.js';
import { requestRpc, serveRpc } from './rpc.js';

/**
 * "Download your data": each service that holds a person's data answers `PersonalData.rpc(<its
 * name>)` with one page of one section at a time; the media worker asks every service in turn and
 * writes what it gets into the person's archive. Nothing is written, nothing leaves but the
 * person's own rows.
 */

/** One page of a section: the records as they go into the archive, and where the next page starts. */
export interface PersonalDataPage {
  records: object[];
  /** Absent on the last page. */
  nextCursor?: string;
}

/**
 * Reads one page of a section for a person (a lower-case UUID): the rows after `cursor` (empty for
 * the first page) in the order of a text key of its own, at most `limit`.
 */
export type PersonalDataSection = (userId: string, cursor: string, limit: number) => Promise<PersonalDataPage>;

const MAX_PAGE = 1000;

/** A row of a section's query: its text sort key and the record (a `json_build_object`). */
export interface KeyedRecord {
  k: string;
  record: object;
}

/**
 * The SQL of one page of a section whose rows `source` selects as `k` (text) and `record` (json),
 * with `$1` the person: the rows after `$2` in `k` order (byte order, whatever the collation), at
 * most `$3`. Run it with `[userId, cursor, limit]` and hand the rows to `keysetPage`.
 */
export const keysetSql = (source: string): string => `SELECT k, record FROM (${source}) AS section WHERE k COLLATE "C" > $2 ORDER BY k COLLATE "C" LIMIT $3`;

/** A page from the rows of `keysetSql`: the records, and the next cursor when the page was full. */
export function keysetPage(rows: KeyedRecord[], limit: number): PersonalDataPage {
  const last = rows.length >= limit ? rows[rows.length - 1] : undefined;
  return { records: rows.map((row) => row.record), ...(last ? { nextCursor: last.k } : {}) };
}

/** Answers the person's data pages of `service` (its queue group is its name). */
export function servePersonalData(bus: EventBus, service: string, sections: Record<string, PersonalDataSection>): Promise<Subscription> {
  return serveRpc(bus, PersonalData.rpc(service), service, async ({ userId, section, cursor, limit }) => {
    if (!isUuid(userId)) throw new Error('user_id is not a user id');
    const read = Object.hasOwn(sections, section) ? sections[section] : undefined;
    if (!read) throw new Error(`${service} has no personal data section "${section}"`);
    const page = await read(userId.toLowerCase(), cursor, Math.min(Math.max(1, limit || 200), MAX_PAGE));
    return { records: page.records.map((record) => JSON.stringify(record)), nextCursor: page.nextCursor ?? '' };
  });
}

export interface PersonalDataReadOptions {
  /** Records asked for per page; default 500. */
  pageSize?: number;
  /** How long one page may take to come; default 10 s. */
  timeoutMs?: number;
}

/** Every record of one section of a person's data at `service`, page after page, as JSON text. */
export async function* personalDataRecords(bus: EventBus, service: string, section: string, userId: string, options: PersonalDataReadOptions = {}): AsyncGenerator<string> {
  let cursor = '';
  for (;;) {
    const page = await requestRpc(bus, PersonalData.rpc(service), { userId, section, cursor, limit: options.pageSize ?? 500 }, { timeoutMs: options.timeoutMs ?? 10_000 });
    yield* page.records;
    if (!page.nextCursor || page.nextCursor === cursor) return;
    cursor = page.nextCursor;
  }
}
