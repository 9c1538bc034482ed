import type { DataSource } from 'typeorm';
import type { Caller } from '@timeliner/platform';
import { FOLLOW_PAGE_SIZE, type FollowPageQueryDto } from '../follows/follow.dto.js';
import { decodeCursor, encodeCursor, type Page } from '../pagination/cursor.js';
import { requireVisiblePersonLists } from '../people/person-access.js';
import type { ActivityDto, ActivityMetadataDto } from './activity.dto.js';
import type { ActivityRepository, ActivityRow } from './activity.repository.js';

const metadataOf = (row: ActivityRow): ActivityMetadataDto => {
  if (row.targetType === 'user') return { followedUsername: row.currentUsername ?? row.metadata.followedUsername ?? '' };
  return { timelineTitle: row.currentTitle ?? row.metadata.timelineTitle ?? '' };
};

const mapActivity = (row: ActivityRow): ActivityDto => ({
  id: row.id,
  userId: row.userId,
  activityType: row.activityType,
  targetType: row.targetType,
  targetId: row.targetId,
  metadata: metadataOf(row),
  createdAt: row.createdAt.toISOString(),
});

/**
 * A person's activity (spec 001 section 3), newest first. The person sees all of it; others see
 * what is about public, published timelines and their follows, and nothing at all of a private
 * account they do not follow (403).
 */
export class ActivityService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly activities: ActivityRepository,
  ) {}

  async page(caller: Caller, rawId: string, query: FollowPageQueryDto): Promise<Page<ActivityDto>> {
    const after = query.cursor ? decodeCursor(query.cursor, ['timestamp', 'uuid']) : undefined;
    const userId = await requireVisiblePersonLists(this.dataSource, caller.userId, rawId);
    const limit = query.limit ?? FOLLOW_PAGE_SIZE;
    const rows = await this.activities.page(userId, caller.userId?.toLowerCase() === userId, limit + 1, after);
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    return { items: items.map(mapActivity), ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.key) } : {}) };
  }
}
