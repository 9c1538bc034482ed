import { ApiProperty } from '@nestjs/swagger';
import { displayNameOf, UNKNOWN_USER } from './user-names.js';
import type { UserRecord } from './user.entity.js';

/** The author shown beside a comment or a post (spec 000: `user {id, displayName, username, avatar}`). */
export class UserSummaryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: `"${UNKNOWN_USER}" until this service has heard of the person` }) displayName: string;
  @ApiProperty() username: string;
  @ApiProperty({ type: String, nullable: true }) avatar: string | null;
}

/** The summary of a known person, or of one the read model has not caught up with yet. */
export const mapUserSummary = (id: string, user: Pick<UserRecord, 'displayName' | 'username' | 'avatar'> | null, storedName = ''): UserSummaryDto =>
  user
    ? { id, displayName: displayNameOf(user), username: user.username, avatar: user.avatar }
    : { id, displayName: storedName || UNKNOWN_USER, username: '', avatar: null };
