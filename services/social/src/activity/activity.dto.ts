import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ACTIVITY_TYPES, type ActivityTargetType, type ActivityType } from './activity.entity.js';
import type { ActivityRow } from './activity.repository.js';

export class ActivityMetadataDto {
  @ApiPropertyOptional({ description: "The timeline's title (timeline activities)" }) timelineTitle?: string;
  @ApiPropertyOptional({ description: "The followed person's username (followed_user)" }) followedUsername?: string;
}

/** Spec 001 section 3 (Activity), with the person it belongs to. */
export class ActivityDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid', description: 'Whose activity it is' }) userId: string;
  @ApiProperty({ enum: ACTIVITY_TYPES, description: 'shared_timeline is not recorded yet: no event announces a share' }) activityType: ActivityType;
  @ApiProperty({ enum: ['timeline', 'user'] }) targetType: ActivityTargetType;
  @ApiProperty({ format: 'uuid' }) targetId: string;
  @ApiProperty({ type: ActivityMetadataDto }) metadata: ActivityMetadataDto;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

const metadataOf = (row: ActivityRow): ActivityMetadataDto => {
  if (row.targetType === 'user') return { followedUsername: row.currentUsername ?? row.metadata.followedUsername ?? '' };
  return { timelineTitle: row.currentTitle ?? row.metadata.timelineTitle ?? '' };
};

export const mapActivity = (row: ActivityRow): ActivityDto => ({
  id: row.id,
  userId: row.userId,
  activityType: row.activityType,
  targetType: row.targetType,
  targetId: row.targetId,
  metadata: metadataOf(row),
  createdAt: row.createdAt.toISOString(),
});
