import { BadRequestException, NotFoundException } from '@nestjs/common';
import { isUuid, type SignedInCaller } from '@timeliner/platform';
import { tagNameOf } from '../text/hashtags.js';
import { normalizedQuery } from '../text/search-query.js';
import { HISTORY_DEFAULT_LIMIT, mapHistory, type RecordSearchDto, type SearchHistoryDto } from './search-history.dto.js';
import type { SearchHistoryRepository } from './search-history.repository.js';

/** A person's recent searches: theirs only, listed, recorded and removed by them alone. */
export class SearchHistoryService {
  constructor(private readonly history: SearchHistoryRepository) {}

  async list(caller: SignedInCaller, limit = HISTORY_DEFAULT_LIMIT): Promise<SearchHistoryDto[]> {
    return (await this.history.list(caller.userId, limit)).map(mapHistory);
  }

  async record(caller: SignedInCaller, dto: RecordSearchDto): Promise<void> {
    const query = dto.query.trim();
    if (query === '') throw new BadRequestException('Query is required');
    let result: { type: string; id: string } | undefined;
    if (dto.resultType !== undefined) {
      const id = dto.resultType === 'hashtag' ? tagNameOf(dto.resultId ?? '') : isUuid(dto.resultId ?? '') ? dto.resultId!.toLowerCase() : null;
      if (!id) throw new BadRequestException(dto.resultType === 'hashtag' ? 'Result id must be a hashtag name' : 'Result id must be a UUID');
      result = { type: dto.resultType, id };
    } else if (dto.resultId !== undefined) {
      throw new BadRequestException('Result type is required with a result id');
    }
    await this.history.record(caller.userId, query, normalizedQuery(query), result);
  }

  async clear(caller: SignedInCaller): Promise<void> {
    await this.history.clear(caller.userId);
  }

  /** Someone else's entry is as absent as a missing one. */
  async remove(caller: SignedInCaller, id: string): Promise<void> {
    if (!isUuid(id) || !(await this.history.remove(caller.userId, id.toLowerCase()))) throw new NotFoundException('Search history entry not found');
  }
}
