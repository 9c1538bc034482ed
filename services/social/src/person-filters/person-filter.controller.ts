import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiCreatedResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentCaller, nextCursorHeaderDoc, sendPage, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { PersonListQueryDto } from '../pagination/page-queries.js';
import { BlockStatusDto, FilteredPersonDto, MutedWordDto, MuteStatusDto, MuteWordDto } from './person-filter.dto.js';
import { PersonFilterService } from './person-filter.service.js';

@ApiTags('blocks and mutes')
@Controller('api/users/:id')
@ApiParam({ name: 'id', description: 'The person', format: 'uuid' })
@ApiNotFoundResponse({ description: 'User not found (unknown to this service, or a malformed id)' })
@ApiUnauthorizedResponse({ description: 'Not signed in' })
export class PersonFilterController {
  constructor(private readonly filters: PersonFilterService) {}

  @Post('block')
  @HttpCode(200)
  @SignedIn()
  @ApiOperation({ summary: 'Block a person: the follows both ways and pending follow requests go, and neither sees the other any more (blocking again changes nothing)' })
  @ApiOkResponse({ type: BlockStatusDto })
  @ApiBadRequestResponse({ description: 'You cannot block yourself' })
  block(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<BlockStatusDto> {
    return this.filters.block(caller, id, true);
  }

  @Delete('block')
  @SignedIn()
  @ApiOperation({ summary: 'Unblock a person (the follows that went do not come back)' })
  @ApiOkResponse({ type: BlockStatusDto })
  @ApiBadRequestResponse({ description: 'You cannot block yourself' })
  unblock(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<BlockStatusDto> {
    return this.filters.block(caller, id, false);
  }

  @Get('mute')
  @SignedIn()
  @ApiOperation({ summary: 'Whether the caller has muted the person' })
  @ApiOkResponse({ type: MuteStatusDto })
  @ApiBadRequestResponse({ description: 'You cannot mute yourself' })
  muteStatus(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<MuteStatusDto> {
    return this.filters.muteStatus(caller, id);
  }

  @Post('mute')
  @HttpCode(200)
  @SignedIn()
  @ApiOperation({ summary: "Mute a person: their posts and timelines leave the caller's feeds and search results, their actions stop notifying the caller; they are not told" })
  @ApiOkResponse({ type: MuteStatusDto })
  @ApiBadRequestResponse({ description: 'You cannot mute yourself' })
  mute(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<MuteStatusDto> {
    return this.filters.mute(caller, id, true);
  }

  @Delete('mute')
  @SignedIn()
  @ApiOperation({ summary: 'Unmute a person' })
  @ApiOkResponse({ type: MuteStatusDto })
  @ApiBadRequestResponse({ description: 'You cannot mute yourself' })
  unmute(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<MuteStatusDto> {
    return this.filters.mute(caller, id, false);
  }
}

@ApiTags('blocks and mutes')
@Controller('api')
@ApiUnauthorizedResponse({ description: 'Not signed in' })
export class PersonFilterListController {
  constructor(private readonly filters: PersonFilterService) {}

  @Get('blocks')
  @SignedIn()
  @ApiOperation({ summary: 'The people the caller blocked, newest first (settings)' })
  @ApiOkResponse({ type: [FilteredPersonDto], headers: nextCursorHeaderDoc() })
  @ApiBadRequestResponse({ description: 'Bad limit or cursor, unknown query field' })
  async blocks(@CurrentCaller() caller: SignedInCaller, @Query() query: PersonListQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<FilteredPersonDto[]> {
    return sendPage(reply, await this.filters.blocked(caller, query));
  }

  @Get('mutes')
  @SignedIn()
  @ApiOperation({ summary: 'The people the caller muted, newest first (settings)' })
  @ApiOkResponse({ type: [FilteredPersonDto], headers: nextCursorHeaderDoc() })
  @ApiBadRequestResponse({ description: 'Bad limit or cursor, unknown query field' })
  async mutes(@CurrentCaller() caller: SignedInCaller, @Query() query: PersonListQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<FilteredPersonDto[]> {
    return sendPage(reply, await this.filters.muted(caller, query));
  }

  @Get('muted-words')
  @SignedIn()
  @ApiOperation({ summary: "The caller's muted words and hashtags that still stand, newest first" })
  @ApiOkResponse({ type: [MutedWordDto] })
  words(@CurrentCaller() caller: SignedInCaller): Promise<MutedWordDto[]> {
    return this.filters.words(caller);
  }

  @Post('muted-words')
  @SignedIn()
  @ApiOperation({ summary: 'Mute a word or hashtag for 24 hours, 7 days or until removed (muting it again sets the new duration)' })
  @ApiCreatedResponse({ type: MutedWordDto })
  @ApiBadRequestResponse({ description: 'Word is required; too long; too many words; bad duration' })
  muteWord(@CurrentCaller() caller: SignedInCaller, @Body() body: MuteWordDto): Promise<MutedWordDto> {
    return this.filters.muteWord(caller, body);
  }

  @Delete('muted-words/:wordId')
  @HttpCode(204)
  @SignedIn()
  @ApiParam({ name: 'wordId', format: 'uuid' })
  @ApiOperation({ summary: 'Remove a muted word' })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiNotFoundResponse({ description: 'Muted word not found' })
  async unmuteWord(@CurrentCaller() caller: SignedInCaller, @Param('wordId') id: string): Promise<void> {
    await this.filters.unmuteWord(caller, id);
  }
}
