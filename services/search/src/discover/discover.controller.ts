import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Caller, CurrentCaller } from '@timeliner/platform';
import { HashtagDto, SearchTimelineDto } from '../search/search.dto.js';
import { PopularQueryDto, TrendingQueryDto } from './discover.dto.js';
import { DiscoverService } from './discover.service.js';

@ApiTags('search')
@Controller('api')
export class DiscoverController {
  constructor(private readonly discover: DiscoverService) {}

  @Get('discover/popular/timeline')
  @ApiOperation({
    summary: 'Popular public timelines',
    description: 'Ranked by the engagement (views, likes ×2, comments ×3) they gained over the last 7 days, a day counting half as much every 2 days, then by all-time engagement. The first 12 places hold one timeline per creator (each creator\'s best); others follow only when 12 creators are listed.',
  })
  @ApiOkResponse({ type: [SearchTimelineDto] })
  @ApiBadRequestResponse({ description: 'Bad limit, unknown query field' })
  popular(@CurrentCaller() caller: Caller, @Query() query: PopularQueryDto): Promise<SearchTimelineDto[]> {
    return this.discover.popular(query.limit, caller.userId);
  }

  @Get('hashtags/trending')
  @ApiOperation({
    summary: 'Trending hashtags',
    description: 'First the hashtags taking off: used by at least 3 distinct people in the last 24 hours, ranked by that number against the tag\'s usual daily number over the 7 days before; then those used in the last 24 hours by fewer people, by how many; then the most used. usageCount: listed timelines and posts using the tag.',
  })
  @ApiOkResponse({ type: [HashtagDto] })
  @ApiBadRequestResponse({ description: 'Bad limit, unknown query field' })
  trending(@Query() query: TrendingQueryDto): Promise<HashtagDto[]> {
    return this.discover.trending(query.limit);
  }
}
