import type { SignedInCaller } from '@timeliner/platform';
import { mapViewingPreferences, type UpdateViewingPreferencesDto, type ViewingPreferencesDto } from './viewing-preference.dto.js';
import type { ViewingPreferenceRepository } from './viewing-preference.repository.js';

/** A person's viewing preferences, kept on the server so every device of theirs shows the same. */
export class ViewingPreferenceService {
  constructor(private readonly preferences: ViewingPreferenceRepository) {}

  async get(caller: SignedInCaller): Promise<ViewingPreferencesDto> {
    return mapViewingPreferences(await this.preferences.get(caller.userId));
  }

  async update(caller: SignedInCaller, dto: UpdateViewingPreferencesDto): Promise<ViewingPreferencesDto> {
    if (dto.alwaysShowSensitive === undefined) return this.get(caller);
    return mapViewingPreferences(await this.preferences.set(caller.userId, { alwaysShowSensitive: dto.alwaysShowSensitive }));
  }
}
