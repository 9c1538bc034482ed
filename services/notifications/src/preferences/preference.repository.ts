import type { DataSource, EntityManager } from 'typeorm';
import { NOTIFICATION_TYPES, type NotificationType } from '../notifications/notification-kinds.js';
import { Preference } from './preference.entity.js';

export interface Channels {
  inApp: boolean;
  push: boolean;
}

export type Preferences = Record<NotificationType, Channels>;

/** Everything on until a person turns something off. */
export const DEFAULT_CHANNELS: Channels = { inApp: true, push: true };

/** A person's switches. `channels` runs in the caller's transaction (an event's); the others on their own. */
export class PreferenceRepository {
  constructor(private readonly dataSource: DataSource) {}

  async channels(manager: EntityManager, userId: string, type: NotificationType): Promise<Channels> {
    const row = await manager.findOneBy(Preference, { userId, type });
    return row ? { inApp: row.inApp, push: row.push } : { ...DEFAULT_CHANNELS };
  }

  async all(userId: string, manager: EntityManager = this.dataSource.manager): Promise<Preferences> {
    const rows = await manager.findBy(Preference, { userId });
    const chosen = new Map(rows.map((row) => [row.type, { inApp: row.inApp, push: row.push }]));
    return Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, chosen.get(type) ?? { ...DEFAULT_CHANNELS }])) as Preferences;
  }

  /** Changes the switches named, leaving the others as they are. */
  save(userId: string, changes: Partial<Record<NotificationType, Partial<Channels>>>): Promise<void> {
    return this.dataSource.transaction(async (manager) => {
      const current = await this.all(userId, manager);
      const rows = Object.entries(changes).map(([type, channels]) => ({
        userId,
        type,
        inApp: channels?.inApp ?? current[type as NotificationType].inApp,
        push: channels?.push ?? current[type as NotificationType].push,
      }));
      if (rows.length > 0) await manager.upsert(Preference, rows, ['userId', 'type']);
    });
  }
}
