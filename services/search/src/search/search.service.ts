import { BadRequestException } from '@nestjs/common';
import { type Caller, decodeCursor, encodeCursor } from '@timeliner/platform';
import type { SearchHistoryRepository } from '../history/search-history.repository.js';
import { tagNameOf } from '../text/hashtags.js';
import { normalizedQuery, type ParsedQuery, parseQuery } from '../text/search-query.js';
import {
  DEFAULT_ALL_LIMIT,
  DEFAULT_TYPE_LIMIT,
  mapHashtag,
  mapTimeline,
  mapUser,
  MAX_SEARCH_OFFSET,
  type SearchQueryDto,
  type SearchResultDto,
  type SearchType,
} from './search.dto.js';
import type { SearchRepository, TimelineHit, UserHit } from './search.repository.js';

export interface SearchPage {
  result: SearchResultDto;
  /** Next page of the one kind asked for; absent on the last page and for type all. */
  nextCursor?: string;
}

const EMPTY = (): SearchResultDto => ({ timelines: [], users: [], hashtags: [] });
/** Hashtag names a `#tag` search also shows timelines for (the exact tag first). */
const TAGS_FOR_TIMELINES = 5;

export class SearchService {
  constructor(
    private readonly search: SearchRepository,
    private readonly history: SearchHistoryRepository,
  ) {}

  async enhanced(caller: Caller, dto: SearchQueryDto): Promise<SearchPage> {
    const type: SearchType = dto.type ?? 'all';
    if (dto.cursor !== undefined && type === 'all') throw new BadRequestException('A cursor pages one type: give type as well');
    const offset = dto.cursor === undefined ? 0 : Number(decodeCursor(dto.cursor, ['int'])[0]);
    if (offset < 0 || offset > MAX_SEARCH_OFFSET) throw new BadRequestException('Invalid cursor');
    const limit = dto.limit ?? (type === 'all' ? DEFAULT_ALL_LIMIT : DEFAULT_TYPE_LIMIT);
    const parsed = parseQuery(dto.q ?? '');
    if (parsed.text === '') return { result: EMPTY() };

    // One more than asked tells whether another page exists.
    const take = type === 'all' ? limit : limit + 1;
    const result = await this.find(parsed, type, offset, take);
    if (caller.userId && dto.cursor === undefined) await this.history.record(caller.userId, (dto.q ?? '').trim(), normalizedQuery(dto.q ?? ''));
    if (type === 'all') return { result };
    const kind = type === 'users' ? 'users' : type === 'hashtags' ? 'hashtags' : 'timelines';
    const items = result[kind];
    if (items.length <= limit) return { result };
    (result[kind] as unknown[]) = items.slice(0, limit);
    const next = offset + limit;
    return next > MAX_SEARCH_OFFSET ? { result } : { result, nextCursor: encodeCursor([next]) };
  }

  private async find(parsed: ParsedQuery, type: SearchType, offset: number, take: number): Promise<SearchResultDto> {
    const wants = (kind: SearchType) => type === 'all' || type === kind;
    const result = EMPTY();

    if (parsed.scope === 'hashtags') {
      const tag = tagNameOf(parsed.text);
      if (!tag) return result;
      const hashtags = await this.search.hashtags(tag, wants('hashtags') ? offset : 0, wants('hashtags') ? take : TAGS_FOR_TIMELINES);
      if (wants('hashtags')) result.hashtags = hashtags.map(mapHashtag);
      if (wants('timelines')) {
        const tags = [...new Set([...(hashtags.some((h) => h.name === tag) ? [tag] : []), ...hashtags.slice(0, TAGS_FOR_TIMELINES).map((h) => h.name)])];
        result.timelines = (await this.search.timelinesTagged(tags, offset, take)).map(mapTimeline);
      }
      return result;
    }

    if (parsed.scope === 'people') {
      if (wants('users')) result.users = (await this.search.users(await this.search.compile(parsed), parsed.text, offset, take)).map(mapUser);
      return result;
    }
    // Hashtags need no compiled query: they are looked for meanwhile.
    const [[timelines, users], hashtags] = await Promise.all([
      this.textResults(parsed, wants('timelines'), wants('users'), offset, take),
      wants('hashtags') ? this.search.hashtags(parsed.text, offset, take) : [],
    ]);
    result.timelines = timelines.map(mapTimeline);
    result.users = users.map(mapUser);
    result.hashtags = hashtags.map(mapHashtag);
    return result;
  }

  /** Timelines and people matching the words of the query. */
  private async textResults(parsed: ParsedQuery, timelines: boolean, users: boolean, offset: number, take: number): Promise<[TimelineHit[], UserHit[]]> {
    if (!timelines && !users) return [[], []];
    const query = await this.search.compile(parsed);
    return Promise.all([timelines && query ? this.search.timelines(query, offset, take) : [], users ? this.search.users(query, parsed.text, offset, take) : []]);
  }
}
