import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsNumber, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';

export class PushKeysDto {
  @ApiProperty({ description: "The browser's P-256 public key (65 bytes, URL-safe base64)" })
  @IsString({ message: 'keys.p256dh must be a string' })
  @Matches(/^[A-Za-z0-9_-]{86,88}={0,2}$/, { message: 'keys.p256dh must be a 65-byte P-256 key in URL-safe base64' })
  p256dh: string;

  @ApiProperty({ description: 'The 16-byte authentication secret, URL-safe base64' })
  @IsString({ message: 'keys.auth must be a string' })
  @Matches(/^[A-Za-z0-9_-]{22}={0,2}$/, { message: 'keys.auth must be 16 bytes in URL-safe base64' })
  auth: string;
}

/** `PushSubscription.toJSON()` as browsers give it. */
export class PushSubscriptionDto {
  @ApiProperty({ description: "The push service's https URL for this browser", maxLength: 2048 })
  @IsString({ message: 'endpoint must be a string' })
  @MaxLength(2048, { message: 'endpoint must be at most 2048 characters' })
  endpoint: string;

  @ApiProperty({ type: PushKeysDto })
  @IsDefined({ message: 'keys is required' })
  @ValidateNested()
  @Type(() => PushKeysDto)
  keys: PushKeysDto;

  @ApiPropertyOptional({ type: Number, nullable: true, description: 'Ignored: push services report expiry with 404/410' })
  @IsOptional()
  @IsNumber({}, { message: 'expirationTime must be a number or null' })
  expirationTime?: number | null;
}

export class PushUnsubscribeDto {
  @ApiProperty({ maxLength: 2048 })
  @IsString({ message: 'endpoint must be a string' })
  @MaxLength(2048, { message: 'endpoint must be at most 2048 characters' })
  endpoint: string;
}

export class PushSubscribedDto {
  @ApiProperty({ format: 'uuid' }) id: string;
}

export class PushKeyDto {
  @ApiProperty({ description: 'The VAPID public key (RFC 8292), URL-safe base64: PushManager.subscribe\'s applicationServerKey' }) publicKey: string;
}
