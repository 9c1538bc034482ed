import { ForbiddenException, NotFoundException } from '@nestjs/common';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import type { Caller, EventWriter, SignedInCaller } from '@timeliner/platform';
import { Reaction, SocialEvents, TargetType } from '@timeliner/proto';
import { forYouListingChanged } from '../feed/for-you-snapshot.js';
import { deliverToInboxes } from '../feed/following-inbox.js';
import { isUuid } from '../ids.js';
import { decodeCursor, DEFAULT_PAGE_SIZE, encodeCursor, type Page, type PageQueryDto } from '../pagination/cursor.js';
import { storedNameOf } from '../users/user-names.js';
import { mapUserSummary } from '../users/user-summary.dto.js';
import type { PostBookmarkStatusDto, PostCommentDto, PostDto, PostLikeStatusDto } from './post.dto.js';
import type { PostCommentRow, PostCountChange, PostRepository, PostRow } from './post.repository.js';
import { hashtagsOf, mentionsOf } from './post-text.js';

export const POST_NOT_FOUND = 'Post not found';

export const mapPost = (row: PostRow): PostDto => ({
  id: row.id,
  userId: row.userId,
  content: row.content,
  hashtags: row.hashtags,
  mentions: row.mentions,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  edited: row.edited,
  likesCount: row.likesCount,
  commentsCount: row.commentsCount,
  liked: row.liked,
  isLiked: row.liked,
  bookmarked: row.bookmarked,
  isBookmarked: row.bookmarked,
  user: mapUserSummary(row.userId, row.author),
});

const mapComment = (row: PostCommentRow): PostCommentDto => ({
  id: row.id,
  postId: row.postId,
  content: row.content,
  createdAt: row.createdAt.toISOString(),
  user: mapUserSummary(row.userId, row.author, row.userName),
});

/**
 * Short text posts: anyone signed in writes them; everyone reads them; only the author edits or
 * deletes. Likes and bookmarks are idempotent toggles under the post row's lock (a double click,
 * two tabs or a replay never counts twice); every real change is announced with the post's new,
 * versioned count, and a post's tags and mentions travel with its events.
 */
export class PostService {
  constructor(
    private readonly dataSource: DataSource,
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

  async get(caller: Caller, rawId: string): Promise<PostDto> {
    const post = isUuid(rawId) ? await this.posts.find(rawId.toLowerCase(), caller.userId) : null;
    if (!post) throw new NotFoundException(POST_NOT_FOUND);
    return mapPost(post);
  }

  async create(caller: SignedInCaller, content: string): Promise<PostDto> {
    const id = randomUUID();
    const hashtags = hashtagsOf(content);
    const mentions = mentionsOf(content);
    const post = await this.dataSource.transaction(async (manager) => {
      await this.posts.insert(manager, { id, userId: caller.userId, content, hashtags, mentions });
      const row = (await this.posts.find(id, caller.userId, manager))!;
      await deliverToInboxes(manager, { type: 'post', id, authorId: caller.userId, at: row.key[0] as string }, { followers: true });
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
    this.events.committed();
    forYouListingChanged();
    return mapPost(post);
  }

  async update(caller: SignedInCaller, rawId: string, content: string): Promise<PostDto> {
    const hashtags = hashtagsOf(content);
    const mentions = mentionsOf(content);
    const post = await this.asAuthor(caller, rawId, 'edit', async (manager, id) => {
      await this.posts.updateContent(manager, id, { content, hashtags, mentions });
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
    const rows = await this.posts.comments(post.id, limit + 1, after);
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    return { items: items.map(mapComment), ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.key) } : {}) };
  }

  async addComment(caller: SignedInCaller, rawId: string, content: string): Promise<PostCommentDto> {
    const comment = await this.onPost(rawId, async (manager, id) => {
      const commentId = randomUUID();
      const userName = await storedNameOf(manager, caller.userId);
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
    });
    return mapComment((await this.posts.comment(comment))!);
  }

  /** Runs `work` with the post row locked; 404 when there is no such post. */
  private async onPost<T>(rawId: string, work: (manager: EntityManager, id: string, author: string) => Promise<T>): Promise<T> {
    if (!isUuid(rawId)) throw new NotFoundException(POST_NOT_FOUND);
    const id = rawId.toLowerCase();
    const result = await this.dataSource.transaction(async (manager) => {
      const post = await this.posts.lock(manager, id);
      if (!post) throw new NotFoundException(POST_NOT_FOUND);
      return work(manager, id, post.userId);
    });
    this.events.committed();
    return result;
  }

  private asAuthor<T>(caller: SignedInCaller, rawId: string, action: 'edit' | 'delete', work: (manager: EntityManager, id: string) => Promise<T>): Promise<T> {
    return this.onPost(rawId, (manager, id, author) => {
      if (author !== caller.userId) throw new ForbiddenException(`Only the author can ${action} this post`);
      return work(manager, id);
    });
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
    });
    if (change) return change.count;
    return (await this.get(caller, rawId)).likesCount;
  }
}
