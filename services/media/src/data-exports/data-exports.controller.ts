import { Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse, ApiGoneResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiServiceUnavailableResponse, ApiTags,
  ApiTooManyRequestsResponse, ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { sendObject } from '../media/http-objects.js';
import { MediaService } from '../media/media.service.js';
import { DataExportDto, DataExportStateDto } from './data-exports.dto.js';
import { DataExportsService } from './data-exports.service.js';

@ApiTags('account')
@Controller('api/account/data-exports')
export class DataExportsController {
  constructor(
    private readonly exports: DataExportsService,
    private readonly media: MediaService,
  ) {}

  @Post()
  @HttpCode(202)
  @SignedIn()
  @ApiOperation({
    summary: 'Download your data: starts an archive (ZIP) of everything the caller keeps here',
    description:
      'Profile and settings, posts, timelines in order with their items, comments, likes, bookmarks, collections, follows, and the original files the caller uploaded. '
      + 'The media worker builds it; GET /api/account/data-exports tells how far it is and, once made, the download link (valid seven days, then the file is deleted). One export a day.',
  })
  @ApiAcceptedResponse({ type: DataExportDto, description: 'Queued' })
  @ApiUnauthorizedResponse({ description: 'Authentication required' })
  @ApiTooManyRequestsResponse({
    description: 'An export was started in the last 24 hours (a failed one does not count): the message says when the next may start',
    headers: { 'Retry-After': { description: 'Seconds until a new export may start', schema: { type: 'integer' } } },
  })
  @ApiServiceUnavailableResponse({ description: 'Work queue unavailable' })
  start(@CurrentCaller() caller: SignedInCaller): Promise<DataExportDto> {
    return this.exports.start(caller);
  }

  @Get()
  @SignedIn()
  @ApiOperation({ summary: "The caller's newest data export (status, phase, percent, download link and expiry) and when a new one may start" })
  @ApiOkResponse({ type: DataExportStateDto })
  @ApiUnauthorizedResponse({ description: 'Authentication required' })
  state(@CurrentCaller() caller: SignedInCaller): Promise<DataExportStateDto> {
    return this.exports.state(caller);
  }

  @Get(':id/file')
  @ApiOperation({ summary: 'The ZIP of a data export, as an attachment: for its owner, or with the token of its signed downloadUrl' })
  @ApiParam({ name: 'id', description: 'The data export', format: 'uuid' })
  @ApiQuery({ name: 'access', required: false, description: 'The token of the signed downloadUrl: opens the file without the bearer header until the export expires (then 401 Link expired).' })
  @ApiProduces('application/zip')
  @ApiOkResponse({ description: 'The ZIP (Range supported)' })
  @ApiUnauthorizedResponse({ description: 'An invalid or expired access token: Link expired' })
  @ApiNotFoundResponse({ description: "Export not found (or someone else's), or not ready" })
  @ApiGoneResponse({ description: 'The export expired and its file was deleted' })
  async file(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query('access') access: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const token = access === undefined ? undefined : typeof access === 'string' ? access : '';
    await sendObject(this.media, await this.exports.file(caller, id, token), request, reply);
  }
}
