import { BadRequestException } from '@nestjs/common';
import { type Caller, decodeCursor, encodeCursor } from '@timeliner/platform';
import type { CaptionSearchRepository, SpokenHit } from '../captions/caption-search.repository.js';
import type { SearchHistoryRepository } from '../history/search-history.repository.js';
import { tagNameOf } from '../text/hashtags.js';
import { normalizedQuery, type ParsedQuery, parseQuery } from '../text/search-query.js';
import {
  DEFAULT_ALL_LIMIT,
  DEFAULT_TYPE_LIMIT,
  mapHashtag,
  mapSpoken,
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
/** Timelines looked for among the cues matching a query. */
const SPOKEN_TIMELINES = 50;
/** Hashtag names a `#tag` search also shows timelines for (the exact tag first). */
const TAGS_FOR_TIMELINES = 5;

export class SearchService {
  constructor(
    private readonly search: SearchRepository,
    private readonly history: SearchHistoryRepository,
    private readonly captions: CaptionSearchRepository,
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
    const result = await this.find(parsed, type, offset, take, caller.userId?.toLowerCase() ?? null);
    if (caller.userId && dto.cursor === undefined) await this.history.record(caller.userId, (dto.q ?? '').trim(), normalizedQuery(dto.q ?? ''));
    if (type === 'all') return { result };
    const kind = type === 'users' ? 'users' : type === 'hashtags' ? 'hashtags' : 'timelines';
    const items = result[kind];
    if (items.length <= limit) return { result };
    (result[kind] as unknown[]) = items.slice(0, limit);
    const next = offset + limit;
    return next > MAX_SEARCH_OFFSET ? { result } : { result, nextCursor: encodeCursor([next]) };
  }

  /** `viewer`: the searcher, whose blocks, mutes and muted words leave things out (search-filters.ts); null when signed out. */
  private async find(parsed: ParsedQuery, type: SearchType, offset: number, take: number, viewer: string | null): Promise<SearchResultDto> {
    const wants = (kind: SearchType) => type === 'all' || type === kind;
    const result = EMPTY();

    if (parsed.scope === 'hashtags') {
      const tag = tagNameOf(parsed.text);
      if (!tag) return result;
      const hashtags = await this.search.hashtags(tag, wants('hashtags') ? offset : 0, wants('hashtags') ? take : TAGS_FOR_TIMELINES, viewer);
      if (wants('hashtags')) result.hashtags = hashtags.map(mapHashtag);
      if (wants('timelines')) {
        const tags = [...new Set([...(hashtags.some((h) => h.name === tag) ? [tag] : []), ...hashtags.slice(0, TAGS_FOR_TIMELINES).map((h) => h.name)])];
        result.timelines = (await this.search.timelinesTagged(tags, offset, take, viewer)).map(mapTimeline);
      }
      return result;
    }

    if (parsed.scope === 'people') {
      if (wants('users')) result.users = (await this.search.users(await this.search.compile(parsed), parsed.text, offset, take, viewer)).map(mapUser);
      return result;
    }
    // Hashtags need no compiled query: they are looked for meanwhile.
    const [[timelines, users, spoken], hashtags] = await Promise.all([
      this.textResults(parsed, wants('timelines'), wants('users'), offset, take, viewer),
      wants('hashtags') ? this.search.hashtags(parsed.text, offset, take, viewer) : [],
    ]);
    result.timelines = await this.withSpoken(timelines, await this.spokenShown(spoken, viewer), offset, take);
    result.users = users.map(mapUser);
    result.hashtags = hashtags.map(mapHashtag);
    return result;
  }

  /** Timelines and people matching the words of the query, and where its words are said in videos of listed timelines. */
  private async textResults(parsed: ParsedQuery, timelines: boolean, users: boolean, offset: number, take: number, viewer: string | null): Promise<[TimelineHit[], UserHit[], SpokenHit[]]> {
    if (!timelines && !users) return [[], [], []];
    const query = await this.search.compile(parsed);
    return Promise.all([
      timelines && query ? this.search.timelines(query, offset, take, viewer) : [],
      users ? this.search.users(query, parsed.text, offset, take, viewer) : [],
      timelines && query ? this.captions.spoken(query, SPOKEN_TIMELINES) : [],
    ]);
  }

  /** The spoken hits the viewer's blocks, mutes and muted words leave in. */
  private async spokenShown(spoken: SpokenHit[], viewer: string | null): Promise<SpokenHit[]> {
    if (!viewer || spoken.length === 0) return spoken;
    const shown = await this.search.shownTimelineIds([...new Set(spoken.map((hit) => hit.timelineId))], viewer);
    return spoken.filter((hit) => shown.has(hit.timelineId));
  }

  /**
   * Timelines whose videos say the words carry the cue and its time (`spoken`). Those found by
   * their videos' words alone follow the others on the last page of timelines.
   */
  private async withSpoken(timelines: TimelineHit[], spoken: SpokenHit[], offset: number, take: number) {
    const byTimeline = new Map(spoken.map((hit) => [hit.timelineId, hit]));
    const cards = timelines.map((t) => {
      const hit = byTimeline.get(t.id);
      return hit ? { ...mapTimeline(t), spoken: mapSpoken(hit) } : mapTimeline(t);
    });
    if (timelines.length >= take || spoken.length === 0) return cards;
    // Pages before this one held only timelines matched by their own words: the spoken ones start here.
    const shown = new Set(timelines.map((t) => t.id));
    const extra = spoken.filter((hit) => !shown.has(hit.timelineId)).slice(0, take - timelines.length);
    if (offset > 0 && timelines.length === 0) return cards;
    const found = new Map((await this.captions.timelines(extra.map((hit) => hit.timelineId))).map((t) => [t.id, t]));
    for (const hit of extra) {
      const t = found.get(hit.timelineId);
      if (t) cards.push({ ...mapTimeline(t), spoken: mapSpoken(hit) });
    }
    return cards;
  }
}
