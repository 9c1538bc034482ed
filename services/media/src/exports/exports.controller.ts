import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse, ApiBadRequestResponse, ApiInternalServerErrorResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiQuery,
  ApiServiceUnavailableResponse, ApiTags, ApiTooManyRequestsResponse, ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { sendObject } from '../media/http-objects.js';
import { MediaService } from '../media/media.service.js';
import { ExportDownloads, startsDownload } from './export-downloads.js';
import { ExportPendingDto, ExportRequestDto, ExportResultDto, ExportStatusDto } from './exports.dto.js';
import { ExportsService } from './exports.service.js';

@ApiTags('media')
@Controller('api/timelines/:id')
@ApiParam({ name: 'id', description: 'The timeline', format: 'uuid' })
export class TimelineExportController {
  constructor(private readonly exports: ExportsService) {}

  @Post('export')
  @HttpCode(200)
  @SignedIn()
  @ApiOperation({
    summary: "Exports the timeline's completed videos, in timeline order, as one MP4",
    description:
      'For a signed-in caller who may view the timeline. The worker concatenates the originals (H.264/AAC, at most 1080p, 30 fps); the request waits for it '
      + '(up to 25 s by default) and answers the signed download URL. When the wait runs out it answers 202 with the export id and status: the export '
      + 'goes on, and GET /api/exports/{id} tells when it is done and where to download it.',
  })
  @ApiOkResponse({ type: ExportResultDto })
  @ApiAcceptedResponse({ type: ExportPendingDto, description: 'Still being made when the wait ran out' })
  @ApiBadRequestResponse({ description: 'No videos to export; bad options' })
  @ApiUnauthorizedResponse({ description: 'Authentication required' })
  @ApiNotFoundResponse({ description: 'Timeline not found (or not visible to the caller)' })
  @ApiTooManyRequestsResponse({
    description: 'Exports in progress per person or timeline; or past the new exports one person may start an hour or a day (EXPORTS_PER_HOUR, EXPORTS_PER_DAY: a fresh export of the same videos is handed out again and does not count)',
    headers: { 'Retry-After': { description: 'With the hour or day limit: seconds until one more may start', schema: { type: 'integer' } } },
  })
  @ApiInternalServerErrorResponse({ description: 'Export failed: <reason>' })
  @ApiServiceUnavailableResponse({ description: 'Timelines service or work queue unavailable' })
  async exportTimeline(
    @CurrentCaller() caller: SignedInCaller,
    @Param('id') id: string,
    @Body() dto: ExportRequestDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ExportResultDto | ExportPendingDto> {
    const gone = new AbortController();
    const onClose = () => gone.abort();
    request.raw.once('close', onClose);
    try {
      const answer = await this.exports.create(caller, id, dto ?? {}, gone.signal);
      void reply.status(answer.status);
      return answer.body;
    } finally {
      request.raw.off('close', onClose);
    }
  }
}

@ApiTags('media')
@Controller('api/exports/:id')
@ApiParam({ name: 'id', description: 'The export', format: 'uuid' })
export class ExportFileController {
  constructor(
    private readonly exports: ExportsService,
    private readonly media: MediaService,
    private readonly downloads: ExportDownloads,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Where an export stands: queued, processing, completed (with its download URL) or error (with the reason)' })
  @ApiOkResponse({ type: ExportStatusDto })
  @ApiUnauthorizedResponse({ description: 'Anonymous callers who may not see the timeline are asked to sign in' })
  @ApiNotFoundResponse({ description: 'Export not found (or not visible to the caller)' })
  @ApiServiceUnavailableResponse({ description: 'Timelines service unavailable' })
  exportStatus(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<ExportStatusDto> {
    return this.exports.status(caller, id);
  }

  @Get('file')
  @ApiOperation({
    summary: 'An export\'s MP4, as an attachment named from the timeline title',
    description: 'A GET from the first byte (the whole file, or a range from 0 to the end) counts as a download in the timeline\'s analytics.',
  })
  @ApiQuery({ name: 'access', required: false, description: 'The token of the signed downloadUrl: opens the file without the bearer header until it expires (then 401 Link expired).' })
  @ApiProduces('video/mp4')
  @ApiOkResponse({ description: 'The MP4 (Range supported)' })
  @ApiUnauthorizedResponse({ description: 'Anonymous callers who may not see the timeline are asked to sign in; an invalid or expired access token: Link expired' })
  @ApiNotFoundResponse({ description: 'Export not found (or not visible to the caller), or not ready' })
  @ApiServiceUnavailableResponse({ description: 'Timelines service unavailable' })
  async exportFile(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query('access') access: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const token = access === undefined ? undefined : typeof access === 'string' ? access : '';
    const served = await this.exports.file(caller, id, token);
    if (startsDownload(request, served)) await this.downloads.record(caller, id);
    await sendObject(this.media, served, request, reply);
  }
}
