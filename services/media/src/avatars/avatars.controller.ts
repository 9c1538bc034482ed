import { Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse, ApiBody, ApiConsumes, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiPayloadTooLargeResponse,
  ApiProduces, ApiProperty, ApiQuery, ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentCaller, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { AVATAR_TOO_LARGE, AvatarsService, NOT_AN_IMAGE } from './avatars.service.js';

export class UploadedAvatarDto {
  @ApiProperty({ example: '/api/users/6f1c.../avatar?v=1764000000000', description: 'Send it as `avatar` in PUT /api/auth/profile' })
  avatar: string;
  @ApiProperty({ type: 'integer' }) width: number;
  @ApiProperty({ type: 'integer' }) height: number;
  @ApiProperty({ type: 'integer', description: 'Bytes stored' }) size: number;
}

/** The multipart routes of this controller (the service refuses multipart bodies elsewhere). */
export const AVATAR_UPLOAD_ROUTES = new Set(['/api/media/avatar']);

@ApiTags('media')
@Controller()
export class AvatarsController {
  constructor(private readonly avatars: AvatarsService) {}

  @Post('api/media/avatar')
  @HttpCode(201)
  @SignedIn()
  @ApiOperation({
    summary: 'Upload a profile picture',
    description: 'A JPEG, PNG, WebP or GIF of at most 10 MB, checked by its bytes; stored as a 512 x 512 JPEG (centre square, upright, without the original\'s metadata). The picture becomes the profile\'s once its path is sent as `avatar` in PUT /api/auth/profile.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } } })
  @ApiCreatedResponse({ type: UploadedAvatarDto })
  @ApiBadRequestResponse({ description: `${NOT_AN_IMAGE}; or no file in the 'file' field` })
  @ApiPayloadTooLargeResponse({ description: AVATAR_TOO_LARGE })
  async upload(@CurrentCaller() caller: SignedInCaller, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<UploadedAvatarDto> {
    try {
      return await this.avatars.upload(caller, request);
    } catch (err) {
      // Refused before the body was read: close rather than read megabytes to throw away.
      if (!request.raw.readableEnded) void reply.header('connection', 'close');
      throw err;
    }
  }

  @Get('api/users/:id/avatar')
  @ApiOperation({ summary: "A person's profile picture", description: 'Public. With the current `v` it may be cached for a year; without it, for a minute.' })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiQuery({ name: 'v', required: false, description: 'The version from the avatar path' })
  @ApiProduces('image/jpeg')
  @ApiOkResponse({ description: 'The JPEG' })
  @ApiNotFoundResponse({ description: 'Avatar not found' })
  async avatar(
    @Param('id') id: string,
    @Query('v') v: unknown,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const avatar = await this.avatars.open(id);
    const etag = `"${avatar.version}"`;
    const current = v === String(avatar.version);
    void reply
      .header('content-type', 'image/jpeg')
      .header('x-content-type-options', 'nosniff')
      .header('cross-origin-resource-policy', 'same-site')
      .header('cache-control', current ? 'public, max-age=31536000, immutable' : 'public, max-age=60')
      .header('etag', etag)
      .header('last-modified', avatar.updatedAt.toUTCString());
    if (request.headers['if-none-match'] === etag) {
      avatar.body.destroy();
      void reply.status(304).send();
      return;
    }
    void reply.header('content-length', String(avatar.size));
    if (request.method === 'HEAD') {
      avatar.body.destroy();
      void reply.send();
      return;
    }
    await reply.send(avatar.body);
  }
}
