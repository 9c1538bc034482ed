import { NotFoundException } from '@nestjs/common';
import type { SignedInCaller } from '@timeliner/platform';
import type { NotificationEntry } from '@timeliner/proto';
import type { DataSource } from 'typeorm';
import { isUuid } from '../ids.js';
import type { NotificationOutlet } from './notifier.js';
import { type EntryPage, NotificationRepository } from './notification.repository.js';
import { DEFAULT_PAGE_SIZE, type NotificationPageQueryDto, type UnreadCountDto } from './notification.dto.js';

const NOT_FOUND = 'Notification not found';

/** A person's own notifications: nobody else's is ever found. */
export class NotificationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly notifications: NotificationRepository,
    private readonly outlet: NotificationOutlet,
  ) {}

  async unreadCount(caller: SignedInCaller): Promise<UnreadCountDto> {
    return { count: await this.notifications.unreadCount(this.dataSource.manager, caller.userId) };
  }

  list(caller: SignedInCaller, query: NotificationPageQueryDto): Promise<EntryPage> {
    return this.notifications.page(this.dataSource.manager, caller.userId, query.limit ?? DEFAULT_PAGE_SIZE, query.cursor);
  }

  async markRead(caller: SignedInCaller, id: string): Promise<NotificationEntry> {
    if (!isUuid(id)) throw new NotFoundException(NOT_FOUND);
    const manager = this.dataSource.manager;
    if (!(await this.notifications.markRead(manager, caller.userId, id.toLowerCase()))) throw new NotFoundException(NOT_FOUND);
    await this.announceCount(caller.userId);
    return (await this.notifications.entry(manager, caller.userId, id.toLowerCase()))!;
  }

  async markAllRead(caller: SignedInCaller): Promise<UnreadCountDto> {
    if ((await this.notifications.markAllRead(this.dataSource.manager, caller.userId)) > 0) await this.announceCount(caller.userId);
    return { count: 0 };
  }

  /** The person's other tabs and devices clear their badge too. */
  private async announceCount(userId: string): Promise<void> {
    const manager = this.dataSource.manager;
    this.outlet.countChanged(manager, userId, await this.notifications.unreadCount(manager, userId));
  }
}
