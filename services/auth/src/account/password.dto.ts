import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { NewPassword } from '../security/common-passwords.js';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class ForgotPasswordDto {
  @ApiProperty({ format: 'email', maxLength: 254, example: 'ada@example.com' })
  @Transform(trim)
  @IsString({ message: 'Please enter a valid email address' })
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(254, { message: 'Please enter a valid email address' })
  email: string;
}

export class ForgotPasswordResultDto {
  @ApiProperty({ description: 'The same words whether or not the address has an account' }) message: string;
}

export class ResetPasswordDto {
  @ApiProperty({ description: 'The token from the e-mailed link' })
  @IsString({ message: 'This reset link is invalid or has expired. Please ask for a new one.' })
  @Matches(/^[A-Za-z0-9_-]{43}$/, { message: 'This reset link is invalid or has expired. Please ask for a new one.' })
  token: string;

  @NewPassword()
  password: string;
}

export class ChangePasswordDto {
  @ApiProperty({ maxLength: 256 })
  @IsString({ message: 'Please enter your current password' })
  @MinLength(1, { message: 'Please enter your current password' })
  @MaxLength(256, { message: 'Please enter your current password' })
  currentPassword: string;

  @NewPassword()
  newPassword: string;
}

export class ChangePasswordResultDto {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Other sessions that were signed out' }) signedOutSessions: number;
}
