import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { type EventBus, isUuid, serveRpc, type Subscription } from '@timeliner/platform';
import { SocialRpc } from '@timeliner/proto';
import type { TimelineReactionRepository } from './timeline-reaction.repository.js';

const MAX_PAGE = 1000;

/**
 * Answers a read model's rebuild (SocialRpc.ReplayTimelineLikes: the timelines service's like and
 * comment counts): the timelines' counts as they stand, with the versions their ReactionChanged and
 * TimelineCommentAdded/Deleted events carry, one page in id order at a time, or those of a list of ids. Read only; nothing goes
 * through the outbox. Queue group `social`.
 */
export function serveTimelineLikesReplay(bus: EventBus, reactions: TimelineReactionRepository): Promise<Subscription> {
  return serveRpc(bus, SocialRpc.ReplayTimelineLikes, 'social', async ({ afterId, limit, timelineIds }) => {
    const size = Math.min(Math.max(1, limit || 200), MAX_PAGE);
    if (afterId && !isUuid(afterId)) throw new Error('after_id is not a timeline id');
    const rows =
      timelineIds.length > 0
        ? await reactions.likesOf(timelineIds.filter(isUuid).map((id) => id.toLowerCase()).slice(0, MAX_PAGE))
        : await reactions.likesPage(afterId.toLowerCase(), size);
    const first = !afterId && timelineIds.length === 0;
    return {
      timelines: rows.map((row) => ({
        timelineId: row.timelineId,
        likesCount: BigInt(row.likesCount),
        countVersion: BigInt(row.countVersion),
        commentsCount: BigInt(row.commentsCount),
        commentsVersion: BigInt(row.commentsVersion),
        ...(row.lastLikeAt ? { lastLikeAt: timestampFromDate(new Date(row.lastLikeAt)) } : {}),
      })),
      total: first ? await reactions.countedTimelines() : 0n,
    };
  });
}
