import type { SignedInCaller } from '@timeliner/platform';
import type { DataSource } from 'typeorm';
import type { PreferencesChangeDto } from './preference.dto.js';
import type { PreferenceRepository, Preferences } from './preference.repository.js';

/** A person's own switches, nobody else's. */
export class PreferenceService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly preferences: PreferenceRepository,
  ) {}

  get(caller: SignedInCaller): Promise<Preferences> {
    return this.preferences.all(this.dataSource.manager, caller.userId);
  }

  async update(caller: SignedInCaller, change: PreferencesChangeDto): Promise<Preferences> {
    await this.dataSource.transaction((manager) => this.preferences.save(manager, caller.userId, { ...change }));
    return this.get(caller);
  }
}
