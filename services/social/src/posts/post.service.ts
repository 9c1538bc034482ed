import { ForbiddenException, NotFoundException } from '@nestjs/common';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { afterCommit, type Caller, decodeCursor, encodeCursor, type EventWriter, isUuid, type Page, type SignedInCaller, type Transactions } from '@timeliner/platform';
import { Reaction, SocialEvents, TargetType } from '@timeliner/proto';
import { deliverToInboxes } from '../feed-index/following-inbox.js';
import { forYouListingChanged } from '../feed-index/listing-changed.js';
import { DEFAULT_PAGE_SIZE, type PageQueryDto } from '../pagination/page-queries.js';
import { storedNameOf } from '../users/user-names.js';
import { admitComment } from '../comment-rules/comment-gate.js';
import { heldCommentWaiting } from '../comment-rules/comment-announcements.js';
import { moderatesPost } from '../comment-rules/comment-moderators.js';
import { mapPost, mapPostComment, type PostBookmarkStatusDto, type PostCommentDto, type PostDto, type PostLikeStatusDto } from './post.dto.js';
import type { PostCountChange, PostRepository } from './post.repository.js';
import { hashtagsOf, mentionsOf } from './post-text.js';

export const POST_NOT_FOUND = 'Post not found';

/**
 * Short text posts: anyone signed in writes them; everyone reads them; only the author edits or
 * deletes. Likes and bookmarks are idempotent toggles under the post row's lock (a double click,
 * two tabs or a replay never counts twice); every real change is announced with the post's new,
 * versioned count, and a post's tags and mentions travel with its events.
 */
export class PostService {
  constructor(
    private readonly transactions: Transactions,
    private readonly posts: PostRepository,
    private readonly events: EventWriter,
  ) {}

