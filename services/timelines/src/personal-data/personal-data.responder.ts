import { type EventBus, type PersonalDataSection, servePersonalData, type Subscription } from '@timeliner/platform';
import { type PersonalDataRepository, TIMELINES_SECTIONS } from './personal-data.repository.js';

/** Answers `PersonalData.rpc('timelines')` for the person's data archive: timelines, collaborations. Queue group `timelines`. */
export function servePersonalDataOfTimelines(bus: EventBus, data: PersonalDataRepository): Promise<Subscription> {
  const sections: Record<string, PersonalDataSection> = {};
  for (const section of TIMELINES_SECTIONS) sections[section] = (userId, cursor, limit) => data.page(section, userId, cursor, limit);
  return servePersonalData(bus, 'timelines', sections);
}
