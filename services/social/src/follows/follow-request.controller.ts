import { Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentCaller, nextCursorHeaderDoc, sendPage, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { PersonListQueryDto } from '../pagination/page-queries.js';
import { FollowRequestCountDto, FollowRequestDto } from './follow-request.dto.js';
import { FollowRequestService } from './follow-request.service.js';

@ApiTags('follows')
@Controller('api/follow-requests')
@SignedIn()
@ApiUnauthorizedResponse({ description: 'Not signed in' })
export class FollowRequestController {
  constructor(private readonly requests: FollowRequestService) {}

  @Get()
  @ApiOperation({ summary: 'The people waiting for the caller to answer their follow request, newest first' })
  @ApiOkResponse({ type: [FollowRequestDto], headers: nextCursorHeaderDoc() })
  @ApiBadRequestResponse({ description: 'Bad limit or cursor, unknown query field' })
  async list(@CurrentCaller() caller: SignedInCaller, @Query() query: PersonListQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<FollowRequestDto[]> {
    return sendPage(reply, await this.requests.list(caller, query));
  }

  @Get('count')
  @ApiOperation({ summary: 'How many follow requests wait for the caller' })
  @ApiOkResponse({ type: FollowRequestCountDto })
  count(@CurrentCaller() caller: SignedInCaller): Promise<FollowRequestCountDto> {
    return this.requests.count(caller);
  }

  @Post(':userId/approve')
  @HttpCode(200)
  @ApiParam({ name: 'userId', description: 'The person who asked', format: 'uuid' })
  @ApiOperation({ summary: 'Approve a follow request: the person follows the caller from now on' })
  @ApiOkResponse({ type: FollowRequestCountDto, description: 'The pending requests left' })
  @ApiNotFoundResponse({ description: 'Follow request not found' })
  approve(@CurrentCaller() caller: SignedInCaller, @Param('userId') userId: string): Promise<FollowRequestCountDto> {
    return this.requests.approve(caller, userId);
  }

  @Post(':userId/decline')
  @HttpCode(200)
  @ApiParam({ name: 'userId', description: 'The person who asked', format: 'uuid' })
  @ApiOperation({ summary: 'Decline a follow request (the person is not told)' })
  @ApiOkResponse({ type: FollowRequestCountDto, description: 'The pending requests left' })
  @ApiNotFoundResponse({ description: 'Follow request not found' })
  decline(@CurrentCaller() caller: SignedInCaller, @Param('userId') userId: string): Promise<FollowRequestCountDto> {
    return this.requests.decline(caller, userId);
  }
}
