import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { type Caller, CurrentCaller, nextCursorHeaderDoc, sendPage } from '@timeliner/platform';
import { PersonListQueryDto } from '../pagination/page-queries.js';
import { UserTimelineDto } from './user-timeline.dto.js';
import { UserTimelineService } from './user-timeline.service.js';

@ApiTags('user timelines')
@Controller('api/users/:id')
@ApiParam({ name: 'id', description: 'The person', format: 'uuid' })
@ApiNotFoundResponse({ description: 'User not found (unknown to this service, or a malformed id)' })
export class UserTimelineController {
  constructor(private readonly timelines: UserTimelineService) {}

  @Get('timelines')
  @ApiOperation({
    summary: "A person's timelines the caller may see, newest first",
    description: 'The person: all of theirs (drafts, private, unlisted included). Everyone else: the public, published ones.',
  })
  @ApiOkResponse({ type: [UserTimelineDto], headers: nextCursorHeaderDoc() })
  @ApiBadRequestResponse({ description: 'Bad limit or cursor, unknown query field' })
  @ApiForbiddenResponse({ description: 'This account is private (shown only to itself and its approved followers)' })
  async listUserTimelines(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query() query: PersonListQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<UserTimelineDto[]> {
    return sendPage(reply, await this.timelines.page(caller, id, query));
  }
}
