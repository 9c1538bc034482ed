import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { type Caller, CurrentCaller, nextCursorHeaderDoc, setNextCursor } from '@timeliner/platform';
import { SearchQueryDto, SearchResultDto } from './search.dto.js';
import { SearchService } from './search.service.js';

@ApiTags('search')
@Controller('api/search')
export class SearchController {
  constructor(private readonly search: SearchService) {}

  @Get('enhanced')
  @ApiOperation({
    summary: 'Search public timelines, people and hashtags',
    description:
      'Only public, published timelines are ever found. A signed-in caller\'s search (first page) is added to their recent searches. With type set, one kind is paged: the next page\'s cursor is in X-Next-Cursor.',
  })
  @ApiOkResponse({ type: SearchResultDto, headers: nextCursorHeaderDoc('Cursor of the next page of the one type asked for; absent on the last page') })
  @ApiBadRequestResponse({ description: 'Query too long, unknown type, bad limit, invalid cursor, a cursor without a type, unknown query field' })
  async enhanced(@CurrentCaller() caller: Caller, @Query() query: SearchQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<SearchResultDto> {
    const page = await this.search.enhanced(caller, query);
    setNextCursor(reply, page.nextCursor);
    return page.result;
  }
}
