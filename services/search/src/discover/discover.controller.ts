import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
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
    description: 'Ranked by the engagement (views, likes ×2, comments ×3) they gained over the last 7 days, a day counting half as much every 2 days, then by all-time engagement. Each creator\'s best timeline comes before anyone\'s second.',
  })
  @ApiOkResponse({ type: [SearchTimelineDto] })
  @ApiBadRequestResponse({ description: 'Bad limit, unknown query field' })
  popular(@Query() query: PopularQueryDto): Promise<SearchTimelineDto[]> {
    return this.discover.popular(query.limit);
  }

  @Get('hashtags/trending')
  @ApiOperation({
    summary: 'Trending hashtags',
    description: 'Hashtags used by at least 3 distinct people in the last 24 hours, ranked by that number against the tag\'s usual daily number over the 7 days before. usageCount: listed timelines and posts using the tag.',
  })
  @ApiOkResponse({ type: [HashtagDto] })
  @ApiBadRequestResponse({ description: 'Bad limit, unknown query field' })
  trending(@Query() query: TrendingQueryDto): Promise<HashtagDto[]> {
    return this.discover.trending(query.limit);
  }
}
