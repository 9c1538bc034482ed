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
  @ApiProperty() timelinesCount: number;
  @ApiProperty() followersCount: number;
  @ApiProperty() followingCount: number;
  @ApiProperty() totalLikes: number;
  @ApiProperty() totalViews: number;
}

export const mapProfile = (user: User): ProfileDto => ({
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
  timelinesCount: user.timelinesCount,
  followersCount: user.followersCount,
  followingCount: user.followingCount,
  totalLikes: user.totalLikes,
  totalViews: user.totalViews,
});
