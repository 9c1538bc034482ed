import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiServiceUnavailableResponse, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { type Caller, CurrentCaller, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { TimelineBookmarkStatusDto, TimelineLikeStatusDto } from './timeline-reaction.dto.js';
import { TimelineReactionService } from './timeline-reaction.service.js';

@ApiTags('reactions')
@Controller('api/timelines/:id')
@ApiParam({ name: 'id', description: 'The timeline', format: 'uuid' })
@ApiNotFoundResponse({ description: 'Timeline not found (or not visible to the caller)' })
@ApiServiceUnavailableResponse({ description: 'Timelines service unavailable' })
export class TimelineReactionController {
  constructor(private readonly reactions: TimelineReactionService) {}

  @Get('liked')
  @ApiOperation({ summary: "Whether the caller likes a timeline, and its like count" })
  @ApiOkResponse({ type: TimelineLikeStatusDto })
  timelineLiked(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<TimelineLikeStatusDto> {
    return this.reactions.liked(caller, id);
  }

  @Post('like')
  @HttpCode(200)
  @SignedIn()
  @ApiOperation({ summary: 'Like a timeline (liking it again changes nothing)' })
  @ApiOkResponse({ type: TimelineLikeStatusDto })
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  likeTimeline(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<TimelineLikeStatusDto> {
    return this.reactions.setLike(caller, id, true);
  }

  @Delete('like')
  @SignedIn()
  @ApiOperation({ summary: 'Take back a like of a timeline (no like, no change)' })
  @ApiOkResponse({ type: TimelineLikeStatusDto })
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  unlikeTimeline(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<TimelineLikeStatusDto> {
    return this.reactions.setLike(caller, id, false);
  }

  @Get('bookmarked')
  @ApiOperation({ summary: 'Whether the caller bookmarked a timeline' })
  @ApiOkResponse({ type: TimelineBookmarkStatusDto })
  timelineBookmarked(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<TimelineBookmarkStatusDto> {
    return this.reactions.bookmarked(caller, id);
  }

  @Post('bookmark')
  @HttpCode(200)
  @SignedIn()
  @ApiOperation({ summary: 'Bookmark a timeline (bookmarking it again changes nothing)' })
  @ApiOkResponse({ type: TimelineBookmarkStatusDto })
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  bookmarkTimeline(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<TimelineBookmarkStatusDto> {
    return this.reactions.setBookmark(caller, id, true);
  }

  @Delete('bookmark')
  @SignedIn()
  @ApiOperation({ summary: 'Remove a bookmark of a timeline (none, no change)' })
  @ApiOkResponse({ type: TimelineBookmarkStatusDto })
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  unbookmarkTimeline(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<TimelineBookmarkStatusDto> {
    return this.reactions.setBookmark(caller, id, false);
  }
}
