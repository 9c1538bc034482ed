import { timestampDate } from '@bufbuild/protobuf/wkt';
import { idOf, on } from '@timeliner/platform';
import { Reaction, SocialEvents, TargetType as SocialTarget, type Visibility } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { VideoRecord } from '../media/video.entity.js';
import { outsidersOfSql } from '../notifications/content-access.js';
import type { Activity, Notifier } from '../notifications/notifier.js';
import { bury, type CarriedTimeline, isGone, mayAccess, maySee, type TimelineFacts, timelineFacts, VISIBILITY } from '../timelines/timeline-events.js';
import { ReactionState } from './reaction-state.entity.js';

type Target = Activity['target'];
const at = (occurredAt: string) => new Date(occurredAt);

const TARGET_TYPES: Partial<Record<SocialTarget, 'post' | 'timeline' | 'video'>> = {
  [SocialTarget.POST]: 'post',
  [SocialTarget.TIMELINE]: 'timeline',
  [SocialTarget.VIDEO]: 'video',
};

/** What an event of the social service says of its timeline (events published before it did say nothing). */
const carriedBy = (event: { ownerId: string; timelineVisibility: Visibility; timelineTitle?: string }): CarriedTimeline => ({
  ownerId: idOf(event.ownerId),
  visibility: VISIBILITY[event.timelineVisibility] ?? null,
  title: event.timelineTitle ?? null,
});

interface Described {
  target: Target;
  ownerId: string | null;
  /** The target's timeline; null for a post. */
  timeline: TimelineFacts | null;
}

/**
 * The target as a notification shows it, who owns it, and its timeline; null when the target or
 * its timeline was deleted. A timeline neither known here nor described by the event throws
 * MissingReferenceError (timelineFacts).
 */
async function describeTarget(manager: EntityManager, type: 'post' | 'timeline' | 'video', id: string, timelineId: string | null, carried: CarriedTimeline): Promise<Described | null> {
  const ownerId = carried.ownerId ?? null;
  if (type === 'post' && (await isGone(manager, 'post', id))) return null;
  if (type === 'post') return { target: { type, id, timelineId: null, title: null, ownerId }, ownerId, timeline: null };
  if (!timelineId) return null;
  const timeline = await timelineFacts(manager, timelineId, carried);
  if (!timeline) return null;
  if (type === 'video') {
    if (await isGone(manager, 'video', id)) return null;
    const video = await manager.findOneBy(VideoRecord, { id });
    return { target: { type, id, timelineId, title: timeline.title ?? video?.originalName ?? null }, ownerId: ownerId ?? timeline.ownerId, timeline };
  }
  return { target: { type, id, timelineId: id, title: timeline.title }, ownerId: ownerId ?? timeline.ownerId, timeline };
}

/** Applies a versioned on/off change only when it is newer than the one already seen. */
async function isNewest(manager: EntityManager, targetKey: string, userId: string, version: bigint, active: boolean): Promise<boolean> {
  const seen = await manager.findOneBy(ReactionState, { targetKey, userId });
  if (seen && BigInt(seen.version) >= version) return false;
  await manager.upsert(ReactionState, { targetKey, userId, version: version.toString(), active }, ['targetKey', 'userId']);
  return true;
}

/** Mentioned usernames → people, in order, without the ones excluded. */
async function mentioned(manager: EntityManager, usernames: readonly string[], exclude: ReadonlySet<string>): Promise<string[]> {
  if (usernames.length === 0) return [];
  const rows = (await manager.query('SELECT id, username FROM users WHERE username = ANY($1)', [usernames.map((u) => u.toLowerCase())])) as Array<{ id: string; username: string }>;
  const byName = new Map(rows.map((row) => [row.username, row.id]));
  return usernames.map((name) => byName.get(name.toLowerCase())).filter((id): id is string => id !== undefined && !exclude.has(id));
}

