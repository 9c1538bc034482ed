import { BaseConfig } from '@timeliner/platform';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

export class AuthConfig extends BaseConfig {
  /** SMTP relay for account e-mails (`smtp://user:pass@host:587`, `smtps://…`); unset writes `.eml` files under DATA_DIR/mail. */
  @IsOptional()
  @Matches(/^smtps?:\/\/.+/, { message: 'must be an smtp:// or smtps:// URL' })
  MAIL_URL: string | undefined = undefined;

  /** Sender of the e-mails, e.g. `Timeliner <no-reply@example.com>`. */
  @IsOptional()
  @IsString()
  MAIL_FROM: string | undefined = undefined;

  /** Where the web app is reached, for links in e-mails; unset, the origin each request came in on. */
  @IsOptional()
  @Matches(/^https?:\/\/[^/]+$/, { message: 'must be an http(s):// origin without a path' })
  PUBLIC_ORIGIN: string | undefined = undefined;

  /** Seals the secrets of authenticator apps at rest: 32 bytes as 64 hex digits or base64. Unset, they are stored unsealed (never shown again after set-up). */
  @IsOptional()
  @Matches(/^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, { message: 'must be 32 bytes as 64 hex digits or base64' })
  TOTP_SECRET_KEY: string | undefined = undefined;

  /** How long a deletion the person asked for waits (signing in meanwhile offers to cancel it) before everything goes. */
  @IsInt()
  @Min(60)
  @Max(365 * 24 * 3600)
  ACCOUNT_DELETION_GRACE_SECONDS: number = 30 * 24 * 3600;

  /** How often accounts at the end of their grace period are looked for and deleted. */
  @IsInt()
  @Min(1)
  @Max(24 * 3600)
  ACCOUNT_PURGE_INTERVAL_SECONDS: number = 600;
}
