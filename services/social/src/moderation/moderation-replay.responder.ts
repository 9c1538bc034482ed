import { type EventBus, isUuid, serveRpc, type Subscription } from '@timeliner/platform';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { SocialRpc } from '@timeliner/proto';
import type { DataSource } from 'typeorm';

const MAX_PAGE = 1000;

const SUBJECT_TYPES = new Set(['timeline', 'video', 'post', 'post_comment', 'timeline_comment', 'video_comment', 'account']);

interface Raw {
  subjectType: string;
  subjectId: string;
  hidden: boolean;
  sensitive: boolean;
  until: Date | null;
  version: string;
  authorId: string;
}

/**
 * The standing decisions, items and suspensions alike, keyed `<type>:<id>` in byte order (COLLATE
 * "C", as the rebuild compares keys): $1 the kinds asked for (all when empty).
 */
const DECISIONS = `WITH decisions AS (
    SELECT content_type AS "subjectType", content_id::text AS "subjectId", hidden, sensitive, NULL::timestamptz AS until, version::text AS version, author_id::text AS "authorId" FROM moderated_content
    UNION ALL
    SELECT 'account', user_id::text, true, false, until, version::text, user_id::text FROM account_suspensions
  )
  SELECT * FROM decisions WHERE (cardinality($1::text[]) = 0 OR "subjectType" = ANY($1::text[]))`;
const KEY = `("subjectType" || ':' || "subjectId") COLLATE "C"`;

/**
 * Answers a read model's rebuild (SocialRpc.ReplayModeration: the moderation copies of the
 * timelines, notifications and search services): every item the moderators hid, restored or
 * marked sensitive, and every suspension on record, with the versions their ContentModerated and
 * AccountSuspensionChanged events carry, one page in key order at a time, or those of a list of
 * subjects. A lifted suspension has no row (lifting removes it), so it is absent. Read only;
 * nothing goes through the outbox. Queue group `social`.
 */
export function serveModerationReplay(bus: EventBus, dataSource: DataSource): Promise<Subscription> {
  return serveRpc(bus, SocialRpc.ReplayModeration, 'social', async ({ after, limit, subjects, subjectTypes }) => {
    const size = Math.min(Math.max(1, limit || 200), MAX_PAGE);
    const types = subjectTypes.filter((type) => SUBJECT_TYPES.has(type));
    if (after && !(SUBJECT_TYPES.has(after.subjectType) && isUuid(after.subjectId))) throw new Error('after is not a moderation subject');
    let rows: Raw[];
    if (subjects.length > 0) {
      const asked = subjects.filter((s) => SUBJECT_TYPES.has(s.subjectType) && isUuid(s.subjectId)).slice(0, MAX_PAGE);
      rows = (await dataSource.query(`${DECISIONS} AND ("subjectType", "subjectId") IN (SELECT * FROM unnest($2::text[], $3::text[])) ORDER BY ${KEY}`, [
        types,
        asked.map((s) => s.subjectType),
        asked.map((s) => s.subjectId.toLowerCase()),
      ])) as Raw[];
    } else if (after) {
      rows = (await dataSource.query(`${DECISIONS} AND ${KEY} > $2 ORDER BY ${KEY} LIMIT $3`, [types, `${after.subjectType}:${after.subjectId.toLowerCase()}`, size])) as Raw[];
    } else {
      rows = (await dataSource.query(`${DECISIONS} ORDER BY ${KEY} LIMIT $2`, [types, size])) as Raw[];
    }
    const first = !after && subjects.length === 0;
    const [{ n }] = first ? ((await dataSource.query(`SELECT count(*)::text AS n FROM (${DECISIONS}) counted`, [types])) as [{ n: string }]) : [{ n: '0' }];
    return {
      decisions: rows.map((row) => ({
        subject: { subjectType: row.subjectType, subjectId: row.subjectId },
        hidden: row.hidden,
        sensitive: row.sensitive,
        ...(row.until ? { until: timestampFromDate(new Date(row.until)) } : {}),
        version: BigInt(row.version),
        authorId: row.authorId,
      })),
      total: BigInt(n),
    };
  });
}
