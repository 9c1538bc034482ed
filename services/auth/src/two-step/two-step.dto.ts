import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, IsUUID, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';

const CODE = 'Please enter the 6-digit code from your app, or a recovery code';

export class TwoStepStatusDto {
  @ApiProperty({ description: 'Whether signing in with a password asks for a code from an authenticator app' }) enabled: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) enabledAt: string | null;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Recovery codes not used yet' }) recoveryCodesLeft: number;
}

export class TotpSetupDto {
  @ApiProperty({ description: 'The base32 secret, shown this once (for typing into the app)' }) secret: string;
  @ApiProperty({ description: 'The otpauth:// link the QR code carries' }) uri: string;
  @ApiProperty({ description: 'The QR code as a data: URL (SVG)' }) qrCode: string;
}

export class ConfirmTotpDto {
  @ApiProperty({ example: '123456', description: 'A code from the app, to show it is set up right' })
  @IsString({ message: 'Please enter the 6-digit code from your app' })
  @Matches(/^\s*\d{3}\s?\d{3}\s*$/, { message: 'Please enter the 6-digit code from your app' })
  code: string;
}

export class RecoveryCodesDto {
  @ApiProperty({ type: [String], description: 'Ten single-use codes, shown this once' }) recoveryCodes: string[];
}

/** A WebAuthn assertion answering a challenge (from @simplewebauthn/browser's startAuthentication). */
export class PasskeyAssertionDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'This passkey request has expired. Please try again.' })
  challengeId: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'AuthenticationResponseJSON' })
  @IsObject({ message: 'That passkey could not be checked. Please try again.' })
  response: AuthenticationResponseJSON;
}

/** Proof that it is the person themselves: the password, or one of their passkeys. */
export class ProofDto {
  @ApiPropertyOptional({ maxLength: 256 })
  @IsOptional()
  @IsString({ message: 'Please enter your password' })
  @MinLength(1, { message: 'Please enter your password' })
  @MaxLength(256, { message: 'Please enter your password' })
  password?: string;

  @ApiPropertyOptional({ type: PasskeyAssertionDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => PasskeyAssertionDto)
  passkey?: PasskeyAssertionDto;
}

export class SecondStepDto {
  @ApiProperty({ description: 'The token the sign-in answered with' })
  @IsString({ message: 'This sign-in has expired. Please sign in again.' })
  @Matches(/^[A-Za-z0-9_-]{43}$/, { message: 'This sign-in has expired. Please sign in again.' })
  token: string;

  @ApiProperty({ example: '123456', description: 'A 6-digit code from the authenticator app, or a recovery code (xxxxx-xxxxx)' })
  @IsString({ message: CODE })
  @MinLength(6, { message: CODE })
  @MaxLength(20, { message: CODE })
  code: string;
}

export class SecondStepChallengeDto {
  @ApiProperty({ description: 'Opaque token for POST /api/auth/login/second-step; it works for five minutes' }) token: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}

/** The password was right and the account asks for a second step: no session yet. */
export class SecondStepRequiredDto {
  @ApiProperty({ type: SecondStepChallengeDto }) secondStep: SecondStepChallengeDto;
}
