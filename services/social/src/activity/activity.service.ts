import { type Caller, decodeCursor, encodeCursor, type Page } from '@timeliner/platform';
import { PERSON_LIST_PAGE_SIZE, type PersonListQueryDto } from '../pagination/page-queries.js';
import { requireVisiblePersonLists } from '../people/person-access.js';
import type { PersonRepository } from '../people/person.repository.js';
import { type ActivityDto, mapActivity } from './activity.dto.js';
import type { ActivityRepository } from './activity.repository.js';

/**
 * A person's activity (spec 001 section 3), newest first. The person sees all of it; others see
 * what is about public, published timelines and their follows, and nothing at all of a private
 * account they do not follow (403).
 */
export class ActivityService {
  constructor(
    private readonly people: PersonRepository,
    private readonly activities: ActivityRepository,
  ) {}

  async page(caller: Caller, rawId: string, query: PersonListQueryDto): Promise<Page<ActivityDto>> {
    const after = query.cursor ? decodeCursor(query.cursor, ['timestamp', 'uuid']) : undefined;
    const userId = await requireVisiblePersonLists(this.people, caller.userId, rawId);
    const limit = query.limit ?? PERSON_LIST_PAGE_SIZE;
    const rows = await this.activities.page(userId, caller.userId?.toLowerCase() === userId, limit + 1, after);
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    return { items: items.map(mapActivity), ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.key) } : {}) };
  }
}
