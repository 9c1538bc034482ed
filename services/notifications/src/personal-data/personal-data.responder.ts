import { type EventBus, servePersonalData, type Subscription } from '@timeliner/platform';
import type { PersonalDataRepository } from './personal-data.repository.js';

/** Answers `PersonalData.rpc('notifications')` for the person's data archive: `settings`. Queue group `notifications`. */
export function servePersonalDataOfNotifications(bus: EventBus, data: PersonalDataRepository): Promise<Subscription> {
  return servePersonalData(bus, 'notifications', { settings: (userId, cursor, limit) => data.settings(userId, cursor, limit) });
}
