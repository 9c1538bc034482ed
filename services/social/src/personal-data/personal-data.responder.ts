import { type EventBus, type PersonalDataSection, servePersonalData, type Subscription } from '@timeliner/platform';
import { type PersonalDataRepository, SOCIAL_SECTIONS } from './personal-data.repository.js';

/**
 * Answers `PersonalData.rpc('social')` for the person's data archive: posts, comments, likes,
 * bookmarks, collections, following, followers. Queue group `social`.
 */
export function servePersonalDataOfSocial(bus: EventBus, data: PersonalDataRepository): Promise<Subscription> {
  const sections: Record<string, PersonalDataSection> = {};
  for (const section of SOCIAL_SECTIONS) sections[section] = (userId, cursor, limit) => data.page(section, userId, cursor, limit);
  return servePersonalData(bus, 'social', sections);
}
