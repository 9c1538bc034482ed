import { IsIn, IsOptional, Matches, ValidateIf } from 'class-validator';
import { BaseConfig } from '@timeliner/platform';
import { DEFAULT_VAPID_SUBJECT } from './push/vapid.js';

export class NotificationsConfig extends BaseConfig {
  /**
   * VAPID keys (RFC 8292, URL-safe base64, as `npx web-push generate-vapid-keys` prints them).
   * Every replica must share them. Unset: generated once and kept under DATA_DIR (one replica).
   */
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{87}$/, { message: 'must be a P-256 public key in URL-safe base64 (87 characters)' })
  VAPID_PUBLIC_KEY: string | undefined = undefined;

  @ValidateIf((c: NotificationsConfig) => c.VAPID_PUBLIC_KEY !== undefined || c.VAPID_PRIVATE_KEY !== undefined)
  @Matches(/^[A-Za-z0-9_-]{43}$/, { message: 'must be set with VAPID_PUBLIC_KEY: a P-256 private key in URL-safe base64 (43 characters)' })
  VAPID_PRIVATE_KEY: string | undefined = undefined;

  /** The operator's contact, shown to push services. */
  @Matches(/^(mailto:.+@.+|https:\/\/.+)$/, { message: 'must be a mailto: or https: address' })
  VAPID_SUBJECT: string = DEFAULT_VAPID_SUBJECT;

  /** Tests only: accept push endpoints on the loopback interface. */
  @IsIn(['true', 'false'])
  PUSH_ALLOW_LOOPBACK: 'true' | 'false' = 'false';
}
