import { ApiProperty } from '@nestjs/swagger';
import { UNKNOWN_USER } from '../users/user-names.js';
import { mapUserSummary } from '../users/user-summary.dto.js';
import type { FollowListRow } from './follow.repository.js';

/** Spec 001: `/following` reads `isFollowing`; the counts are those of the person in the path. */
export class FollowStatusDto {
  @ApiProperty({ description: 'Whether the caller follows this person (false for anonymous callers)' }) isFollowing: boolean;
  @ApiProperty({ description: 'Whether the caller has asked to follow this private account and waits for its answer ("Requested")' }) isRequested: boolean;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'How many people follow this person' }) followersCount: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'How many people this person follows' }) followingCount: number;
}

/** One person of a followers or following list. */
export class FollowPersonDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'Empty until this service has heard of the person' }) username: string;
  @ApiProperty({ description: `"${UNKNOWN_USER}" until this service has heard of the person` }) displayName: string;
  @ApiProperty({ type: String, nullable: true }) avatar: string | null;
  @ApiProperty({ description: 'Whether the caller follows this person (false for anonymous callers)' }) isFollowing: boolean;
  @ApiProperty({ format: 'date-time', description: 'When the follow began' }) followedAt: string;
}

export const mapFollowPerson = (row: FollowListRow): FollowPersonDto => {
  const { id, username, displayName, avatar } = mapUserSummary(row.userId, row.person);
  return { id, username, displayName, avatar, isFollowing: row.isFollowing, followedAt: row.followedAt.toISOString() };
};
