import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { NOTIFICATION_KINDS } from './notification-kinds.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 50;
const LIMIT_MESSAGE = `Limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`;

export class NotificationPageQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: 'Page size' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(MAX_PAGE_SIZE, { message: LIMIT_MESSAGE })
  limit?: number;

  @ApiPropertyOptional({ description: 'The X-Next-Cursor header of the previous page' })
  @IsOptional()
  @IsString({ message: 'Invalid cursor' })
  @MaxLength(200, { message: 'Invalid cursor' })
  cursor?: string;
}

export class UnreadCountDto {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Unread notifications (entries, a group counting once)' }) count: number;
}

export class NotificationActorDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() displayName: string;
  @ApiProperty({ description: 'Empty until this service has heard of the person' }) username: string;
  @ApiProperty({ type: String, nullable: true }) avatar: string | null;
}

export class NotificationTargetDto {
  @ApiProperty({ enum: ['post', 'timeline', 'video', 'comment', 'user', 'invitation', 'export'] }) type: string;
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The timeline the target is on' }) timelineId: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The timeline's or file's name when the activity happened" }) title: string | null;
}

export class NotificationDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: NOTIFICATION_KINDS }) kind: string;
  @ApiProperty({ type: 'integer', minimum: 1, description: 'People who acted (activities for system notifications)' }) count: number;
  @ApiProperty({ type: [NotificationActorDto], description: 'The latest three people, newest first' }) actors: NotificationActorDto[];
  @ApiProperty() read: boolean;
  @ApiProperty({ description: 'Where the notification leads in the app, e.g. /watch/{timelineId}, /profile/{userId}' }) link: string;
  @ApiProperty({ type: NotificationTargetDto }) target: NotificationTargetDto;
  @ApiProperty({ description: 'The sentence, e.g. "Ana, Ben and 12 others liked your timeline"' }) text: string;
  @ApiProperty({ format: 'date-time', description: 'The first activity' }) createdAt: string;
  @ApiProperty({ format: 'date-time', description: 'The latest activity: the list is newest first by it' }) updatedAt: string;
}
