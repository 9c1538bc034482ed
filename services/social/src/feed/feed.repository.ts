import { cursorTimestamp, preparedQuery, preparedRows, readOnly } from '@timeliner/platform';
import type { DataSource } from 'typeorm';
import type { FeedItemType } from '../feed-index/feed-keys.js';
import { postColumns, postRowFrom, type PostRow } from '../posts/post-card.js';
import { shownInFeedsSql } from '../read-rules/person-filter-sql.js';
import { seenDespitePrivacySql } from '../private-accounts/private-account-sql.js';
import type { UserRecord } from '../users/user.entity.js';
import { authorNotSuspended, shownByModerators } from '../read-rules/moderation-filters.js';

/** One place in a page: the item and its sort key as text (for the next cursor). */
export interface FeedSlot {
  type: FeedItemType;
  id: string;
  band: number;
  at: string;
}

/** The key after which a for-you page starts, read as of `readAt` (see feed-keys.ts). */
export interface ForYouAfter {
  readAt: string;
  band?: number;
  at?: string;
  id?: string;
}

export interface FeedTimelineRow {
  id: string;
  title: string;
  description: string;
  videoCount: number;
  duration: number;
  creatorId: string;
  creatorName: string;
  views: string;
  likesCount: number;
  commentsCount: number;
  activityScore: number;
  lastActivityAt: Date;
  createdAt: Date;
  updatedAt: Date;
  coverMediaId: string | null;
  /** The cover video's short description, for the card's cover (absent or null: none). */
  coverAltText?: string | null;
  /** Marked sensitive: the card shows a blurred cover with Show (absent: not sensitive). */
  sensitive?: boolean;
  liked: boolean;
  bookmarked: boolean;
  creator: Pick<UserRecord, 'displayName' | 'username' | 'avatar'> | null;
}

/** A place in a page with its item as its card shows it; neither when the item is gone. */
export interface FeedCardRow {
  slot: FeedSlot;
  post?: PostRow;
  timeline?: FeedTimelineRow;
}

/**
 * SELECT list of a timeline card (alias `t`, its reactions `c`, its creator `user`) for the
 * caller $1, each name after `prefix`; toTimelineRow reads it back (without the prefix).
 */
const timelineColumns = (prefix = '', user = 'u') => `
  t.id AS "${prefix}id", t.title AS "${prefix}title", t.description AS "${prefix}description", t.video_count AS "${prefix}videoCount",
  t.duration AS "${prefix}duration", t.creator_id AS "${prefix}creatorId", t.creator_name AS "${prefix}creatorName",
  t.views AS "${prefix}views", coalesce(c.likes_count, t.likes_count) AS "${prefix}likesCount", t.comments_count AS "${prefix}commentsCount",
  t.activity_score AS "${prefix}activityScore", t.last_activity_at AS "${prefix}lastActivityAt", t.created_at AS "${prefix}createdAt",
  t.updated_at AS "${prefix}updatedAt", t.cover_media_id AS "${prefix}coverMediaId", t.cover_alt_text AS "${prefix}coverAltText", t.sensitive AS "${prefix}sensitive",
  EXISTS (SELECT 1 FROM timeline_likes l WHERE l.timeline_id = t.id AND l.user_id = $1) AS "${prefix}liked",
  EXISTS (SELECT 1 FROM timeline_bookmarks b WHERE b.timeline_id = t.id AND b.user_id = $1) AS "${prefix}bookmarked",
  ${user}.id IS NOT NULL AS "${prefix}creatorKnown", ${user}.display_name AS "${prefix}creatorDisplayName",
  ${user}.username AS "${prefix}creatorUsername", ${user}.avatar AS "${prefix}creatorAvatar"`;

type RawTimeline = Omit<FeedTimelineRow, 'creator'> & { creatorKnown: boolean; creatorDisplayName: string | null; creatorUsername: string | null; creatorAvatar: string | null };

const toTimelineRow = (raw: RawTimeline): FeedTimelineRow => ({
  id: raw.id,
  title: raw.title,
  description: raw.description,
  videoCount: raw.videoCount,
  duration: raw.duration,
  creatorId: raw.creatorId,
  creatorName: raw.creatorName,
  views: raw.views,
  likesCount: raw.likesCount,
  commentsCount: raw.commentsCount,
  activityScore: raw.activityScore,
  lastActivityAt: raw.lastActivityAt,
  createdAt: raw.createdAt,
  updatedAt: raw.updatedAt,
  coverMediaId: raw.coverMediaId,
  coverAltText: raw.coverAltText ?? null,
  sensitive: raw.sensitive,
  liked: raw.liked,
  bookmarked: raw.bookmarked,
  creator: raw.creatorKnown ? { displayName: raw.creatorDisplayName ?? '', username: raw.creatorUsername ?? '', avatar: raw.creatorAvatar } : null,
});

