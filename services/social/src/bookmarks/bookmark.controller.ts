import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentCaller, nextCursorHeaderDoc, sendPage, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { PageQueryDto } from '../pagination/page-queries.js';
import { BookmarkDto } from './bookmark.dto.js';
import { BookmarkService } from './bookmark.service.js';

@ApiTags('bookmarks')
@Controller('api/bookmarks')
export class BookmarkController {
  constructor(private readonly bookmarks: BookmarkService) {}

  @Get()
  @SignedIn()
  @ApiOperation({ summary: "The caller's bookmarked posts and timelines, newest bookmark first (timelines they may no longer see are left out)" })
  @ApiOkResponse({ type: [BookmarkDto], headers: nextCursorHeaderDoc() })
  @ApiBadRequestResponse({ description: 'Bad limit or cursor, unknown query field' })
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  @ApiServiceUnavailableResponse({ description: 'Timelines service unavailable' })
  async listBookmarks(@CurrentCaller() caller: SignedInCaller, @Query() query: PageQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<BookmarkDto[]> {
    return sendPage(reply, await this.bookmarks.list(caller, query));
  }
}
