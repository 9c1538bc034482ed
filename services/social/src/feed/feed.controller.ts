import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentCaller, nextCursorHeaderDoc, sendPage, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { FeedItemDto, FeedQueryDto } from './feed.dto.js';
import { FeedService } from './feed.service.js';

@ApiTags('feed')
@Controller('api/feed')
export class FeedController {
  constructor(private readonly feed: FeedService) {}

  @Get()
  @SignedIn()
  @ApiOperation({
    summary: 'The home feed: posts and timelines interleaved, each with its counts and the caller\'s like and bookmark state',
    description:
      "for-you: every post and public published timeline, higher activity-score band first, then newest activity; the order is fixed for the whole read (a cursor is valid for 6 hours). following: the people the caller follows and the caller, newest first. Items the caller reported are left out.",
  })
  @ApiOkResponse({ type: [FeedItemDto], headers: nextCursorHeaderDoc() })
  @ApiBadRequestResponse({ description: 'Unknown tab, bad limit, invalid or expired cursor, unknown query field' })
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  async getFeed(@CurrentCaller() caller: SignedInCaller, @Query() query: FeedQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<FeedItemDto[]> {
    return sendPage(reply, await this.feed.page(caller, query));
  }
}
