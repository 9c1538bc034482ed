import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCaller, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { HistoryQueryDto, RecordSearchDto, SearchHistoryDto } from './search-history.dto.js';
import { SearchHistoryService } from './search-history.service.js';

@ApiTags('search')
@Controller('api/search/history')
export class SearchHistoryController {
  constructor(private readonly history: SearchHistoryService) {}

  @Get()
  @SignedIn()
  @ApiOperation({ summary: "The caller's recent searches, newest first" })
  @ApiOkResponse({ type: [SearchHistoryDto] })
  @ApiBadRequestResponse({ description: 'Bad limit, unknown query field' })
  list(@CurrentCaller() caller: SignedInCaller, @Query() query: HistoryQueryDto): Promise<SearchHistoryDto[]> {
    return this.history.list(caller, query.limit);
  }

  @Post()
  @SignedIn()
  @HttpCode(204)
  @ApiOperation({ summary: 'Records a search and, optionally, the result opened from it (searches are also recorded by GET /api/search/enhanced)' })
  @ApiNoContentResponse({ description: 'Recorded' })
  @ApiBadRequestResponse({ description: 'Missing or too long query, bad result type or id, unknown field' })
  async record(@CurrentCaller() caller: SignedInCaller, @Body() body: RecordSearchDto): Promise<void> {
    await this.history.record(caller, body);
  }

  @Delete()
  @SignedIn()
  @HttpCode(204)
  @ApiOperation({ summary: "Clears the caller's recent searches" })
  @ApiNoContentResponse({ description: 'Cleared' })
  async clear(@CurrentCaller() caller: SignedInCaller): Promise<void> {
    await this.history.clear(caller);
  }

  @Delete(':id')
  @SignedIn()
  @HttpCode(204)
  @ApiOperation({ summary: 'Removes one of the caller\'s recent searches' })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiNotFoundResponse({ description: 'No such entry of the caller\'s' })
  async remove(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<void> {
    await this.history.remove(caller, id);
  }
}
