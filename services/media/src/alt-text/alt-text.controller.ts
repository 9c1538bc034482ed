import { BadRequestException, Body, Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiBadRequestResponse, ApiForbiddenResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiServiceUnavailableResponse, ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { CurrentCaller, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { VideoDto } from '../media/media.dto.js';
import { MAX_IMAGE_ALT_TEXT, MAX_VIDEO_DESCRIPTION } from './alt-text-format.js';
import { ALT_TEXT_MUST_BE_TEXT, MissingAltTextDto, UpdateAltTextDto } from './alt-text.dto.js';
import { AltTextService } from './alt-text.service.js';

const SIGN_IN = 'Authentication required';
const EDITORS = 'Only the owner and editors change alt text and descriptions';

@ApiTags('media')
@Controller('api/videos/:id/alt-text')
@ApiParam({ name: 'id', description: 'The image or video', format: 'uuid' })
@ApiUnauthorizedResponse({ description: SIGN_IN })
@ApiNotFoundResponse({ description: 'Video not found (or not visible to the caller)' })
@ApiForbiddenResponse({ description: EDITORS })
@ApiServiceUnavailableResponse({ description: 'Timelines service unavailable' })
export class AltTextController {
  constructor(private readonly altText: AltTextService) {}

  @Put()
  @SignedIn()
  @ApiOperation({ summary: "Sets an image's alt text or a video's short description", description: 'Whoever may see the item reads it in the media lists (altText).' })
  @ApiOkResponse({ type: VideoDto })
  @ApiBadRequestResponse({
    description: `${ALT_TEXT_MUST_BE_TEXT}; Alt text is required / The description is required; Alt text must be at most ${MAX_IMAGE_ALT_TEXT} characters / The description must be at most ${MAX_VIDEO_DESCRIPTION} characters; Unknown field: {name}`,
  })
  setVideoAltText(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Body() dto: UpdateAltTextDto): Promise<VideoDto> {
    return this.altText.update(caller, id, dto.altText);
  }

  @Post('later')
  @HttpCode(204)
  @SignedIn()
  @ApiOperation({ summary: '"Add later": the upload prompt for the missing alt text is not shown again for this item', description: 'It stays in the studio\'s list of items missing alt text. Nothing changes for an item that has its text.' })
  @ApiNoContentResponse({ description: 'Remembered' })
  @ApiBadRequestResponse({ description: 'Unknown field: {name} (the call takes no body)' })
  async deferVideoAltText(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Body() body: unknown): Promise<void> {
    const fields = body !== null && typeof body === 'object' ? Object.keys(body) : [];
    if (fields.length > 0) throw new BadRequestException({ message: `Unknown field: ${fields[0]}`, details: fields.map((field) => ({ field, message: `Unknown field: ${field}` })) });
    if (body !== undefined && body !== null && typeof body !== 'object') throw new BadRequestException('This call takes no body');
    await this.altText.later(caller, id);
  }
}

@ApiTags('media')
@Controller('api/timelines/:id/media/missing-alt-text')
@ApiParam({ name: 'id', description: 'The timeline', format: 'uuid' })
@ApiUnauthorizedResponse({ description: SIGN_IN })
@ApiNotFoundResponse({ description: 'Timeline not found (or not visible to the caller)' })
@ApiServiceUnavailableResponse({ description: 'Timelines service unavailable' })
export class MissingAltTextController {
  constructor(private readonly altText: AltTextService) {}

  @Get()
  @SignedIn()
  @ApiOperation({ summary: "The timeline's images and videos still missing alt text or a description (the studio's list)" })
  @ApiOkResponse({ type: MissingAltTextDto })
  @ApiForbiddenResponse({ description: 'Only the owner and editors see the list' })
  listMissingAltText(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<MissingAltTextDto> {
    return this.altText.missing(caller, id);
  }
}