/** Tells a person about an activity unless it is on a timeline they may not see. */
const telling = (notifier: Notifier) => async (manager: EntityManager, activity: Activity, timeline?: TimelineFacts | null): Promise<void> => {
  const allowed = timeline ? await mayAccess(manager, timeline, activity.recipientId) : await maySee(manager, activity.target.timelineId, activity.recipientId);
  if (!allowed) return;
  await notifier.add(manager, activity);
};

/**
 * Likes and follows: the busiest events, and versioned (an on/off older than the one applied is
 * ignored), so their consumer may handle several at once in any order.
 */
export const versionedSocialEventHandlers = (notifier: Notifier) => {
  const tell = telling(notifier);
  return [
    on(SocialEvents.ReactionChanged, async (change, meta, manager) => {
      const type = TARGET_TYPES[change.targetType];
      const targetId = idOf(change.targetId);
      const actorId = idOf(change.userId);
      if (change.reaction !== Reaction.LIKE || !type || !targetId || !actorId) return;
      const targetKey = `${type}:${targetId}`;
      if (!(await isNewest(manager, targetKey, actorId, change.countVersion, change.active))) return;
      const timelineId = type === 'post' ? null : idOf(change.timelineId);
      const described = await describeTarget(manager, type, targetId, timelineId, carriedBy(change));
      if (!described?.ownerId) return;
      const { target, ownerId, timeline } = described;
      const sourceKey = `like:${targetKey}:${actorId}`;
      if (!change.active) return notifier.retract(manager, sourceKey, ownerId);
      await tell(manager, { recipientId: ownerId, kind: 'like', target, sourceKey, actorId, occurredAt: change.at ? timestampDate(change.at) : at(meta.occurredAt) }, timeline);
    }),

    on(SocialEvents.FollowChanged, async (follow, meta, manager) => {
      const followerId = idOf(follow.followerId);
      const followeeId = idOf(follow.followeeId);
      if (!followerId || !followeeId) return;
      if (!(await isNewest(manager, `follow:${followeeId}`, followerId, follow.followersVersion, follow.active))) return;
      const sourceKey = `follow:${followerId}`;
      if (!follow.active) {
        await notifier.retract(manager, sourceKey, followeeId);
        // No longer a follower: what they were told about a private account's content goes (content-access.ts).
        return notifier.dropWhere(manager, `recipient_id = $2::uuid AND ${outsidersOfSql('$1::uuid')}`, [followeeId, followerId]);
      }
      await notifier.add(manager, { recipientId: followeeId, kind: 'follow', target: { type: 'user', id: followeeId, timelineId: null, title: null }, sourceKey, actorId: followerId, occurredAt: at(meta.occurredAt) });
    }),
  ];
};

/**
 * Comments, replies and mentions, handled in order (a comment's deletion after its addition).
 * Each recipient is told once per event: a reply's author gets "replied", the owner "commented"
 * (unless they wrote the comment replied to), the people mentioned "mentioned you"; nobody about
 * their own action or about what they may not see.
 */
