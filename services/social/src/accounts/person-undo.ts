import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import type { SignedInCaller } from '@timeliner/platform';
import { CollectionService } from '../collections/collection.service.js';
import { CommentControlsService } from '../comment-controls/comment-controls.service.js';
import { PostService } from '../posts/post.service.js';
import { TimelineReactionService } from '../timeline-reactions/timeline-reaction.service.js';
import { VideoCommentService } from '../video-comments/video-comment.service.js';
import { VideoLikeService } from '../videos/video-like.service.js';
import type { PersonUndo } from './account-deletion.js';

/** A deleted account's own things taken back through the same paths the person's requests take. */
export function personUndo(app: INestApplication): PersonUndo {
  const as = (userId: string): SignedInCaller => ({ userId, sessionId: randomUUID(), clientIp: '127.0.0.1', requestId: `account-deletion:${userId}` });
  const posts = app.get(PostService);
  const comments = app.get(CommentControlsService);
  const videoComments = app.get(VideoCommentService);
  const timelineReactions = app.get(TimelineReactionService);
  const videoLikes = app.get(VideoLikeService);
  const collections = app.get(CollectionService);
  return {
    deletePost: (userId, postId) => posts.delete(as(userId), postId),
    deletePostComment: (userId, postId, commentId) => comments.deletePostComment(as(userId), postId, commentId),
    deleteTimelineComment: (userId, timelineId, commentId) => comments.deleteTimelineComment(as(userId), timelineId, commentId),
    deleteVideoComment: (userId, videoId, commentId) => videoComments.delete(as(userId), videoId, commentId),
    unlikePost: async (userId, postId) => void (await posts.setLike(as(userId), postId, false)),
    unbookmarkPost: async (userId, postId) => void (await posts.setBookmark(as(userId), postId, false)),
    unlikeTimeline: async (userId, timelineId) => void (await timelineReactions.setLike(as(userId), timelineId, false)),
    unbookmarkTimeline: async (userId, timelineId) => void (await timelineReactions.setBookmark(as(userId), timelineId, false)),
    unlikeVideo: async (userId, videoId) => void (await videoLikes.setLike(as(userId), videoId, false)),
    deleteCollection: (userId, collectionId) => collections.delete(as(userId), collectionId),
  };
}
