import { Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse, ApiBody, ApiConsumes, ApiCreatedResponse, ApiForbiddenResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation,
  ApiParam, ApiPayloadTooLargeResponse, ApiProduces, ApiQuery, ApiServiceUnavailableResponse, ApiTags, ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { CAPTION_TOO_LARGE } from './caption-format.js';
import { CaptionTrackDto } from './captions.dto.js';
import { BAD_LANGUAGE, CaptionsService, SEND_A_FILE } from './captions.service.js';

/** The multipart route of this controller (the service refuses multipart bodies elsewhere). */
export const CAPTION_UPLOAD_ROUTES = new Set(['/api/videos/:id/captions']);

const HIDDEN = 'Anonymous callers who may not see the timeline are asked to sign in';

@ApiTags('media')
@Controller('api/videos/:id/captions')
@ApiParam({ name: 'id', description: 'The video', format: 'uuid' })
@ApiUnauthorizedResponse({ description: HIDDEN })
@ApiNotFoundResponse({ description: 'Video not found (or not visible to the caller); or no captions in this language' })
@ApiServiceUnavailableResponse({ description: 'Timelines service unavailable' })
export class CaptionsController {
  constructor(private readonly captions: CaptionsService) {}

  @Get()
  @ApiOperation({ summary: "A video's caption tracks, one per language", description: 'For whoever may watch the video.' })
  @ApiOkResponse({ type: [CaptionTrackDto] })
  listVideoCaptions(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<CaptionTrackDto[]> {
    return this.captions.list(caller, id);
  }

  @Post()
  @HttpCode(201)
  @SignedIn()
  @ApiOperation({
    summary: 'Adds (or replaces) the caption track of one language',
    description:
      'A WebVTT or SRT file (UTF-8; a BOM and CRLF line ends are fine; SRT is converted to WebVTT) of at most 1 MB. Cue text keeps only <b> <i> <u> <c> <v> <lang>; any other markup is removed, its text kept. Send the language field before the file.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['language', 'file'],
      properties: { language: { type: 'string', example: 'en', description: 'BCP 47 language tag' }, file: { type: 'string', format: 'binary', description: 'The .vtt or .srt file' } },
    },
  })
  @ApiCreatedResponse({ type: CaptionTrackDto })
  @ApiBadRequestResponse({ description: `${SEND_A_FILE}; ${BAD_LANGUAGE}; or the file's fault, e.g. "Line 7: the start time "00:00:xx" is not a time like 00:01:02.500"` })
  @ApiForbiddenResponse({ description: 'Only the owner and editors add captions' })
  @ApiPayloadTooLargeResponse({ description: CAPTION_TOO_LARGE })
  async uploadVideoCaptions(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<CaptionTrackDto> {
    try {
      return await this.captions.upload(caller, id, request);
    } catch (err) {
      // Refused before the body was read: close rather than read what would be thrown away.
      if (!request.raw.readableEnded) void reply.header('connection', 'close');
      throw err;
    }
  }

  @Get(':language')
  @ApiOperation({ summary: 'One caption track as a WebVTT file', description: 'What a <track> element loads: the signed URL of the list opens it without the bearer header.' })
  @ApiParam({ name: 'language', description: 'BCP 47 language tag', example: 'en' })
  @ApiQuery({ name: 'access', required: false, description: 'The token of the signed URL the list gives' })
  @ApiQuery({ name: 'v', required: false, description: 'The revision, so a replaced track is a new URL' })
  @ApiUnauthorizedResponse({ description: `${HIDDEN}; an invalid or expired access token: Link expired` })
  @ApiProduces('text/vtt')
  @ApiOkResponse({ description: 'The WebVTT file' })
  async videoCaptionFile(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('language') language: string,
    @Query('access') access: unknown,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const token = access === undefined ? undefined : typeof access === 'string' ? access : '';
    const track = await this.captions.file(caller, id, language, token);
    void reply
      .header('content-type', 'text/vtt; charset=utf-8')
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', 'inline')
      .header('cache-control', 'private, max-age=60')
      .header('etag', `"${track.revision}"`)
      .header('last-modified', new Date(track.updatedAt).toUTCString())
      .send(track.vtt);
  }

  @Delete(':language')
  @HttpCode(204)
  @SignedIn()
  @ApiOperation({ summary: 'Removes the caption track of one language' })
  @ApiParam({ name: 'language', description: 'BCP 47 language tag', example: 'en' })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiForbiddenResponse({ description: 'Only the owner and editors remove captions' })
  async deleteVideoCaptions(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Param('language') language: string): Promise<void> {
    await this.captions.remove(caller, id, language);
  }
}