  async list(caller: Caller, query: PageQueryDto): Promise<Page<PostDto>> {
    const after = query.cursor ? decodeCursor(query.cursor, ['timestamp', 'uuid']) : undefined;
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await this.posts.list(caller.userId, limit + 1, after);
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    return { items: items.map(mapPost), ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.key) } : {}) };
  }

  /**
   * One post, where it is seen in context. One the moderators took out is there for its author
   * (marked removed by moderators, as a hidden one is) and for staff (marked so whether it was
   * hidden or its author suspended), so they can review it; everyone else is told it is not there.
   */
  async get(caller: Caller, rawId: string): Promise<PostDto> {
    const post = isUuid(rawId) ? await this.posts.inContext(rawId.toLowerCase(), caller.userId) : null;
    if (!post) throw new NotFoundException(POST_NOT_FOUND);
    const { takenOut, moderationReason, ...row } = post;
    if (!takenOut || caller.userId === row.userId) return mapPost(row);
    return { ...mapPost({ ...row, removedByModerators: true }), ...(moderationReason ? { moderationReason } : {}) };
  }

  async create(caller: SignedInCaller, content: string, sensitive = false): Promise<PostDto> {
    const id = randomUUID();
    const hashtags = hashtagsOf(content);
    const mentions = mentionsOf(content);
    const post = await this.transactions.run(async (manager) => {
      await this.posts.insert(manager, { id, userId: caller.userId, content, hashtags, mentions, sensitive });
      const row = (await this.posts.find(id, caller.userId, manager))!;
      await deliverToInboxes(manager, { type: 'post', id, authorId: caller.userId, at: row.key[0] as string }, { followers: true });
      // A new post may rank in for-you: this process's snapshots are retaken once it is visible.
      afterCommit(manager, forYouListingChanged);
      await this.events.add(manager, SocialEvents.PostCreated, {
        postId: id,
        userId: caller.userId,
        content,
        hashtags,
        mentions,
        createdAt: timestampFromDate(row.createdAt),
      }, { actorUserId: caller.userId, requestId: caller.requestId });
      return row;
    });
    return mapPost(post);
  }

  async update(caller: SignedInCaller, rawId: string, content: string, sensitive?: boolean): Promise<PostDto> {
    const hashtags = hashtagsOf(content);
    const mentions = mentionsOf(content);
    const post = await this.asAuthor(caller, rawId, 'edit', async (manager, id) => {
      await this.posts.updateContent(manager, id, { content, hashtags, mentions });
      if (sensitive !== undefined) await this.posts.setSensitive(manager, id, sensitive);
      await this.events.add(manager, SocialEvents.PostUpdated, { postId: id, userId: caller.userId, content, hashtags, mentions }, { actorUserId: caller.userId, requestId: caller.requestId });
      return (await this.posts.find(id, caller.userId, manager))!;
    });
    return mapPost(post);
  }

  async delete(caller: SignedInCaller, rawId: string): Promise<void> {
    await this.asAuthor(caller, rawId, 'delete', async (manager, id) => {
      await this.posts.delete(manager, id);
      await this.events.add(manager, SocialEvents.PostDeleted, { postId: id, userId: caller.userId }, { actorUserId: caller.userId, requestId: caller.requestId });
    });
  }

  async liked(caller: Caller, rawId: string): Promise<PostLikeStatusDto> {
    const post = await this.get(caller, rawId);
    return { liked: post.liked, isLiked: post.liked, likesCount: post.likesCount };
  }

  async bookmarked(caller: Caller, rawId: string): Promise<PostBookmarkStatusDto> {
    const post = await this.get(caller, rawId);
    return { bookmarked: post.bookmarked, isBookmarked: post.bookmarked };
  }

  async setLike(caller: SignedInCaller, rawId: string, active: boolean): Promise<PostLikeStatusDto> {
    const count = await this.react(caller, rawId, 'like', active);
    return { liked: active, isLiked: active, likesCount: count };
  }

  async setBookmark(caller: SignedInCaller, rawId: string, active: boolean): Promise<PostBookmarkStatusDto> {
    await this.react(caller, rawId, 'bookmark', active);
    return { bookmarked: active, isBookmarked: active };
  }

  async comments(caller: Caller, rawId: string, query: PageQueryDto): Promise<Page<PostCommentDto>> {
    const after = query.cursor ? decodeCursor(query.cursor, ['timestamp', 'uuid']) : undefined;
    const post = await this.get(caller, rawId);
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await this.posts.comments(post.id, limit + 1, after, undefined, { userId: caller.userId, moderator: moderatesPost(post.userId, caller.userId) });
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    // The pinned comment comes first, on the first page only (the pages leave it out).
    const pinned = after ? null : await this.posts.pinnedComment(post.id);
    return { items: [...(pinned ? [pinned] : []), ...items].map(mapPostComment), ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.key) } : {}) };
  }

  async addComment(caller: SignedInCaller, rawId: string, content: string): Promise<PostCommentDto> {
    const comment = await this.onPost(rawId, async (manager, id, author) => {
      const admission = await admitComment(manager, { type: 'post', id }, { userId: caller.userId, moderator: moderatesPost(author, caller.userId), ownerId: author }, content);
      if (admission.refused !== null) throw new ForbiddenException(admission.refused);
      const commentId = randomUUID();
      const userName = await storedNameOf(manager, caller.userId);
      if (admission.held) {
        // Counted and announced when the post's author approves it; they hear that it waits.
        await this.posts.insertComment(manager, { id: commentId, postId: id, userId: caller.userId, userName, content, held: true });
        await heldCommentWaiting(manager, this.events, { type: 'post', id }, author, caller, commentId);
        return commentId;
      }
      const { createdAt, change } = await this.posts.addComment(manager, { id: commentId, postId: id, userId: caller.userId, userName, content });
      await this.events.add(manager, SocialEvents.CommentAdded, {
        commentId,
        targetType: TargetType.POST,
        targetId: id,
        timelineId: '',
        ownerId: change.ownerId,
        userId: caller.userId,
        parentCommentId: '',
        parentAuthorId: '',
        content,
        mentions: mentionsOf(content),
        count: BigInt(change.count),
        countVersion: change.version,
        createdAt: timestampFromDate(createdAt),
      }, { actorUserId: caller.userId, requestId: caller.requestId });
      return commentId;
    }, caller.userId);
    return mapPostComment((await this.posts.comment(comment))!);
  }

  /** Runs `work` with the post row locked; 404 when there is no such post. */
  private async onPost<T>(rawId: string, work: (manager: EntityManager, id: string, author: string) => Promise<T>, viewerId?: string): Promise<T> {
    if (!isUuid(rawId)) throw new NotFoundException(POST_NOT_FOUND);
    const id = rawId.toLowerCase();
    return this.transactions.run(async (manager) => {
      const post = await this.posts.lock(manager, id);
      if (!post) throw new NotFoundException(POST_NOT_FOUND);
      // A private account's post is as absent to someone who may not see it (private-accounts/).
      if (viewerId && !(await this.posts.seenDespitePrivacy(manager, post.userId, viewerId))) throw new NotFoundException(POST_NOT_FOUND);
      // So is one the moderators hid, or by a suspended person, to all but its author: no like, bookmark or comment on it.
      if (viewerId && viewerId !== post.userId && !(await this.posts.shownByModerators(manager, id))) throw new NotFoundException(POST_NOT_FOUND);
      return work(manager, id, post.userId);
    });
  }

  private asAuthor<T>(caller: SignedInCaller, rawId: string, action: 'edit' | 'delete', work: (manager: EntityManager, id: string) => Promise<T>): Promise<T> {
    // Someone who may not see the post (a private account's) is told it is not there, not that it is someone else's.
    return this.onPost(rawId, (manager, id, author) => {
      if (author !== caller.userId) throw new ForbiddenException(`Only the author can ${action} this post`);
      return work(manager, id);
    }, caller.userId);
  }

  /** Sets the caller's like or bookmark; the post's count after it. */
  private async react(caller: SignedInCaller, rawId: string, kind: 'like' | 'bookmark', active: boolean): Promise<number> {
    const change: PostCountChange | null = await this.onPost(rawId, async (manager, id) => {
      const changed = await this.posts.setReaction(manager, kind, id, caller.userId, active);
      if (!changed) return null;
      await this.events.add(manager, SocialEvents.ReactionChanged, {
        targetType: TargetType.POST,
        targetId: id,
        timelineId: '',
        ownerId: changed.ownerId,
        userId: caller.userId,
        reaction: kind === 'like' ? Reaction.LIKE : Reaction.BOOKMARK,
        active,
        count: BigInt(changed.count),
        countVersion: changed.version,
        at: timestampFromDate(new Date()),
      }, { actorUserId: caller.userId, requestId: caller.requestId });
      return changed;
    }, caller.userId);
    if (change) return change.count;
    return (await this.get(caller, rawId)).likesCount;
  }
}
