import { Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { type Caller, CurrentCaller, nextCursorHeaderDoc, sendPage, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { PersonListQueryDto } from '../pagination/page-queries.js';
import { FollowPersonDto, FollowStatusDto } from './follow.dto.js';
import { FollowService } from './follow.service.js';

@ApiTags('follows')
@Controller('api/users/:id')
@ApiParam({ name: 'id', description: 'The person', format: 'uuid' })
@ApiNotFoundResponse({ description: 'User not found (unknown to this service, or a malformed id)' })
export class FollowController {
  constructor(private readonly follows: FollowService) {}

  @Get('following')
  @ApiOperation({ summary: 'Whether the caller follows a person, and their follower and following counts' })
  @ApiOkResponse({ type: FollowStatusDto })
  followStatus(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<FollowStatusDto> {
    return this.follows.status(caller, id);
  }

  @Post('follow')
  @HttpCode(200)
  @SignedIn()
  @ApiOperation({ summary: 'Follow a person (following them again changes nothing); a private account is asked instead (a follow request, isRequested true)' })
  @ApiOkResponse({ type: FollowStatusDto, description: "isFollowing true (or isRequested true for a private account) and the person's counts after the change" })
  @ApiBadRequestResponse({ description: 'You cannot follow yourself' })
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  followUser(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<FollowStatusDto> {
    return this.follows.set(caller, id, true);
  }

  @Delete('follow')
  @SignedIn()
  @ApiOperation({ summary: 'Unfollow a person, or take back a pending follow request (neither: no change)' })
  @ApiOkResponse({ type: FollowStatusDto, description: "isFollowing false and the person's counts after the change" })
  @ApiBadRequestResponse({ description: 'You cannot follow yourself' })
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  unfollowUser(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<FollowStatusDto> {
    return this.follows.set(caller, id, false);
  }

  @Get('followers')
  @ApiOperation({ summary: "A person's followers, newest follow first; isFollowing is whether the caller follows each" })
  @ApiOkResponse({ type: [FollowPersonDto], headers: nextCursorHeaderDoc() })
  @ApiBadRequestResponse({ description: 'Bad limit or cursor, unknown query field' })
  @ApiForbiddenResponse({ description: 'This account is private (shown only to itself and its followers)' })
  async listFollowers(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query() query: PersonListQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<FollowPersonDto[]> {
    return sendPage(reply, await this.follows.followers(caller, id, query));
  }

  @Get('following-list')
  @ApiOperation({ summary: 'The people a person follows, newest follow first; isFollowing is whether the caller follows each' })
  @ApiOkResponse({ type: [FollowPersonDto], headers: nextCursorHeaderDoc() })
  @ApiBadRequestResponse({ description: 'Bad limit or cursor, unknown query field' })
  @ApiForbiddenResponse({ description: 'This account is private (shown only to itself and its followers)' })
  async listFollowing(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query() query: PersonListQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<FollowPersonDto[]> {
    return sendPage(reply, await this.follows.following(caller, id, query));
  }
}
