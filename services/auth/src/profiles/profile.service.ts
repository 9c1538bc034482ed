import { NotFoundException } from '@nestjs/common';
import type { SignedInCaller } from '@timeliner/platform';
import type { UserRepository } from '../users/user.repository.js';
import type { BlockedProfilesRepository } from './blocked-profiles.repository.js';
import { mapProfile, type ProfileDto } from './profile.dto.js';

/** People's public profiles with their counts. */
export class ProfileService {
  constructor(
    private readonly users: UserRepository,
    private readonly blocks: BlockedProfilesRepository,
  ) {}

  async profile(caller: SignedInCaller, id: string): Promise<ProfileDto> {
    const user = await this.users.findProfile(id);
    // A blocked pair (either way) see each other's profile as absent; so does everyone that of a person waiting to be deleted.
    if (!user || (user.id !== caller.userId && ((await this.blocks.blockedEitherWay(caller.userId, user.id)) || (await this.users.deletionPending(user.id))))) throw new NotFoundException('User not found');
    return mapProfile(user, caller.userId);
  }
}