export const socialEventHandlers = (notifier: Notifier) => {
  const tell = telling(notifier);
  return [
    on(SocialEvents.CommentAdded, async (comment, meta, manager) => {
      const type = TARGET_TYPES[comment.targetType];
      const commentId = idOf(comment.commentId);
      const targetId = idOf(comment.targetId);
      const actorId = idOf(comment.userId);
      if (!type || !commentId || !targetId || !actorId) return;
      // Deleted already (its deletion came first, on another subject): nothing to tell.
      if (await isGone(manager, 'comment', commentId)) return;
      const timelineId = type === 'post' ? null : idOf(comment.timelineId);
      const described = await describeTarget(manager, type, targetId, timelineId, carriedBy(comment));
      if (!described) return;
      const { target, ownerId, timeline } = described;
      const occurredAt = at(meta.occurredAt);
      const sourceKey = `comment:${commentId}`;
      const told = new Set<string>([actorId]);
      const parentId = idOf(comment.parentCommentId);
      const parentAuthorId = idOf(comment.parentAuthorId);
      if (parentId && parentAuthorId && !told.has(parentAuthorId)) {
        told.add(parentAuthorId);
        await tell(manager, { recipientId: parentAuthorId, kind: 'reply', target: { type: 'comment', id: parentId, timelineId, title: target.title, ownerId: target.ownerId ?? null }, sourceKey, actorId, occurredAt, text: comment.content }, timeline);
      }
      if (ownerId && !told.has(ownerId)) {
        told.add(ownerId);
        await tell(manager, { recipientId: ownerId, kind: 'comment', target, sourceKey, actorId, occurredAt, text: comment.content }, timeline);
      }
      for (const recipientId of await mentioned(manager, comment.mentions, told)) {
        told.add(recipientId);
        await tell(manager, { recipientId, kind: 'mention', target, sourceKey, actorId, occurredAt, text: comment.content }, timeline);
      }
    }),

    on(SocialEvents.CommentDeleted, async (deleted, _meta, manager) => {
      const commentId = idOf(deleted.commentId);
      if (!commentId) return;
      await notifier.retract(manager, `comment:${commentId}`);
      await bury(manager, 'comment', commentId);
    }),

    on(SocialEvents.TimelineCommentAdded, async (comment, meta, manager) => {
      const commentId = idOf(comment.commentId);
      const timelineId = idOf(comment.timelineId);
      const actorId = idOf(comment.userId);
      if (!commentId || !timelineId || !actorId) return;
      if (await isGone(manager, 'comment', commentId)) return;
      // The event names the timeline's owner, visibility and title: a copy of the timeline that
      // is behind (its events come on other subjects) is not needed to tell the owner.
      const described = await describeTarget(manager, 'timeline', timelineId, timelineId, carriedBy(comment));
      if (!described) return;
      const { target, ownerId, timeline } = described;
      const sourceKey = `comment:${commentId}`;
      const occurredAt = at(meta.occurredAt);
      const told = new Set<string>([actorId]);
      if (ownerId && !told.has(ownerId)) {
        told.add(ownerId);
        await tell(manager, { recipientId: ownerId, kind: 'comment', target, sourceKey, actorId, occurredAt }, timeline);
      }
      for (const recipientId of await mentioned(manager, comment.mentions, told)) {
        told.add(recipientId);
        await tell(manager, { recipientId, kind: 'mention', target, sourceKey, actorId, occurredAt }, timeline);
      }
    }),

    on(SocialEvents.TimelineCommentDeleted, async (deleted, _meta, manager) => {
      const commentId = idOf(deleted.commentId);
      if (!commentId) return;
      await notifier.retract(manager, `comment:${commentId}`);
      await bury(manager, 'comment', commentId);
    }),

    on(SocialEvents.PostCreated, async (post, meta, manager) => {
      await mentionsInPost(manager, post.postId, post.userId, post.mentions, meta.occurredAt, post.content);
    }),

    // An edit that names someone new tells them; people already told are not told again.
    on(SocialEvents.PostUpdated, async (post, meta, manager) => {
      await mentionsInPost(manager, post.postId, post.userId, post.mentions, meta.occurredAt, post.content);
    }),

    on(SocialEvents.PostDeleted, async (post, _meta, manager) => {
      const postId = idOf(post.postId);
      if (!postId) return;
      await notifier.dropAboutTarget(manager, 'post', postId);
      await bury(manager, 'post', postId);
    }),
  ];

  async function mentionsInPost(manager: EntityManager, rawPostId: string, rawAuthorId: string, mentions: readonly string[], occurredAt: string, text: string): Promise<void> {
    const postId = idOf(rawPostId);
    const authorId = idOf(rawAuthorId);
    if (!postId || !authorId) return;
    if (await isGone(manager, 'post', postId)) return;
    for (const recipientId of await mentioned(manager, mentions, new Set([authorId]))) {
      await notifier.add(manager, {
        recipientId,
        kind: 'mention',
        target: { type: 'post', id: postId, timelineId: null, title: null, ownerId: authorId },
        sourceKey: `mention:post:${postId}`,
        actorId: authorId,
        occurredAt: new Date(occurredAt),
        text,
      });
    }
  }
};
