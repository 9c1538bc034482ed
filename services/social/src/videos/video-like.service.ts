import { NotFoundException } from '@nestjs/common';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { Caller, EventWriter, SignedInCaller, TimelineAccess, Transactions } from '@timeliner/platform';
import { announcedTimeline } from '../access/timeline-access.js';
import { Reaction, SocialEvents, TargetType } from '@timeliner/proto';
import type { VideoLikeRepository } from './video-like.repository.js';
import type { VideoLikeStatusDto } from './video-like.dto.js';
import { VIDEO_NOT_FOUND, type VideoRepository } from './video.repository.js';

/**
 * Likes of single videos. Whoever may see the video's timeline may read the count and, signed
 * in, like it; toggles are idempotent and only a real change is announced.
 */
export class VideoLikeService {
  constructor(
    private readonly transactions: Transactions,
    private readonly videos: VideoRepository,
    private readonly likes: VideoLikeRepository,
    private readonly access: TimelineAccess,
    private readonly events: EventWriter,
  ) {}

  async liked(caller: Caller, videoId: string): Promise<VideoLikeStatusDto> {
    const { video } = await this.videos.requireVisible(this.access, videoId, caller.userId);
    const liked = await this.likes.isLiked(video.id, caller.userId);
    return { isLiked: liked, liked, likesCount: video.likesCount };
  }

  async setLike(caller: SignedInCaller, videoId: string, active: boolean): Promise<VideoLikeStatusDto> {
    const { video, access } = await this.videos.requireVisible(this.access, videoId, caller.userId);
    const count = await this.transactions.run(async (manager) => {
      // Deleted since the check: as if it never was.
      const locked = await this.videos.find(video.id, manager, true);
      if (!locked) throw new NotFoundException(VIDEO_NOT_FOUND);
      const changed = await this.likes.set(manager, video.id, caller.userId, active);
      if (!changed) return locked.likesCount;
      await this.events.add(manager, SocialEvents.ReactionChanged, {
        targetType: TargetType.VIDEO,
        targetId: video.id,
        timelineId: locked.timelineId,
        ...announcedTimeline(access),
        userId: caller.userId,
        reaction: Reaction.LIKE,
        active,
        count: BigInt(changed.count),
        countVersion: changed.version,
        at: timestampFromDate(new Date()),
      }, { actorUserId: caller.userId, requestId: caller.requestId });
      return changed.count;
    });
    return { isLiked: active, liked: active, likesCount: count };
  }
}
