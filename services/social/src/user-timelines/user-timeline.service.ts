import type { DataSource } from 'typeorm';
import type { Caller } from '@timeliner/platform';
import { FOLLOW_PAGE_SIZE, type FollowPageQueryDto } from '../follows/follow.dto.js';
import { decodeCursor, encodeCursor, type Page } from '../pagination/cursor.js';
import { requirePerson } from '../people/person-access.js';
import { mapTimeline } from '../feed/feed.service.js';
import type { UserTimelineDto } from './user-timeline.dto.js';
import type { UserTimelineRepository, UserTimelineRow } from './user-timeline.repository.js';

const mapUserTimeline = (row: UserTimelineRow): UserTimelineDto => ({ ...mapTimeline(row), visibility: row.visibility, status: row.status });

/**
 * A person's Timelines tab, newest first, from the feed_timelines read model (every timeline's
 * latest snapshot): the person sees all of theirs (drafts, private, unlisted); everyone else the
 * public, published ones. Collaborators are not asked about (no call to the timelines service
 * per row): a private timeline shared with them is not in this list, only in their own places.
 */
export class UserTimelineService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly timelines: UserTimelineRepository,
  ) {}

  async page(caller: Caller, rawId: string, query: FollowPageQueryDto): Promise<Page<UserTimelineDto>> {
    const after = query.cursor ? decodeCursor(query.cursor, ['timestamp', 'uuid']) : undefined;
    const { id: userId } = await requirePerson(this.dataSource, rawId);
    const callerId = caller.userId?.toLowerCase();
    const limit = query.limit ?? FOLLOW_PAGE_SIZE;
    const rows = await this.timelines.page(userId, callerId === userId, callerId, limit + 1, after);
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    return { items: items.map(mapUserTimeline), ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.key) } : {}) };
  }
}
