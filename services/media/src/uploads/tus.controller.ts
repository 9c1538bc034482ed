import { Controller, Delete, Head, HttpCode, HttpException, HttpStatus, Options, Param, Patch, Post, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiForbiddenResponse, ApiGoneResponse, ApiHeader, ApiNoContentResponse, ApiNotFoundResponse,
  ApiOkResponse, ApiOperation, ApiParam, ApiPayloadTooLargeResponse, ApiResponse, ApiTags, ApiUnauthorizedResponse, ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller } from '@timeliner/platform';
import { MAX_UPLOAD_BYTES } from './file-acceptance.js';
import { TUS_EXTENSIONS, TUS_VERSION, TusUploads, type UploadState } from './tus-uploads.js';

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
};

/** Every tus request but OPTIONS names the protocol version; this server speaks 1.0.0 only (412 otherwise). */
function requireTusVersion(request: FastifyRequest, reply: FastifyReply): void {
  if (header(request, 'tus-resumable') !== TUS_VERSION) {
    void reply.header('tus-version', TUS_VERSION);
    throw new HttpException(`Tus-Resumable must be ${TUS_VERSION}`, HttpStatus.PRECONDITION_FAILED);
  }
}

const tusResumable = { name: 'Tus-Resumable', required: true, description: 'Always 1.0.0' };
/** The media item the upload becomes, named on creation (and on HEAD, for a client resuming): `/ws` processing messages carry this id. */
export const UPLOAD_MEDIA_ID_HEADER = 'upload-media-id';
const uploadMediaId = {
  description: 'The id of the media item the finished upload becomes; the realtime messages about its processing (video_upload_started, progress, completion, errors) carry this id',
  schema: { type: 'string', format: 'uuid' },
} as const;
const progress = (reply: FastifyReply, state: UploadState) =>
  reply.header('upload-offset', String(state.offset)).header('upload-expires', state.expiresAt.toUTCString());

/**
 * Resumable uploads, tus 1.0.0 with the creation, termination and expiration extensions, so
 * tus-js-client and Uppy work unchanged. Metadata names the timeline (`timelineId`), the file
 * (`filename`) and its type (`filetype`). The finished upload becomes a media item of the
 * timeline, processed like any other. See tus-uploads.ts for how bytes are stored.
 */
@ApiTags('uploads')
@Controller('api/uploads')
export class TusController {
  constructor(private readonly uploads: TusUploads) {}

