import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsEmail, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateBy, ValidateIf } from 'class-validator';
import { isUuid, toCleanName } from '@timeliner/platform';
import { NewPassword } from '../security/common-passwords.js';
import type { User } from '../users/user.entity.js';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

// Messages are the product's own wording (spec 001 section 5); the first failing rule is shown.

export class LoginDto {
  @ApiProperty({ description: 'E-mail address or username', example: 'ada' })
  @Transform(trim)
  @IsString({ message: 'Please enter your email or username' })
  @MinLength(1, { message: 'Please enter your email or username' })
  @MaxLength(254, { message: 'Please enter your email or username' })
  login: string;

  @ApiProperty({ minLength: 6, maxLength: 256 })
  @IsString({ message: 'Password must be at least 6 characters' })
  @MinLength(6, { message: 'Password must be at least 6 characters' })
  @MaxLength(256, { message: 'Password must be at most 256 characters' })
  password: string;
}

export class RegisterDto {
  @ApiProperty({ minLength: 3, maxLength: 30, pattern: '^[A-Za-z0-9_.]+$', example: 'ada' })
  @Transform(trim)
  @IsString({ message: 'Username must be at least 3 characters' })
  @MinLength(3, { message: 'Username must be at least 3 characters' })
  @MaxLength(30, { message: 'Username must be at most 30 characters' })
  @Matches(/^[A-Za-z0-9_.]+$/, { message: 'Username can only contain letters, numbers, dots and underscores' })
  username: string;

  @ApiProperty({ format: 'email', maxLength: 254, example: 'ada@example.com' })
  @Transform(trim)
  @IsString({ message: 'Please enter a valid email address' })
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(254, { message: 'Please enter a valid email address' })
  email: string;

  @NewPassword()
  password: string;

  @ApiProperty({ minLength: 2, maxLength: 80, example: 'Ada Lovelace' })
  @Transform(toCleanName)
  @IsString({ message: 'Full name must be at least 2 characters' })
  @MinLength(2, { message: 'Full name must be at least 2 characters' })
  @MaxLength(80, { message: 'Full name must be at most 80 characters' })
  displayName: string;
}

/** An absolute http(s) link with a host and no credentials or whitespace; checked again by `URL` in the service. */
export const WEBSITE = /^https?:\/\/[^\s/?#@]+(?:[/?#][^\s]*)?$/i;

/** Images stored here, by id: a media file (or its web rendition) and a person's profile picture. */
const AVATAR_PATHS = [/^\/api\/media\/([^/]+)\/file(\?variant=web)?$/, /^\/api\/users\/([^/]+)\/avatar(\?v=\d{1,16})?$/];

/** Our own image paths only (or empty, to remove it): an avatar is shown to everyone, so it must never point elsewhere. */
export const isAvatarPath = (value: unknown): boolean =>
  typeof value === 'string' &&
  (value === '' ||
    AVATAR_PATHS.some((path) => {
      const id = path.exec(value)?.[1];
      return id !== undefined && isUuid(id);
    }));

const IsAvatarPath = (message: string) => ValidateBy({ name: 'isAvatarPath', validator: { validate: isAvatarPath } }, { message });

export class UpdateProfileDto {
  @ApiPropertyOptional({ minLength: 2, maxLength: 80 })
  @IsOptional()
  @Transform(toCleanName)
  @IsString({ message: 'Full name must be at least 2 characters' })
  @MinLength(2, { message: 'Full name must be at least 2 characters' })
  @MaxLength(80, { message: 'Full name must be at most 80 characters' })
  displayName?: string;

  @ApiPropertyOptional({ maxLength: 500, nullable: true })
  @IsOptional()
  @IsString({ message: 'Bio must be text' })
  @MaxLength(500, { message: 'Bio must be at most 500 characters' })
  bio?: string;

  @ApiPropertyOptional({
    maxLength: 2048,
    nullable: true,
    description: 'An image stored here: `/api/media/{id}/file` or `/api/users/{id}/avatar`; empty removes it. Other hosts, and paths that a browser would read as another host (`//host`, `/\\host`), are refused.',
  })
  @IsOptional()
  @IsString({ message: 'Avatar must be a URL' })
  @MaxLength(2048, { message: 'Avatar URL is too long' })
  @IsAvatarPath('Avatar must be an image uploaded to this site')
  avatar?: string;

  @ApiPropertyOptional({ maxLength: 100, nullable: true, description: 'Trimmed; empty removes it' })
  @IsOptional()
  @Transform(trim)
  @IsString({ message: 'Location must be text' })
  @MaxLength(100, { message: 'Location must be at most 100 characters' })
  location?: string;

  @ApiPropertyOptional({ maxLength: 2048, nullable: true, description: 'An http:// or https:// link, trimmed; empty removes it' })
  @IsOptional()
  @Transform(trim)
  @IsString({ message: 'Website must be a link starting with http:// or https://' })
  @MaxLength(2048, { message: 'Website must be at most 2048 characters' })
  @ValidateIf((dto: UpdateProfileDto) => dto.website !== '')
  @Matches(WEBSITE, { message: 'Website must be a link starting with http:// or https://' })
  website?: string;

  @ApiPropertyOptional({ description: 'A private account shows its activity, followers and following only to itself and its followers' })
  @IsOptional()
  @IsBoolean({ message: 'Private account must be true or false' })
  isPrivate?: boolean;
}

export class UserDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() username: string;
  @ApiProperty() displayName: string;
  @ApiProperty() email: string;
  @ApiProperty({ type: String, nullable: true }) avatar: string | null;
  @ApiProperty({ type: String, nullable: true }) bio: string | null;
  @ApiProperty({ type: String, nullable: true }) location: string | null;
  @ApiProperty({ type: String, nullable: true }) website: string | null;
  @ApiProperty() isPrivate: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Kept from the social service (follows)' }) followersCount: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Kept from the social service (follows)' }) followingCount: number;
}

export class SessionDto {
  @ApiProperty({ description: 'Opaque bearer token (256 bits)' }) token: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}

export class AuthResponseDto {
  @ApiProperty({ type: UserDto }) user: UserDto;
  @ApiProperty({ type: SessionDto }) session: SessionDto;
}

export const mapUser = (user: User): UserDto => ({
  id: user.id,
  username: user.username,
  displayName: user.displayName,
  email: user.email,
  avatar: user.avatar,
  bio: user.bio,
  location: user.location,
  website: user.website,
  isPrivate: user.isPrivate,
  createdAt: user.createdAt.toISOString(),
  followersCount: user.followersCount,
  followingCount: user.followingCount,
});
