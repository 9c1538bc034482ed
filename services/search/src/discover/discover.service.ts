import { type HashtagDto, mapHashtag, mapTimeline, type SearchTimelineDto } from '../search/search.dto.js';
import type { DiscoverRepository } from './discover.repository.js';
import { POPULAR_DEFAULT_LIMIT, TRENDING_DEFAULT_LIMIT } from './discover.dto.js';

export class DiscoverService {
  constructor(private readonly discover: DiscoverRepository) {}

  /** `viewerId`: the caller, whose blocks, mutes and muted words leave timelines out (search/search-filters.ts). */
  async popular(limit = POPULAR_DEFAULT_LIMIT, viewerId?: string): Promise<SearchTimelineDto[]> {
    return (await this.discover.popular(limit, viewerId?.toLowerCase() ?? null)).map(mapTimeline);
  }

  async trending(limit = TRENDING_DEFAULT_LIMIT): Promise<HashtagDto[]> {
    return (await this.discover.trending(limit)).map(mapHashtag);
  }
}