  @Options()
  @HttpCode(204)
  @ApiOperation({ summary: 'tus discovery: version, extensions and maximum size' })
  @ApiNoContentResponse({
    description: 'Supported',
    headers: {
      'Tus-Version': { description: '1.0.0', schema: { type: 'string' } },
      'Tus-Extension': { description: TUS_EXTENSIONS, schema: { type: 'string' } },
      'Tus-Max-Size': { description: String(MAX_UPLOAD_BYTES), schema: { type: 'integer' } },
    },
  })
  discoverUploads(@Res({ passthrough: true }) reply: FastifyReply): void {
    void reply.header('tus-version', TUS_VERSION).header('tus-extension', TUS_EXTENSIONS).header('tus-max-size', String(MAX_UPLOAD_BYTES));
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Starts a resumable upload into a timeline (owner and editors)' })
  @ApiHeader(tusResumable)
  @ApiHeader({ name: 'Upload-Length', required: true, description: 'Size of the whole file in bytes; at most 2 GiB' })
  @ApiHeader({ name: 'Upload-Metadata', required: true, description: 'tus metadata: timelineId, filename and filetype, values base64' })
  @ApiCreatedResponse({
    description: 'Created',
    headers: { Location: { description: '/api/uploads/{id}', schema: { type: 'string' } }, 'Upload-Media-Id': uploadMediaId, 'Upload-Expires': { schema: { type: 'string' } } },
  })
  @ApiBadRequestResponse({ description: 'Missing or malformed Upload-Length or Upload-Metadata' })
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  @ApiForbiddenResponse({ description: 'Only the owner and editors upload' })
  @ApiNotFoundResponse({ description: 'Timeline not found (or not visible to the caller)' })
  @ApiPayloadTooLargeResponse({
    description: 'File too large. Maximum size is 2GB. Or: Not enough storage space for Upload-Length (the body carries remainingBytes, quotaBytes, usedBytes)',
    headers: { 'Storage-Remaining-Bytes': { description: 'With the storage-space refusal: the bytes the caller may still upload', schema: { type: 'integer' } } },
  })
  @ApiUnsupportedMediaTypeResponse({ description: 'Invalid file type. Only video and image files are supported. Received: {type} for {name}' })
  @ApiResponse({ status: 412, description: 'Tus-Resumable is not 1.0.0' })
  @ApiResponse({ status: 429, description: 'Too many uploads in progress' })
  async createUpload(@CurrentCaller() caller: Caller, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    requireTusVersion(request, reply);
    const state = await this.uploads.create(caller, {
      uploadLength: header(request, 'upload-length'),
      deferLength: header(request, 'upload-defer-length'),
      metadata: header(request, 'upload-metadata'),
    });
    void reply.header('location', `/api/uploads/${state.id}`).header(UPLOAD_MEDIA_ID_HEADER, state.mediaId).header('upload-expires', state.expiresAt.toUTCString());
  }

  @Head(':id')
  @HttpCode(200)
  @ApiOperation({ summary: 'How much of an upload is stored (its creator only)' })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiHeader(tusResumable)
  @ApiOkResponse({
    description: 'Upload-Offset and Upload-Length',
    headers: { 'Upload-Offset': { schema: { type: 'integer' } }, 'Upload-Length': { schema: { type: 'integer' } }, 'Upload-Media-Id': uploadMediaId },
  })
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  @ApiNotFoundResponse({ description: 'No such upload of the caller' })
  @ApiGoneResponse({ description: 'The upload expired' })
  async uploadOffset(@CurrentCaller() caller: Caller, @Param('id') id: string, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    void reply.header('cache-control', 'no-store');
    requireTusVersion(request, reply);
    const state = await this.uploads.head(caller, id);
    void progress(reply, state).header('upload-length', String(state.length)).header(UPLOAD_MEDIA_ID_HEADER, state.mediaId);
  }

  @Patch(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Appends bytes at Upload-Offset (its creator only)', description: 'Body: application/offset+octet-stream. The last byte finishes the upload: the media item is created and processing starts.' })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiHeader(tusResumable)
  @ApiHeader({ name: 'Upload-Offset', required: true, description: 'Must equal the stored offset' })
  @ApiNoContentResponse({ description: 'Stored; Upload-Offset is the new offset', headers: { 'Upload-Offset': { schema: { type: 'integer' } }, 'Upload-Expires': { schema: { type: 'string' } } } })
  @ApiBadRequestResponse({ description: 'Missing or malformed Upload-Offset' })
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  @ApiForbiddenResponse({ description: 'The caller may no longer upload to the timeline' })
  @ApiNotFoundResponse({ description: 'No such upload of the caller' })
  @ApiConflictResponse({ description: 'Upload-Offset does not match' })
  @ApiGoneResponse({ description: 'The upload expired' })
  @ApiPayloadTooLargeResponse({ description: 'The chunk runs past Upload-Length' })
  @ApiUnsupportedMediaTypeResponse({ description: 'Wrong Content-Type, or content that is not a video or image (the upload is terminated)' })
  async appendUpload(@CurrentCaller() caller: Caller, @Param('id') id: string, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    try {
      requireTusVersion(request, reply);
      const state = await this.uploads.patch(caller, id, {
        contentType: header(request, 'content-type'),
        uploadOffset: header(request, 'upload-offset'),
        contentLength: header(request, 'content-length'),
      }, request.body as Readable);
      void progress(reply, state);
    } catch (err) {
      // Refused before the body was read: close rather than read what will be thrown away.
      if (!request.raw.readableEnded) void reply.header('connection', 'close');
      throw err;
    }
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Terminates an upload and discards its bytes (its creator only)' })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiHeader(tusResumable)
  @ApiNoContentResponse({ description: 'Terminated' })
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  @ApiNotFoundResponse({ description: 'No such upload of the caller' })
  @ApiGoneResponse({ description: 'The upload expired' })
  async terminateUpload(@CurrentCaller() caller: Caller, @Param('id') id: string, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    requireTusVersion(request, reply);
    await this.uploads.terminate(caller, id);
  }
}
