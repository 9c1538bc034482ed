import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsString, Matches, MaxLength, MinLength } from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export const INVALID_EMAIL_LINK = 'This confirmation link is invalid or has expired. Please ask for a new one.';

export class ChangeEmailDto {
  @ApiProperty({ format: 'email', maxLength: 254, example: 'ada@example.org' })
  @Transform(trim)
  @IsString({ message: 'Please enter a valid email address' })
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(254, { message: 'Please enter a valid email address' })
  newEmail: string;

  @ApiProperty({ maxLength: 256 })
  @IsString({ message: 'Please enter your current password' })
  @MinLength(1, { message: 'Please enter your current password' })
  @MaxLength(256, { message: 'Please enter your current password' })
  currentPassword: string;
}

export class ChangeEmailResultDto {
  @ApiProperty({ description: 'What happens next, in plain words' }) message: string;
  @ApiProperty({ format: 'email', description: 'The address waiting for its confirmation' }) pendingEmail: string;
}

export class ConfirmEmailDto {
  @ApiProperty({ description: 'The token from the e-mailed link' })
  @IsString({ message: INVALID_EMAIL_LINK })
  @Matches(/^[A-Za-z0-9_-]{43}$/, { message: INVALID_EMAIL_LINK })
  token: string;
}

export class ConfirmEmailResultDto {
  @ApiProperty({ format: 'email', description: 'The address the account now uses' }) email: string;
}
