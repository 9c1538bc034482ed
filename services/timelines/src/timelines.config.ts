import { BaseConfig } from '@timeliner/platform';
import { IsOptional, IsString, Matches } from 'class-validator';

export class TimelinesConfig extends BaseConfig {
  /** SMTP relay for invitation e-mails (`smtp://user:pass@host:587`, `smtps://…`); unset writes `.eml` files under DATA_DIR/mail. */
  @IsOptional()
  @Matches(/^smtps?:\/\/.+/, { message: 'must be an smtp:// or smtps:// URL' })
  MAIL_URL: string | undefined = undefined;

  /** Sender of the e-mails, e.g. `Timeliner <no-reply@example.com>`. */
  @IsOptional()
  @IsString()
  MAIL_FROM: string | undefined = undefined;

  /** Where the web app is reached, for links in e-mails. */
  @Matches(/^https?:\/\/[^/]+$/, { message: 'must be an http(s):// origin without a path' })
  PUBLIC_ORIGIN: string = 'http://localhost:8080';
}