/** What a card shows that may have changed since a snapshot, and the caller's own state. */
export interface CardState {
  type: FeedItemType;
  id: string;
  likesCount: number;
  commentsCount: number;
  /** bigint, as text (timelines; '0' for posts). */
  views: string;
  activityScore: number;
  lastActivityMs: number;
  /** updated_at in ms: a card edited since the snapshot has another. */
  updatedMs: number;
  /** Still listed: a timeline that is public and published (posts always). */
  visible: boolean;
  liked: boolean;
  bookmarked: boolean;
  reported: boolean;
  /** Hidden from the caller by a block, a mute or a muted word. */
  filtered: boolean;
}

/**
 * A change of key committed within this long of the read's start may not have been visible to the
 * first page; such items are sorted by their history too, so every page agrees.
 */
const COMMIT_MARGIN = `interval '2 seconds'`;

/** Public published timelines only: what everyone may see. */
const PUBLIC_TIMELINE = `t.visibility = 'public' AND t.status = 'published'`;

const notReported = (type: FeedItemType, alias: string) =>
  `NOT EXISTS (SELECT 1 FROM content_reports r WHERE r.reporter_id = $1::uuid AND r.content_type = '${type}' AND r.content_id = ${alias}.id)`;

/** Blocks (either way), muted authors and the caller's muted words (read-rules/person-filter-sql.ts). */
const shownToCaller = (type: FeedItemType, alias: string) =>
  type === 'post' ? shownInFeedsSql('$1::uuid', `${alias}.user_id`, `${alias}.content`) : shownInFeedsSql('$1::uuid', `${alias}.creator_id`, `${alias}.title || ' ' || ${alias}.description`);

/** An inbox entry's item passes the caller's filters: its author, and the words of the post or timeline it names. */
const inboxShownToCaller = `${shownInFeedsSql('$1::uuid', 'i.author_id', `coalesce((SELECT ip.content FROM posts ip WHERE ip.id = i.item_id), (SELECT it.title || ' ' || it.description FROM feed_timelines it WHERE it.id = i.item_id), '')`)}`;

/** Items moderators hid, and everything by a suspended account (read-rules/moderation-filters.ts). */
const keptByModerators = (type: FeedItemType, alias: string) => shownByModerators(type, `${alias}.id`, type === 'post' ? `${alias}.user_id` : `${alias}.creator_id`);
const inboxKeptByModerators = `NOT EXISTS (SELECT 1 FROM moderated_content mc WHERE mc.content_type = i.item_type AND mc.content_id = i.item_id AND mc.hidden) AND ${authorNotSuspended('i.author_id')}`;

/** A private account's items reach only itself and its approved followers (private-accounts/private-account-sql.ts). */
const seenByCaller = (type: FeedItemType, alias: string) => seenDespitePrivacySql('$1::uuid', type === 'post' ? `${alias}.user_id` : `${alias}.creator_id`);

/** Before the cursor key ($3 band, $4 activity, $5 id) in descending order; everything without one. */
const beforeKey = (band: string, at: string, id: string) => `($3::int IS NULL OR (${band}, ${at}, ${id}) < ($3::int, $4::timestamptz, $5::uuid))`;

/**
 * The feed's reads. For you: posts and public published timelines, by (band, last activity, id)
 * descending, each item keyed as of the read's start: items whose key has not changed since come
 * straight from the feed indexes; the few that changed are keyed by the history. Following:
 * posts and timelines of the people the caller follows and their own, newest first, from the
 * caller's inbox.
 */
export class FeedRepository {
  constructor(private readonly dataSource: DataSource) {}

