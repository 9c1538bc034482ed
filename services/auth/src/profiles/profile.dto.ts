import { ApiProperty } from '@nestjs/swagger';
import type { User } from '../users/user.entity.js';

/** What anyone signed in may see of a user (no e-mail). */
export class ProfileDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() username: string;
  @ApiProperty() displayName: string;
  @ApiProperty({ type: String, nullable: true }) avatar: string | null;
  @ApiProperty({ type: String, nullable: true }) bio: string | null;
  @ApiProperty({ type: String, nullable: true }) location: string | null;
  @ApiProperty({ type: String, nullable: true }) website: string | null;
  @ApiProperty() isVerified: boolean;
  @ApiProperty() isPrivate: boolean;
  @ApiProperty({ format: 'date-time' }) joinedAt: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Timelines the caller may see: all of them for the person themself, the public published ones for anyone else (kept from the timelines service)',
  })
  timelinesCount: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Kept from the social service (follows)' }) followersCount: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Kept from the social service (follows)' }) followingCount: number;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: "Likes on the person's posts and timelines that still exist (kept from the social and timelines services; likes on single videos are not counted)",
  })
  totalLikes: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: "Views of the person's timelines that still exist (kept from the timelines service)" })
  totalViews: number;
}

/** `viewerId`: who asks; the person themself also counts their private and unpublished timelines. */
export const mapProfile = (user: User, viewerId: string): ProfileDto => ({
  id: user.id,
  username: user.username,
  displayName: user.displayName,
  avatar: user.avatar,
  bio: user.bio,
  location: user.location,
  website: user.website,
  isVerified: user.isVerified,
  isPrivate: user.isPrivate,
  joinedAt: user.joinedAt.toISOString(),
  createdAt: user.createdAt.toISOString(),
  timelinesCount: viewerId === user.id ? user.timelinesCount : user.publicTimelinesCount,
  followersCount: user.followersCount,
  followingCount: user.followingCount,
  totalLikes: user.totalLikes,
  totalViews: user.totalViews,
});
