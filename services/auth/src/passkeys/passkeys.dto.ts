import { ApiProperty } from '@nestjs/swagger';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { Transform, Type } from 'class-transformer';
import { IsObject, IsString, IsUUID, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { toCleanName } from '@timeliner/platform';
import { ProofDto } from '../two-step/two-step.dto.js';
import type { PasskeyRow } from './passkey.repository.js';

const NAME = 'Please give the passkey a name of at most 60 characters';

export class PasskeyDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ maxLength: 60 }) name: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastUsedAt: string | null;
}

export class RegistrationOptionsDto {
  @ApiProperty({ format: 'uuid', description: 'Send it back with the answer; it works once, for five minutes' }) challengeId: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'PublicKeyCredentialCreationOptionsJSON for @simplewebauthn/browser startRegistration' })
  options: PublicKeyCredentialCreationOptionsJSON;
}

export class AssertionOptionsDto {
  @ApiProperty({ format: 'uuid', description: 'Send it back with the answer; it works once, for five minutes' }) challengeId: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'PublicKeyCredentialRequestOptionsJSON for @simplewebauthn/browser startAuthentication' })
  options: PublicKeyCredentialRequestOptionsJSON;
}

export class PasskeyNameDto {
  @ApiProperty({ minLength: 1, maxLength: 60, example: 'My phone' })
  @Transform(toCleanName)
  @IsString({ message: NAME })
  @MinLength(1, { message: NAME })
  @MaxLength(60, { message: NAME })
  name: string;
}

export class RegisterPasskeyDto extends PasskeyNameDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'This passkey request has expired. Please try again.' })
  challengeId: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'RegistrationResponseJSON from @simplewebauthn/browser startRegistration' })
  @IsObject({ message: 'That passkey could not be checked. Please try again.' })
  response: RegistrationResponseJSON;
}

export class RemovePasskeyDto {
  @ApiProperty({ type: ProofDto, description: 'The password, or a passkey (this one or another)' })
  @ValidateNested()
  @Type(() => ProofDto)
  @IsObject({ message: 'Please enter your password or use one of your passkeys' })
  proof: ProofDto;
}

export const mapPasskey = (row: PasskeyRow): PasskeyDto => ({ id: row.id, name: row.name, createdAt: row.createdAt.toISOString(), lastUsedAt: row.lastUsedAt?.toISOString() ?? null });