  async forYou(callerId: string, after: ForYouAfter, limit: number): Promise<FeedSlot[]> {
    const movedKey = (type: FeedItemType, alias: string) => `
      LEFT JOIN LATERAL (SELECT k.score_band, k.last_activity_at FROM feed_key_history k
                          WHERE k.item_type = '${type}' AND k.item_id = ${alias}.id AND k.replaced_at > (SELECT tm FROM read)
                          ORDER BY k.replaced_at, k.seq LIMIT 1) h ON true`;
    return preparedQuery<FeedSlot>(readOnly(this.dataSource), 'social_feed_for_you_v3',
      `WITH read AS (SELECT $2::timestamptz - ${COMMIT_MARGIN} AS tm),
       moved AS (
         SELECT 'post' AS type, p.id, coalesce(h.score_band, p.score_band) AS band, coalesce(h.last_activity_at, p.last_activity_at) AS at
           FROM posts p ${movedKey('post', 'p')}
          WHERE p.key_changed_at > (SELECT tm FROM read) AND ${notReported('post', 'p')} AND ${shownToCaller('post', 'p')} AND ${seenByCaller('post', 'p')} AND ${keptByModerators('post', 'p')}
         UNION ALL
         SELECT 'timeline', t.id, coalesce(h.score_band, t.score_band), coalesce(h.last_activity_at, t.last_activity_at)
           FROM feed_timelines t ${movedKey('timeline', 't')}
          WHERE t.key_changed_at > (SELECT tm FROM read) AND ${PUBLIC_TIMELINE} AND ${notReported('timeline', 't')} AND ${shownToCaller('timeline', 't')} AND ${seenByCaller('timeline', 't')} AND ${keptByModerators('timeline', 't')}),
       page AS (
         (SELECT 'post' AS type, p.id, p.score_band AS band, p.last_activity_at AS at FROM posts p
           WHERE p.key_changed_at <= (SELECT tm FROM read) AND ${beforeKey('p.score_band', 'p.last_activity_at', 'p.id')} AND ${notReported('post', 'p')} AND ${shownToCaller('post', 'p')} AND ${seenByCaller('post', 'p')} AND ${keptByModerators('post', 'p')}
           ORDER BY p.score_band DESC, p.last_activity_at DESC, p.id DESC LIMIT $6)
         UNION ALL
         (SELECT 'timeline', t.id, t.score_band, t.last_activity_at FROM feed_timelines t
           WHERE ${PUBLIC_TIMELINE} AND t.key_changed_at <= (SELECT tm FROM read) AND ${beforeKey('t.score_band', 't.last_activity_at', 't.id')} AND ${notReported('timeline', 't')} AND ${shownToCaller('timeline', 't')} AND ${seenByCaller('timeline', 't')} AND ${keptByModerators('timeline', 't')}
           ORDER BY t.score_band DESC, t.last_activity_at DESC, t.id DESC LIMIT $6)
         UNION ALL
         SELECT type, id, band, at FROM moved m WHERE ${beforeKey('m.band', 'm.at', 'm.id')})
       SELECT type, id, band, ${cursorTimestamp('at')} AS at FROM page ORDER BY band DESC, page.at DESC, id DESC LIMIT $6`,
      [callerId, after.readAt, after.band ?? null, after.at ?? null, after.id ?? null, limit],
    );
  }

  /**
   * The caller's inbox (following-inbox.ts), newest first, with each item's card, in one round
   * trip: one index range, however many people they follow, and the posts and timelines it names.
   */
  async following(callerId: string, after: { at: string; id: string } | undefined, limit: number): Promise<FeedCardRow[]> {
    const { rows, columns } = await preparedRows(readOnly(this.dataSource), 'social_feed_following_v6',
      `WITH page AS (
         SELECT i.item_type AS type, i.item_id AS id, i.at FROM feed_inbox i
          WHERE i.owner_id = $1 AND ($2::timestamptz IS NULL OR (i.at, i.item_id) < ($2::timestamptz, $3::uuid))
            AND NOT EXISTS (SELECT 1 FROM content_reports r WHERE r.reporter_id = $1::uuid AND r.content_type = i.item_type AND r.content_id = i.item_id)
            AND ${inboxShownToCaller}
            AND ${seenDespitePrivacySql('$1::uuid', 'i.author_id')}
            AND ${inboxKeptByModerators}
          ORDER BY i.at DESC, i.item_id DESC LIMIT $4)
       SELECT page.type AS "s_type", page.id AS "s_id", ${cursorTimestamp('page.at')} AS "s_at",
              p.id IS NOT NULL AS "s_hasPost", t.id IS NOT NULL AS "s_hasTimeline", ${postColumns('p_', 'pu')}, ${timelineColumns('t_', 'tu')}
         FROM page
         LEFT JOIN posts p ON page.type = 'post' AND p.id = page.id
         LEFT JOIN users pu ON pu.id = p.user_id
         LEFT JOIN feed_timelines t ON page.type = 'timeline' AND t.id = page.id
         LEFT JOIN timeline_reactions c ON c.timeline_id = t.id
         LEFT JOIN users tu ON tu.id = t.creator_id
        ORDER BY page.at DESC, page.id DESC`,
      [callerId, after?.at ?? null, after?.id ?? null, limit],
    );
    const slotOf = columns('s_');
    const postOf = columns('p_');
    const timelineOf = columns('t_');
    return rows.map((row) => {
      const s = slotOf(row) as { type: FeedItemType; id: string; at: string; hasPost: boolean; hasTimeline: boolean };
      return {
        slot: { type: s.type, id: s.id, band: 0, at: s.at },
        post: s.hasPost ? postRowFrom(postOf(row)) : undefined,
        timeline: s.hasTimeline ? toTimelineRow(timelineOf(row) as RawTimeline) : undefined,
      };
    });
  }

