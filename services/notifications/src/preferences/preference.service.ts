import type { SignedInCaller } from '@timeliner/platform';
import type { PreferencesChangeDto } from './preference.dto.js';
import type { PreferenceRepository, Preferences } from './preference.repository.js';

/** A person's own switches, nobody else's. */
export class PreferenceService {
  constructor(private readonly preferences: PreferenceRepository) {}

  get(caller: SignedInCaller): Promise<Preferences> {
    return this.preferences.all(caller.userId);
  }

  async update(caller: SignedInCaller, change: PreferencesChangeDto): Promise<Preferences> {
    await this.preferences.save(caller.userId, { ...change });
    return this.get(caller);
  }
}
