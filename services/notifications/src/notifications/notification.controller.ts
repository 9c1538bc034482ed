import { Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentCaller, nextCursorHeaderDoc, sendPage, SignedIn, type SignedInCaller } from '@timeliner/platform';
import type { NotificationEntry } from '@timeliner/proto';
import { NotificationDto, NotificationPageQueryDto, UnreadCountDto } from './notification.dto.js';
import { NotificationService } from './notification.service.js';

@ApiTags('notifications')
@Controller('api/notifications')
@SignedIn()
export class NotificationController {
  constructor(private readonly notifications: NotificationService) {}

  @Get('unread-count')
  @ApiOperation({ summary: 'How many notifications the caller has not read (the bell polls it every 30 s)' })
  @ApiOkResponse({ type: UnreadCountDto })
  unreadCount(@CurrentCaller() caller: SignedInCaller): Promise<UnreadCountDto> {
    return this.notifications.unreadCount(caller);
  }

  @Get()
  @ApiOperation({ summary: "The caller's notifications, grouped, newest activity first" })
  @ApiOkResponse({ type: [NotificationDto], headers: nextCursorHeaderDoc() })
  @ApiBadRequestResponse({ description: 'Bad limit or cursor, unknown query field' })
  async listNotifications(@CurrentCaller() caller: SignedInCaller, @Query() query: NotificationPageQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<NotificationEntry[]> {
    return sendPage(reply, await this.notifications.list(caller, query));
  }

  @Post('read-all')
  @HttpCode(200)
  @ApiOperation({ summary: "Mark all the caller's notifications read" })
  @ApiOkResponse({ type: UnreadCountDto, description: 'The unread count after: 0' })
  markAllRead(@CurrentCaller() caller: SignedInCaller): Promise<UnreadCountDto> {
    return this.notifications.markAllRead(caller);
  }

  @Post(':id/read')
  @HttpCode(200)
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiOperation({ summary: 'Mark one notification read' })
  @ApiOkResponse({ type: NotificationDto })
  @ApiNotFoundResponse({ description: 'Notification not found (not the caller\'s, or no such id)' })
  markRead(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<NotificationEntry> {
    return this.notifications.markRead(caller, id);
  }
}