  /**
   * The current counts and the caller's like, bookmark and report of the given items, in one
   * round trip; and whether an item of the caller's own changed its key after `since` (then a
   * snapshot older than that may not show it where the database would).
   */
  async cardState(callerId: string, postIds: string[], timelineIds: string[], since: string): Promise<{ items: CardState[]; ownChanged: boolean }> {
    const rows = await preparedQuery<CardState & { own: boolean }>(readOnly(this.dataSource), 'social_feed_card_state_v2',
      `SELECT 'post' AS type, p.id, p.likes_count AS "likesCount", p.comments_count AS "commentsCount", 0::bigint AS views,
              0::float8 AS "activityScore", 0::float8 AS "lastActivityMs", (extract(epoch FROM p.updated_at) * 1000)::float8 AS "updatedMs",
              ${seenByCaller('post', 'p')} AS visible,
              EXISTS (SELECT 1 FROM post_likes l WHERE l.post_id = p.id AND l.user_id = $1) AS liked,
              EXISTS (SELECT 1 FROM post_bookmarks b WHERE b.post_id = p.id AND b.user_id = $1) AS bookmarked,
              NOT ${notReported('post', 'p')} AS reported, NOT (${shownToCaller('post', 'p')}) AS filtered, false AS own
         FROM posts p WHERE p.id = ANY($2::uuid[])
       UNION ALL
       SELECT 'timeline', t.id, coalesce(c.likes_count, t.likes_count), t.comments_count, t.views,
              t.activity_score, (extract(epoch FROM t.last_activity_at) * 1000)::float8, (extract(epoch FROM t.updated_at) * 1000)::float8,
              ${PUBLIC_TIMELINE} AND ${seenByCaller('timeline', 't')},
              EXISTS (SELECT 1 FROM timeline_likes l WHERE l.timeline_id = t.id AND l.user_id = $1),
              EXISTS (SELECT 1 FROM timeline_bookmarks b WHERE b.timeline_id = t.id AND b.user_id = $1),
              NOT ${notReported('timeline', 't')}, NOT (${shownToCaller('timeline', 't')}), false
         FROM feed_timelines t LEFT JOIN timeline_reactions c ON c.timeline_id = t.id WHERE t.id = ANY($3::uuid[])
       UNION ALL
       SELECT 'own', NULL, 0, 0, 0, 0, 0, 0, false, false, false, false, false, true
        WHERE EXISTS (SELECT 1 FROM posts p WHERE p.user_id = $1 AND p.key_changed_at > $4::timestamptz)
           OR EXISTS (SELECT 1 FROM feed_timelines t WHERE t.creator_id = $1 AND t.key_changed_at > $4::timestamptz)`,
      [callerId, postIds, timelineIds, since],
    );
    return { items: rows.filter((r) => !r.own), ownChanged: rows.some((r) => r.own) };
  }

  /** Timelines by id as feed cards show them, with the caller's like and bookmark state. */
  async timelines(ids: string[], callerId: string): Promise<FeedTimelineRow[]> {
    if (ids.length === 0) return [];
    const rows = await preparedQuery<RawTimeline>(readOnly(this.dataSource), 'social_feed_timelines_v3',
      `SELECT ${timelineColumns()}
         FROM feed_timelines t
         LEFT JOIN timeline_reactions c ON c.timeline_id = t.id
         LEFT JOIN users u ON u.id = t.creator_id
        WHERE t.id = ANY($2::uuid[]) AND ${keptByModerators('timeline', 't')}`,
      [callerId, ids],
    );
    return rows.map(toTimelineRow);
  }
}
