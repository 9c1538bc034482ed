import { type Caller, decodeCursor, encodeCursor, type Page } from '@timeliner/platform';
import { PERSON_LIST_PAGE_SIZE, type PersonListQueryDto } from '../pagination/page-queries.js';
import { requireVisiblePersonLists } from '../people/person-access.js';
import type { PersonRepository } from '../people/person.repository.js';
import { mapUserTimeline, type UserTimelineDto } from './user-timeline.dto.js';
import type { UserTimelineRepository } from './user-timeline.repository.js';

/**
 * A person's Timelines tab, newest first, from the feed_timelines read model (every timeline's
 * latest snapshot): the person sees all of theirs (drafts, private, unlisted); everyone else the
 * public, published ones. Collaborators are not asked about (no call to the timelines service
 * per row): a private timeline shared with them is not in this list, only in their own places.
 */
export class UserTimelineService {
  constructor(
    private readonly people: PersonRepository,
    private readonly timelines: UserTimelineRepository,
  ) {}

  async page(caller: Caller, rawId: string, query: PersonListQueryDto): Promise<Page<UserTimelineDto>> {
    const after = query.cursor ? decodeCursor(query.cursor, ['timestamp', 'uuid']) : undefined;
    // A private account's tab: itself and its approved followers only (403 This account is private).
    const userId = await requireVisiblePersonLists(this.people, caller.userId, rawId);
    const callerId = caller.userId?.toLowerCase();
    const limit = query.limit ?? PERSON_LIST_PAGE_SIZE;
    const rows = await this.timelines.page(userId, callerId === userId, callerId, limit + 1, after);
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    return { items: items.map(mapUserTimeline), ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.key) } : {}) };
  }
}
