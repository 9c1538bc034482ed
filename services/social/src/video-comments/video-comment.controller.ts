import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse, ApiCreatedResponse, ApiForbiddenResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam,
  ApiServiceUnavailableResponse, ApiTags, ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { type Caller, CurrentCaller, nextCursorHeaderDoc, sendPage, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { PageQueryDto } from '../pagination/page-queries.js';
import { CreateVideoCommentDto, CreateVideoReplyDto, VideoCommentDto } from './video-comment.dto.js';
import { VideoCommentService } from './video-comment.service.js';

@ApiTags('comments')
@Controller('api/videos/:id/comments')
@ApiParam({ name: 'id', description: 'The video (its media id)', format: 'uuid' })
@ApiNotFoundResponse({ description: 'Video not found (unknown, deleted, or its timeline not visible to the caller), or comment not found' })
@ApiServiceUnavailableResponse({ description: 'Timelines service unavailable' })
export class VideoCommentController {
  constructor(private readonly comments: VideoCommentService) {}

  @Get()
  @ApiOperation({ summary: "A video's comments, oldest first, each with its first 3 replies, its reply count and a cursor for the rest; pages count top-level comments" })
  @ApiOkResponse({ type: [VideoCommentDto], headers: nextCursorHeaderDoc() })
  async listVideoComments(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query() query: PageQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<VideoCommentDto[]> {
    return sendPage(reply, await this.comments.list(caller, id, query));
  }

  @Post()
  @HttpCode(201)
  @SignedIn()
  @ApiOperation({ summary: 'Comment on a video as the signed-in user' })
  @ApiCreatedResponse({ type: VideoCommentDto })
  @ApiBadRequestResponse({ description: "Empty or too long comment, a timelineId other than the video's, unknown field" })
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  addVideoComment(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Body() dto: CreateVideoCommentDto): Promise<VideoCommentDto> {
    return this.comments.create(caller, id, dto);
  }

  @Get(':commentId/replies')
  @ApiParam({ name: 'commentId', description: 'The top-level comment', format: 'uuid' })
  @ApiOperation({ summary: "A comment's replies, oldest first, a page at a time (the list gives the first 3 and repliesCursor for the next)" })
  @ApiOkResponse({ type: [VideoCommentDto], headers: nextCursorHeaderDoc() })
  async listVideoCommentReplies(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('commentId') commentId: string,
    @Query() query: PageQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<VideoCommentDto[]> {
    return sendPage(reply, await this.comments.replies(caller, id, commentId, query));
  }

  @Post(':commentId/replies')
  @HttpCode(201)
  @SignedIn()
  @ApiParam({ name: 'commentId', description: 'The comment replied to (a reply to a reply joins its thread)', format: 'uuid' })
  @ApiOperation({ summary: 'Reply to a comment on a video' })
  @ApiCreatedResponse({ type: VideoCommentDto })
  @ApiBadRequestResponse({ description: 'Empty or too long reply, unknown field' })
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  replyToVideoComment(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Param('commentId') commentId: string, @Body() dto: CreateVideoReplyDto): Promise<VideoCommentDto> {
    return this.comments.reply(caller, id, commentId, dto);
  }

  @Delete(':commentId')
  @HttpCode(204)
  @SignedIn()
  @ApiParam({ name: 'commentId', description: 'The comment (a top-level comment goes with its replies)', format: 'uuid' })
  @ApiOperation({ summary: 'Delete your own comment or reply' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiForbiddenResponse({ description: "Someone else's comment" })
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  deleteVideoComment(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Param('commentId') commentId: string): Promise<void> {
    return this.comments.delete(caller, id, commentId);
  }
}
