import type { EntityManager } from 'typeorm';
import { NOTIFICATION_TYPES, type NotificationType } from '../notifications/notification-kinds.js';
import { Preference } from './preference.entity.js';

export interface Channels {
  inApp: boolean;
  push: boolean;
}

export type Preferences = Record<NotificationType, Channels>;

/** Everything on until a person turns something off. */
export const DEFAULT_CHANNELS: Channels = { inApp: true, push: true };

export class PreferenceRepository {
  async channels(manager: EntityManager, userId: string, type: NotificationType): Promise<Channels> {
    const row = await manager.findOneBy(Preference, { userId, type });
    return row ? { inApp: row.inApp, push: row.push } : { ...DEFAULT_CHANNELS };
  }

  async all(manager: EntityManager, userId: string): Promise<Preferences> {
    const rows = await manager.findBy(Preference, { userId });
    const chosen = new Map(rows.map((row) => [row.type, { inApp: row.inApp, push: row.push }]));
    return Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, chosen.get(type) ?? { ...DEFAULT_CHANNELS }])) as Preferences;
  }

  async save(manager: EntityManager, userId: string, changes: Partial<Record<NotificationType, Partial<Channels>>>): Promise<void> {
    const current = await this.all(manager, userId);
    const rows = Object.entries(changes).map(([type, channels]) => ({
      userId,
      type,
      inApp: channels?.inApp ?? current[type as NotificationType].inApp,
      push: channels?.push ?? current[type as NotificationType].push,
    }));
    if (rows.length > 0) await manager.upsert(Preference, rows, ['userId', 'type']);
  }
}
