import { ApiProperty } from '@nestjs/swagger';
import { PageQuery } from '@timeliner/platform';
import { NOTIFICATION_KINDS } from './notification-kinds.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 50;

export class NotificationPageQueryDto extends PageQuery({ defaultLimit: DEFAULT_PAGE_SIZE, maxLimit: MAX_PAGE_SIZE }) {}

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
  @ApiProperty({ enum: ['post', 'timeline', 'video', 'comment', 'user', 'invitation', 'export', 'follow_requests', 'held_comments', 'moderation'] }) type: string;
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The timeline the target is on' }) timelineId: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The timeline's name (a timeline, an invitation), the video's file name (a video), the export's name" }) title: string | null;
}

export class NotificationDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: NOTIFICATION_KINDS, description: 'What happened (spec 001, notifications: type)' }) type: string;
  @ApiProperty({ enum: NOTIFICATION_KINDS, description: 'The same as type, under its earlier name' }) kind: string;
  @ApiProperty({ format: 'uuid', description: 'The person the notification is for (the caller)' }) userId: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The latest person who acted; null for what the system did (a video processed, an export ready)' }) actorId: string | null;
  @ApiProperty({ enum: ['post', 'timeline', 'video', 'comment', 'user', 'invitation', 'export', 'follow_requests', 'held_comments', 'moderation'], description: 'target.type' }) targetType: string;
  @ApiProperty({ format: 'uuid', description: 'target.id' }) targetId: string;
  @ApiProperty({ type: 'integer', minimum: 1, description: 'People who acted; for system notifications the activities (a timeline\'s videos processed together are one entry)' }) count: number;
  @ApiProperty({ type: [NotificationActorDto], description: 'The latest three people, newest first' }) actors: NotificationActorDto[];
  @ApiProperty() read: boolean;
  @ApiProperty({
    description: 'Where the notification leads in the app: /watch/{timelineId}, /watch/{timelineId}?video={videoId} (the player at that video), /post/{postId}, /profile/{userId}, /invite/{invitationId}, /exports/{exportId} (downloads the file)',
  })
  link: string;
  @ApiProperty({ type: NotificationTargetDto }) target: NotificationTargetDto;
  @ApiProperty({ description: 'The sentence, e.g. "Ana, Ben and 12 others liked your timeline"' }) text: string;
  @ApiProperty({ description: 'The same sentence (spec 001, notifications: message)' }) message: string;
  @ApiProperty({ format: 'date-time', description: 'The first activity' }) createdAt: string;
  @ApiProperty({ format: 'date-time', description: 'The latest activity: the list is newest first by it' }) updatedAt: string;
}
