import type { Timestamp } from '@bufbuild/protobuf/wkt';
import { isUuid, on } from '@timeliner/platform';
import { SocialEvents } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { validTags } from '../text/hashtags.js';
import { dropHashtagUses, syncHashtagUses } from './hashtag-uses.js';

const timeOf = (ts: Timestamp | undefined, fallback: string): string => {
  const ms = ts ? Number(ts.seconds) * 1000 + Math.floor(ts.nanos / 1e6) : NaN;
  return Number.isFinite(ms) && ms > 0 && ms < 253_402_300_799_000 ? new Date(ms).toISOString() : fallback;
};

/**
 * Sets a post's tags as of an event's time: an older event than the one applied last changes
 * nothing, and nothing revives a deleted post.
 */
async function tagPost(manager: EntityManager, postId: string, userId: string, hashtags: string[], changedAt: string): Promise<void> {
  const applied = (await manager.query(
    `INSERT INTO tagged_posts (id, user_id, hashtags, changed_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (id) DO UPDATE SET hashtags = EXCLUDED.hashtags, changed_at = EXCLUDED.changed_at
      WHERE NOT tagged_posts.deleted AND tagged_posts.changed_at <= EXCLUDED.changed_at
     RETURNING id`,
    [postId, userId, hashtags, changedAt],
  )) as unknown[];
  if (applied.length > 0) await syncHashtagUses(manager, { sourceType: 'post', sourceId: postId, userId, hashtags, at: changedAt });
}

/** Posts' hashtags count toward hashtags' usage and trends (social PostCreated, PostUpdated, PostDeleted). */
export const postEventHandlers = [
  on(SocialEvents.PostCreated, async (post, meta, manager) => {
    if (!isUuid(post.postId) || !isUuid(post.userId)) return;
    await tagPost(manager, post.postId.toLowerCase(), post.userId.toLowerCase(), validTags(post.hashtags), timeOf(post.createdAt, meta.occurredAt));
  }),
  on(SocialEvents.PostUpdated, async (post, meta, manager) => {
    if (!isUuid(post.postId) || !isUuid(post.userId)) return;
    await tagPost(manager, post.postId.toLowerCase(), post.userId.toLowerCase(), validTags(post.hashtags), meta.occurredAt);
  }),
  on(SocialEvents.PostDeleted, async (post, meta, manager) => {
    if (!isUuid(post.postId)) return;
    const postId = post.postId.toLowerCase();
    await manager.query(
      `INSERT INTO tagged_posts (id, user_id, hashtags, changed_at, deleted) VALUES ($1, $2, '{}', $3, true)
       ON CONFLICT (id) DO UPDATE SET hashtags = '{}', deleted = true`,
      [postId, isUuid(post.userId) ? post.userId.toLowerCase() : postId, meta.occurredAt],
    );
    await dropHashtagUses(manager, 'post', postId);
  }),
];
