import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiServiceUnavailableResponse, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { type Caller, CurrentCaller, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { VideoLikeStatusDto } from './video-like.dto.js';
import { VideoLikeService } from './video-like.service.js';

@ApiTags('reactions')
@Controller('api/videos/:id')
@ApiParam({ name: 'id', description: 'The video (its media id)', format: 'uuid' })
@ApiNotFoundResponse({ description: "Video not found (unknown, deleted, or its timeline not visible to the caller)" })
@ApiServiceUnavailableResponse({ description: 'Timelines service unavailable' })
export class VideoLikeController {
  constructor(private readonly likes: VideoLikeService) {}

  @Get('liked')
  @ApiOperation({ summary: 'Whether the caller likes a video, and its like count' })
  @ApiOkResponse({ type: VideoLikeStatusDto })
  videoLiked(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<VideoLikeStatusDto> {
    return this.likes.liked(caller, id);
  }

  @Post('like')
  @HttpCode(200)
  @SignedIn()
  @ApiOperation({ summary: 'Like a video (liking it again changes nothing)' })
  @ApiOkResponse({ type: VideoLikeStatusDto })
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  likeVideo(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<VideoLikeStatusDto> {
    return this.likes.setLike(caller, id, true);
  }

  @Delete('like')
  @SignedIn()
  @ApiOperation({ summary: 'Take back a like of a video (no like, no change)' })
  @ApiOkResponse({ type: VideoLikeStatusDto })
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  unlikeVideo(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<VideoLikeStatusDto> {
    return this.likes.setLike(caller, id, false);
  }
}
