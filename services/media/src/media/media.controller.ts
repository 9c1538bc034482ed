import { BadRequestException, Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse, ApiBody, ApiConsumes, ApiCreatedResponse, ApiForbiddenResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse,
  ApiOperation, ApiParam, ApiPayloadTooLargeResponse, ApiProduces, ApiQuery, ApiResponse, ApiServiceUnavailableResponse, ApiTags, ApiUnauthorizedResponse,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { SimpleUploads } from '../uploads/simple-uploads.js';
import { sendObject } from './http-objects.js';
import { MediaItemDto, OrderByTimestampDto, ReorderVideosDto, UpdateSensitiveDto, UpdateTitleDto, VideoDto } from './media.dto.js';
import { MediaService } from './media.service.js';

const HIDDEN = 'Anonymous callers who may not see the timeline are asked to sign in';
const NOT_VISIBLE = 'Timeline not found (or not visible to the caller)';
/** The signed-URL token of the object routes (see media/media-urls.ts). */
const ACCESS = {
  name: 'access',
  required: false,
  description: 'The token of a signed URL, as the lists and videos carry it: opens this media without the bearer header until it expires (then 401 Link expired).',
} as const;
const ApiAccess = () => ApiQuery(ACCESS);
/** A repeated or malformed parameter is an invalid token, never an absent one. */
const token = (access: unknown): string | undefined => (access === undefined ? undefined : typeof access === 'string' ? access : '');
const HIDDEN_OR_EXPIRED = `${HIDDEN}; an invalid or expired access token: Link expired`;

/** Closes the connection when an upload is refused before its body was read, instead of reading gigabytes to throw away. */
async function refusingUnreadBody<T>(request: FastifyRequest, reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!request.raw.readableEnded) void reply.header('connection', 'close');
    throw err;
  }
}

const fileForm = (field: string, description: string) => ({
  schema: { type: 'object', required: [field], properties: { [field]: { type: 'string', format: 'binary', description } } },
});

@ApiTags('media')
@Controller('api/timelines/:id')
@ApiParam({ name: 'id', description: 'The timeline', format: 'uuid' })
@ApiUnauthorizedResponse({ description: HIDDEN })
@ApiNotFoundResponse({ description: NOT_VISIBLE })
@ApiServiceUnavailableResponse({ description: 'Timelines service unavailable' })
export class TimelineMediaController {
  constructor(
    private readonly media: MediaService,
    private readonly uploads: SimpleUploads,
  ) {}

  @Get('videos')
  @ApiOperation({ summary: "A timeline's videos, in timeline order", description: 'With include=images, its images too (mediaType image), in their places: what the studio manages and the player shows.' })
  @ApiQuery({ name: 'include', required: false, enum: ['images'], description: 'images: list the images among the videos' })
  @ApiOkResponse({ type: [VideoDto] })
  @ApiBadRequestResponse({ description: 'include must be images' })
  listTimelineVideos(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query('include') include: unknown): Promise<VideoDto[]> {
    if (include !== undefined && include !== 'images') throw new BadRequestException('include must be images');
    return this.media.listVideos(caller, id, include === 'images');
  }

