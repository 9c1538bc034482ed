import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse, ApiConflictResponse, ApiForbiddenResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam,
  ApiServiceUnavailableResponse, ApiTags, ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { type Caller, CurrentCaller, nextCursorHeaderDoc, sendPage, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { PageQueryDto } from '../pagination/page-queries.js';
import { CommentSettingsDto, HeldCommentDto, UpdateCommentSettingsDto } from './comment-controls.dto.js';
import { APPROVE_BEFORE_PINNING, CommentControlsService, OWN_COMMENTS_ONLY, POST_MODERATOR_ONLY, TIMELINE_MODERATORS_ONLY } from './comment-controls.service.js';

const COMMENT_ID = { name: 'commentId', description: 'The comment', format: 'uuid' } as const;
const SIGNED_OUT = { description: 'Not signed in' } as const;

@ApiTags('comments')
@Controller('api/timelines/:id')
@ApiParam({ name: 'id', description: 'The timeline', format: 'uuid' })
@ApiNotFoundResponse({ description: 'Timeline not found (or not visible to the caller), or comment not found' })
@ApiServiceUnavailableResponse({ description: 'Timelines service unavailable' })
export class TimelineCommentControlsController {
  constructor(private readonly controls: CommentControlsService) {}

  @Get('comment-settings')
  @ApiOperation({ summary: "Who may comment on a timeline (and its videos), whether the caller may and why not; its moderators also get the held-comment settings and count" })
  @ApiOkResponse({ type: CommentSettingsDto })
  timelineCommentSettings(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<CommentSettingsDto> {
    return this.controls.timelineSettings(caller, id);
  }

  @Put('comment-settings')
  @SignedIn()
  @ApiOperation({ summary: "Change a timeline's comment settings (its owner and editors)" })
  @ApiOkResponse({ type: CommentSettingsDto })
  @ApiBadRequestResponse({ description: 'Unknown choice, bad word list or day count, unknown field' })
  @ApiForbiddenResponse({ description: TIMELINE_MODERATORS_ONLY })
  @ApiUnauthorizedResponse(SIGNED_OUT)
  updateTimelineCommentSettings(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Body() dto: UpdateCommentSettingsDto): Promise<CommentSettingsDto> {
    return this.controls.updateTimelineSettings(caller, id, dto);
  }

  @Get('held-comments')
  @SignedIn()
  @ApiOperation({ summary: "A timeline's approval queue: comments on it and on its videos waiting for approval, oldest first (its owner and editors)" })
  @ApiOkResponse({ type: [HeldCommentDto], headers: nextCursorHeaderDoc() })
  @ApiForbiddenResponse({ description: TIMELINE_MODERATORS_ONLY })
  @ApiUnauthorizedResponse(SIGNED_OUT)
  async listTimelineHeldComments(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Query() query: PageQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<HeldCommentDto[]> {
    return sendPage(reply, await this.controls.timelineHeld(caller, id, query));
  }

  @Delete('comments/:commentId')
  @HttpCode(204)
  @SignedIn()
  @ApiParam(COMMENT_ID)
  @ApiOperation({ summary: 'Delete a comment on a timeline: your own, or any as its owner or an editor' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiForbiddenResponse({ description: OWN_COMMENTS_ONLY })
  @ApiUnauthorizedResponse(SIGNED_OUT)
  deleteTimelineComment(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Param('commentId') commentId: string): Promise<void> {
    return this.controls.deleteTimelineComment(caller, id, commentId);
  }

  @Post('comments/:commentId/approve')
  @HttpCode(204)
  @SignedIn()
  @ApiParam(COMMENT_ID)
  @ApiOperation({ summary: 'Approve a held comment on a timeline: everyone sees it from now on, and its author is told (approving it again changes nothing)' })
  @ApiNoContentResponse({ description: 'Approved' })
  @ApiForbiddenResponse({ description: TIMELINE_MODERATORS_ONLY })
  @ApiUnauthorizedResponse(SIGNED_OUT)
  approveTimelineComment(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Param('commentId') commentId: string): Promise<void> {
    return this.controls.approveTimelineComment(caller, id, commentId);
  }

  @Put('comments/:commentId/pin')
  @HttpCode(204)
  @SignedIn()
  @ApiParam(COMMENT_ID)
  @ApiOperation({ summary: "Pin a comment first on the timeline's comments, in place of the one pinned before" })
  @ApiNoContentResponse({ description: 'Pinned' })
  @ApiConflictResponse({ description: APPROVE_BEFORE_PINNING })
  @ApiForbiddenResponse({ description: TIMELINE_MODERATORS_ONLY })
  @ApiUnauthorizedResponse(SIGNED_OUT)
  pinTimelineComment(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Param('commentId') commentId: string): Promise<void> {
    return this.controls.pinTimelineComment(caller, id, commentId, true);
  }

  @Delete('comments/:commentId/pin')
  @HttpCode(204)
  @SignedIn()
  @ApiParam(COMMENT_ID)
  @ApiOperation({ summary: 'Unpin a comment on a timeline (not pinned: no change)' })
  @ApiNoContentResponse({ description: 'Not pinned' })
  @ApiForbiddenResponse({ description: TIMELINE_MODERATORS_ONLY })
  @ApiUnauthorizedResponse(SIGNED_OUT)
  unpinTimelineComment(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Param('commentId') commentId: string): Promise<void> {
    return this.controls.pinTimelineComment(caller, id, commentId, false);
  }
}

@ApiTags('comments')
@Controller('api/videos/:id/comments/:commentId')
@ApiParam({ name: 'id', description: 'The video (its media id)', format: 'uuid' })
@ApiParam(COMMENT_ID)
@ApiNotFoundResponse({ description: "Video not found (or its timeline not visible to the caller), or comment not found" })
@ApiForbiddenResponse({ description: TIMELINE_MODERATORS_ONLY })
@ApiUnauthorizedResponse(SIGNED_OUT)
@ApiServiceUnavailableResponse({ description: 'Timelines service unavailable' })
export class VideoCommentControlsController {
  constructor(private readonly controls: CommentControlsService) {}

  @Post('approve')
  @HttpCode(204)
  @SignedIn()
  @ApiOperation({ summary: "Approve a held comment or reply on a video (the timeline's owner and editors)" })
  @ApiNoContentResponse({ description: 'Approved' })
  approveVideoComment(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Param('commentId') commentId: string): Promise<void> {
    return this.controls.approveVideoComment(caller, id, commentId);
  }

  @Put('pin')
  @HttpCode(204)
  @SignedIn()
  @ApiOperation({ summary: "Pin a comment first on the video's comments, in place of the one pinned before" })
  @ApiNoContentResponse({ description: 'Pinned' })
  @ApiConflictResponse({ description: APPROVE_BEFORE_PINNING })
  @ApiBadRequestResponse({ description: 'A reply cannot be pinned' })
  pinVideoComment(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Param('commentId') commentId: string): Promise<void> {
    return this.controls.pinVideoComment(caller, id, commentId, true);
  }

  @Delete('pin')
  @HttpCode(204)
  @SignedIn()
  @ApiOperation({ summary: 'Unpin a comment on a video (not pinned: no change)' })
  @ApiNoContentResponse({ description: 'Not pinned' })
  unpinVideoComment(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Param('commentId') commentId: string): Promise<void> {
    return this.controls.pinVideoComment(caller, id, commentId, false);
  }
}

@ApiTags('posts')
@Controller('api/posts/:id')
@ApiParam({ name: 'id', description: 'The post', format: 'uuid' })
@ApiNotFoundResponse({ description: 'Post not found, or comment not found' })
export class PostCommentControlsController {
  constructor(private readonly controls: CommentControlsService) {}

  @Get('comment-settings')
  @ApiOperation({ summary: 'Who may comment on a post, whether the caller may and why not; its author also gets the held-comment settings and count' })
  @ApiOkResponse({ type: CommentSettingsDto })
  postCommentSettings(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<CommentSettingsDto> {
    return this.controls.postSettings(caller, id);
  }

  @Put('comment-settings')
  @SignedIn()
  @ApiOperation({ summary: "Change a post's comment settings (its author)" })
  @ApiOkResponse({ type: CommentSettingsDto })
  @ApiBadRequestResponse({ description: 'Unknown choice, bad word list or day count, unknown field' })
  @ApiForbiddenResponse({ description: POST_MODERATOR_ONLY })
  @ApiUnauthorizedResponse(SIGNED_OUT)
  updatePostCommentSettings(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Body() dto: UpdateCommentSettingsDto): Promise<CommentSettingsDto> {
    return this.controls.updatePostSettings(caller, id, dto);
  }

  @Get('held-comments')
  @SignedIn()
  @ApiOperation({ summary: "A post's approval queue, oldest first (its author)" })
  @ApiOkResponse({ type: [HeldCommentDto], headers: nextCursorHeaderDoc() })
  @ApiForbiddenResponse({ description: POST_MODERATOR_ONLY })
  @ApiUnauthorizedResponse(SIGNED_OUT)
  async listPostHeldComments(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Query() query: PageQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<HeldCommentDto[]> {
    return sendPage(reply, await this.controls.postHeld(caller, id, query));
  }

  @Delete('comments/:commentId')
  @HttpCode(204)
  @SignedIn()
  @ApiParam(COMMENT_ID)
  @ApiOperation({ summary: 'Delete a comment on a post: your own, or any on your post' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiForbiddenResponse({ description: OWN_COMMENTS_ONLY })
  @ApiUnauthorizedResponse(SIGNED_OUT)
  deletePostComment(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Param('commentId') commentId: string): Promise<void> {
    return this.controls.deletePostComment(caller, id, commentId);
  }

  @Post('comments/:commentId/approve')
  @HttpCode(204)
  @SignedIn()
  @ApiParam(COMMENT_ID)
  @ApiOperation({ summary: 'Approve a held comment on your post (approving it again changes nothing)' })
  @ApiNoContentResponse({ description: 'Approved' })
  @ApiForbiddenResponse({ description: POST_MODERATOR_ONLY })
  @ApiUnauthorizedResponse(SIGNED_OUT)
  approvePostComment(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Param('commentId') commentId: string): Promise<void> {
    return this.controls.approvePostComment(caller, id, commentId);
  }

  @Put('comments/:commentId/pin')
  @HttpCode(204)
  @SignedIn()
  @ApiParam(COMMENT_ID)
  @ApiOperation({ summary: "Pin a comment first on your post's comments, in place of the one pinned before" })
  @ApiNoContentResponse({ description: 'Pinned' })
  @ApiConflictResponse({ description: APPROVE_BEFORE_PINNING })
  @ApiForbiddenResponse({ description: POST_MODERATOR_ONLY })
  @ApiUnauthorizedResponse(SIGNED_OUT)
  pinPostComment(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Param('commentId') commentId: string): Promise<void> {
    return this.controls.pinPostComment(caller, id, commentId, true);
  }

  @Delete('comments/:commentId/pin')
  @HttpCode(204)
  @SignedIn()
  @ApiParam(COMMENT_ID)
  @ApiOperation({ summary: 'Unpin a comment on your post (not pinned: no change)' })
  @ApiNoContentResponse({ description: 'Not pinned' })
  @ApiForbiddenResponse({ description: POST_MODERATOR_ONLY })
  @ApiUnauthorizedResponse(SIGNED_OUT)
  unpinPostComment(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Param('commentId') commentId: string): Promise<void> {
    return this.controls.pinPostComment(caller, id, commentId, false);
  }
}
