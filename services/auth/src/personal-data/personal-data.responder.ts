import { type EventBus, servePersonalData, type Subscription } from '@timeliner/platform';
import type { PersonalDataRepository } from './personal-data.repository.js';

/** Answers `PersonalData.rpc('auth')` for the person's data archive: `profile`. Queue group `auth`. */
export function servePersonalDataOfAuth(bus: EventBus, data: PersonalDataRepository): Promise<Subscription> {
  return servePersonalData(bus, 'auth', { profile: (userId, cursor, limit) => data.profile(userId, cursor, limit) });
}
