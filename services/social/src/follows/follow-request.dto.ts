import { ApiProperty } from '@nestjs/swagger';
import { UNKNOWN_USER } from '../users/user-names.js';
import { mapUserSummary } from '../users/user-summary.dto.js';
import type { FollowRequestRow } from './follow-request.repository.js';

/** One person waiting for the caller to answer their follow request. */
export class FollowRequestDto {
  @ApiProperty({ format: 'uuid', description: 'The person who asked' }) id: string;
  @ApiProperty({ description: 'Empty until this service has heard of the person' }) username: string;
  @ApiProperty({ description: `"${UNKNOWN_USER}" until this service has heard of the person` }) displayName: string;
  @ApiProperty({ type: String, nullable: true }) avatar: string | null;
  @ApiProperty({ format: 'date-time', description: 'When they asked' }) requestedAt: string;
}

/** How many follow requests wait for the caller. */
export class FollowRequestCountDto {
  @ApiProperty({ type: 'integer', minimum: 0 }) count: number;
}

export const mapFollowRequest = (row: FollowRequestRow): FollowRequestDto => {
  const { id, username, displayName, avatar } = mapUserSummary(row.requesterId, row.person);
  return { id, username, displayName, avatar, requestedAt: row.requestedAt.toISOString() };
};
