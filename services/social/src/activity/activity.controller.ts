import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { type Caller, CurrentCaller, nextCursorHeaderDoc, sendPage } from '@timeliner/platform';
import { PersonListQueryDto } from '../pagination/page-queries.js';
import { ActivityDto } from './activity.dto.js';
import { ActivityService } from './activity.service.js';

@ApiTags('activity')
@Controller('api/users/:id')
@ApiParam({ name: 'id', description: 'The person', format: 'uuid' })
@ApiNotFoundResponse({ description: 'User not found (unknown to this service, or a malformed id)' })
export class ActivityController {
  constructor(private readonly activities: ActivityService) {}

  @Get('activity')
  @ApiOperation({
    summary: "A person's activity, newest first: timelines created, liked, bookmarked and commented on, people followed",
    description: 'The person sees all of it; others only what is about public, published timelines (and follows). A private account shows it to itself and its followers only.',
  })
  @ApiOkResponse({ type: [ActivityDto], headers: nextCursorHeaderDoc() })
  @ApiBadRequestResponse({ description: 'Bad limit or cursor, unknown query field' })
  @ApiForbiddenResponse({ description: 'This account is private (shown only to itself and its followers)' })
  async listActivity(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query() query: PersonListQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<ActivityDto[]> {
    return sendPage(reply, await this.activities.page(caller, id, query));
  }
}
