import { NotFoundException } from '@nestjs/common';
import { isUuid, type SignedInCaller, type Transactions } from '@timeliner/platform';
import type { NotificationEntry } from '@timeliner/proto';
import type { NotificationOutlet } from './notifier.js';
import type { EntryPage, NotificationRepository } from './notification.repository.js';
import { DEFAULT_PAGE_SIZE, type NotificationPageQueryDto, type UnreadCountDto } from './notification.dto.js';

const NOT_FOUND = 'Notification not found';

/** A person's own notifications: nobody else's is ever found. */
export class NotificationService {
  constructor(
    private readonly transactions: Transactions,
    private readonly notifications: NotificationRepository,
    private readonly outlet: NotificationOutlet,
  ) {}

  async unreadCount(caller: SignedInCaller): Promise<UnreadCountDto> {
    return { count: await this.notifications.unreadCount(caller.userId) };
  }

  list(caller: SignedInCaller, query: NotificationPageQueryDto): Promise<EntryPage> {
    return this.notifications.page(caller.userId, query.limit ?? DEFAULT_PAGE_SIZE, query.cursor);
  }

  /** The person's other tabs and devices clear their badge too (told through the outbox, with the change). */
  async markRead(caller: SignedInCaller, id: string): Promise<NotificationEntry> {
    if (!isUuid(id)) throw new NotFoundException(NOT_FOUND);
    return this.transactions.run(async (manager) => {
      if (!(await this.notifications.markRead(manager, caller.userId, id.toLowerCase()))) throw new NotFoundException(NOT_FOUND);
      await this.outlet.countChanged(manager, caller.userId);
      return (await this.notifications.entry(manager, caller.userId, id.toLowerCase()))!;
    });
  }

  async markAllRead(caller: SignedInCaller): Promise<UnreadCountDto> {
    await this.transactions.run(async (manager) => {
      if ((await this.notifications.markAllRead(manager, caller.userId)) > 0) await this.outlet.countChanged(manager, caller.userId);
    });
    return { count: 0 };
  }
}
