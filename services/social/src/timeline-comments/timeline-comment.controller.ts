import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiCreatedResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { type Caller, CurrentCaller, nextCursorHeaderDoc, sendPage, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { PageQueryDto } from '../pagination/page-queries.js';
import { CreateTimelineCommentDto, TimelineCommentDto } from './timeline-comment.dto.js';
import { TimelineCommentService } from './timeline-comment.service.js';

@ApiTags('comments')
@Controller('api/timelines/:id/comments')
@ApiParam({ name: 'id', description: 'The timeline', format: 'uuid' })
@ApiNotFoundResponse({ description: 'Timeline not found (or not visible to the caller)' })
@ApiServiceUnavailableResponse({ description: 'Timelines service unavailable' })
export class TimelineCommentController {
  constructor(private readonly comments: TimelineCommentService) {}

  @Get()
  @ApiOperation({ summary: "A timeline's comments, newest first" })
  @ApiOkResponse({ type: [TimelineCommentDto], headers: nextCursorHeaderDoc() })
  async listTimelineComments(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query() query: PageQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<TimelineCommentDto[]> {
    return sendPage(reply, await this.comments.list(caller, id, query));
  }

  @Post()
  @HttpCode(201)
  @SignedIn()
  @ApiOperation({ summary: 'Comment on a timeline as the signed-in user' })
  @ApiCreatedResponse({ type: TimelineCommentDto })
  @ApiBadRequestResponse({ description: 'Empty or too long comment, bad timestamp, unknown field' })
  @ApiForbiddenResponse({ description: 'The body names another user as author' })
  addTimelineComment(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Body() dto: CreateTimelineCommentDto): Promise<TimelineCommentDto> {
    return this.comments.create(caller, id, dto);
  }
}