  @Get('media')
  @ApiOperation({ summary: "A timeline's videos and images, in timeline order" })
  @ApiOkResponse({ type: [MediaItemDto] })
  listTimelineMedia(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<MediaItemDto[]> {
    return this.media.listMedia(caller, id);
  }

  @Post('videos')
  @HttpCode(201)
  @SignedIn()
  @ApiOperation({ summary: 'Upload one video (or image) in one request', description: 'Streams to storage. For large files and unreliable networks use the resumable /api/uploads (tus 1.0).' })
  @ApiConsumes('multipart/form-data')
  @ApiBody(fileForm('video', 'The file; at most 2 GB'))
  @ApiCreatedResponse({ type: VideoDto })
  @ApiBadRequestResponse({ description: "No file in the 'video' field" })
  @ApiForbiddenResponse({ description: 'Only the owner and editors upload' })
  @ApiPayloadTooLargeResponse({ description: 'File too large. Maximum size is 2GB. Or: Not enough storage space (the body carries remainingBytes, quotaBytes, usedBytes)' })
  @ApiUnsupportedMediaTypeResponse({ description: 'Invalid file type. Only video and image files are supported. Received: {type} for {name}' })
  async uploadTimelineVideo(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<VideoDto> {
    return this.media.videoDto(await refusingUnreadBody(request, reply, () => this.uploads.upload(caller, id, 'video', request)));
  }

  @Post('media')
  @HttpCode(201)
  @SignedIn()
  @ApiOperation({ summary: 'Upload one image (or video) in one request', description: 'Streams to storage; same rules as POST /api/timelines/{id}/videos.' })
  @ApiConsumes('multipart/form-data')
  @ApiBody(fileForm('media', 'The file; at most 2 GB'))
  @ApiCreatedResponse({ type: MediaItemDto })
  @ApiBadRequestResponse({ description: "No file in the 'media' field" })
  @ApiForbiddenResponse({ description: 'Only the owner and editors upload' })
  @ApiPayloadTooLargeResponse({ description: 'File too large. Maximum size is 2GB. Or: Not enough storage space (the body carries remainingBytes, quotaBytes, usedBytes)' })
  @ApiUnsupportedMediaTypeResponse({ description: 'Invalid file type. Only video and image files are supported. Received: {type} for {name}' })
  async uploadTimelineMedia(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<MediaItemDto> {
    return this.media.mediaItemDto(await refusingUnreadBody(request, reply, () => this.uploads.upload(caller, id, 'media', request)));
  }

  @Post('videos/reorder')
  @HttpCode(200)
  @SignedIn()
  @ApiOperation({ summary: "Puts the timeline's videos (and images) in the given order", description: 'videoIds names every video, the images keeping their places, or every video and image. Answers the videos.' })
  @ApiOkResponse({ type: [VideoDto] })
  @ApiBadRequestResponse({ description: "videoIds is neither exactly the timeline's videos nor exactly its videos and images" })
  @ApiForbiddenResponse({ description: 'Only the owner and editors reorder' })
  reorderTimelineVideos(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Body() dto: ReorderVideosDto): Promise<VideoDto[]> {
    return this.media.reorder(caller, id, dto.videoIds);
  }

  @Post('videos/order-by-timestamp')
  @HttpCode(200)
  @SignedIn()
  @ApiOperation({ summary: 'Orders the videos and images by upload time or recording time, oldest first; answers the videos in the new order' })
  @ApiOkResponse({ type: [VideoDto] })
  @ApiBadRequestResponse({ description: 'orderType is not upload or created' })
  @ApiForbiddenResponse({ description: 'Only the owner and editors reorder' })
  orderTimelineVideosByTimestamp(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Body() dto: OrderByTimestampDto): Promise<VideoDto[]> {
    return this.media.orderByTimestamp(caller, id, dto.orderType);
  }
}

@ApiTags('media')
@Controller('api/videos/:id')
@ApiParam({ name: 'id', description: 'The video (or image)', format: 'uuid' })
@ApiUnauthorizedResponse({ description: HIDDEN })
@ApiNotFoundResponse({ description: 'Video not found (or not visible to the caller)' })
@ApiServiceUnavailableResponse({ description: 'Timelines service unavailable' })
export class VideoController {
  constructor(private readonly media: MediaService) {}

  @Patch('title')
  @SignedIn()
  @ApiOperation({ summary: 'Renames a video' })
  @ApiOkResponse({ type: VideoDto })
  @ApiBadRequestResponse({ description: 'Title is required' })
  @ApiForbiddenResponse({ description: 'Only the owner and editors rename' })
  updateVideoTitle(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Body() dto: UpdateTitleDto): Promise<VideoDto> {
    return this.media.updateTitle(caller, id, dto.title);
  }

  @Patch('sensitive')
  @SignedIn()
  @ApiOperation({ summary: 'Marks a video (or image) sensitive, or not', description: 'Viewers then see a blurred cover with Show first. A mark by the moderators stays.' })
  @ApiOkResponse({ type: VideoDto })
  @ApiBadRequestResponse({ description: 'Sensitive must be true or false' })
  @ApiForbiddenResponse({ description: 'Only the owner and editors mark media' })
  updateVideoSensitive(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Body() dto: UpdateSensitiveDto): Promise<VideoDto> {
    return this.media.updateSensitive(caller, id, dto.sensitive);
  }

  @Delete()
  @HttpCode(204)
  @SignedIn()
  @ApiOperation({ summary: 'Deletes a video (or image) and everything stored for it' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiForbiddenResponse({ description: 'Only the owner and editors delete' })
  async deleteVideo(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<void> {
    await this.media.remove(caller, id);
  }

  @Get('stream')
  @ApiOperation({ summary: 'The original file', description: 'Honours Range (206, 416), If-Range and If-None-Match.' })
  @ApiAccess()
  @ApiUnauthorizedResponse({ description: HIDDEN_OR_EXPIRED })
  @ApiProduces('video/*', 'image/*')
  @ApiOkResponse({ description: 'The whole file' })
  @ApiResponse({ status: 206, description: 'The requested byte range' })
  @ApiResponse({ status: 416, description: 'Range not satisfiable' })
  async streamVideo(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query('access') access: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await sendObject(this.media, await this.media.original(caller, id, token(access)), request, reply);
  }

  @Get('hls/:file')
  @ApiOperation({ summary: 'HLS playlists and segments', description: 'master.m3u8, per-rendition playlists, .ts/.m4s segments and .mp4 init segments, as the worker writes them.' })
  @ApiAccess()
  @ApiUnauthorizedResponse({ description: HIDDEN_OR_EXPIRED })
  @ApiParam({ name: 'file', description: 'A playlist or segment name, e.g. master.m3u8' })
  @ApiProduces('application/vnd.apple.mpegurl', 'video/mp2t', 'video/iso.segment', 'video/mp4')
  @ApiOkResponse({ description: 'The playlist or segment' })
  async videoHlsFile(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('file') file: string,
    @Query('access') access: unknown,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await sendObject(this.media, await this.media.hls(caller, id, file, undefined, token(access)), request, reply);
  }

  @Get('hls/:rendition/:file')
  @ApiOperation({ summary: 'A rendition playlist or segment', description: 'The master playlist lists each rendition as `<height>p/index.m3u8`; its segments sit beside it.' })
  @ApiAccess()
  @ApiUnauthorizedResponse({ description: HIDDEN_OR_EXPIRED })
  @ApiParam({ name: 'rendition', description: 'A rendition folder, e.g. 360p' })
  @ApiParam({ name: 'file', description: 'A playlist or segment name, e.g. index.m3u8' })
  @ApiProduces('application/vnd.apple.mpegurl', 'video/mp2t', 'video/iso.segment', 'video/mp4')
  @ApiOkResponse({ description: 'The playlist or segment' })
  async videoHlsRenditionFile(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('rendition') rendition: string,
    @Param('file') file: string,
    @Query('access') access: unknown,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await sendObject(this.media, await this.media.hls(caller, id, file, rendition, token(access)), request, reply);
  }

  @Get('thumbnail')
  @ApiOperation({ summary: 'The 160x90 JPEG thumbnail, once processing made it' })
  @ApiAccess()
  @ApiUnauthorizedResponse({ description: HIDDEN_OR_EXPIRED })
  @ApiProduces('image/jpeg')
  @ApiOkResponse({ description: 'The thumbnail' })
  async videoThumbnail(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query('access') access: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await sendObject(this.media, await this.media.thumbnail(caller, id, token(access)), request, reply);
  }
}

@ApiTags('media')
@Controller('api/media/:id')
@ApiParam({ name: 'id', description: 'The image', format: 'uuid' })
@ApiUnauthorizedResponse({ description: HIDDEN })
@ApiNotFoundResponse({ description: 'Not found (or not visible to the caller)' })
@ApiServiceUnavailableResponse({ description: 'Timelines service unavailable' })
export class MediaFileController {
  constructor(private readonly media: MediaService) {}

  @Get('file')
  @ApiOperation({ summary: 'An image', description: 'The web-size rendition once processing made it, else the original; ?variant=original for the original.' })
  @ApiAccess()
  @ApiUnauthorizedResponse({ description: HIDDEN_OR_EXPIRED })
  @ApiQuery({ name: 'variant', required: false, enum: ['web', 'original'] })
  @ApiProduces('image/*')
  @ApiOkResponse({ description: 'The image' })
  @ApiBadRequestResponse({ description: 'Unknown variant' })
  async mediaFile(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Query('variant') variant: string | undefined,
    @Query('access') access: unknown,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if (variant !== undefined && variant !== 'web' && variant !== 'original') {
      throw new BadRequestException('variant must be web or original');
    }
    await sendObject(this.media, await this.media.image(caller, id, variant ?? 'web', token(access)), request, reply);
  }
}
