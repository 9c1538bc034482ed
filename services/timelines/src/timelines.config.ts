import { BaseConfig } from '@timeliner/platform';
import { IsInt, IsOptional, IsString, Matches, Min } from 'class-validator';

export class TimelinesConfig extends BaseConfig {
  /** SMTP relay for invitation e-mails (`smtp://user:pass@host:587`, `smtps://…`); unset writes `.eml` files under DATA_DIR/mail. */
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

  /** Invitation e-mails (new invitations and resends) one person may send per hour; past it, 429 with Retry-After. */
  @IsInt()
  @Min(1)
  INVITATION_MAILS_PER_HOUR: number = 20;

  /** The same, per day (any 24 hours). */
  @IsInt()
  @Min(1)
  INVITATION_MAILS_PER_DAY: number = 50;

  invitationMailLimits(): { perHour: number; perDay: number } {
    return { perHour: this.INVITATION_MAILS_PER_HOUR, perDay: this.INVITATION_MAILS_PER_DAY };
  }
}
