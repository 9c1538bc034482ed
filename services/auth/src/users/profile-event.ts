import type { MessageInitShape } from '@bufbuild/protobuf';
import type { AuthEvents } from '@timeliner/proto';
import type { User } from './user.entity.js';

type UserUpdatedInit = MessageInitShape<typeof AuthEvents.UserUpdated.schema>;

/**
 * The UserUpdated event for a profile as it now stands: every public field (blank ones as empty
 * strings) and the version the change brought it to. Consumers keep the highest version they
 * applied, so a retried older event never rolls a newer profile back.
 */
export function profileUpdated(user: User): UserUpdatedInit {
  return {
    userId: user.id,
    username: user.username,
    displayName: user.displayName,
    bio: user.bio ?? '',
    avatar: user.avatar ?? '',
    location: user.location ?? '',
    website: user.website ?? '',
    isPrivate: user.isPrivate,
    email: user.email,
    profileVersion: BigInt(user.profileVersion),
  };
}

/** A profile edit's SET clause: the changed columns and the version one up, in the same statement. */
export const nextProfileVersion = () => 'profile_version + 1';
