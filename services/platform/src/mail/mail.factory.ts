import { join } from 'node:path';
import { FileMailSender } from './file-mail-sender.js';
import type { MailLogger, MailSender } from './mail-sender.port.js';
import { SmtpMailSender } from './smtp-mail-sender.js';

export interface MailSenderConfig {
  /** `smtp://` or `smtps://` URL of a relay; unset means files under `<dataDir>/mail`. */
  mailUrl?: string | undefined;
  dataDir: string;
  from?: string | undefined;
  logger?: MailLogger;
}

/** SMTP when a relay is configured, else `.eml` files a developer can open. */
export function createMailSender(config: MailSenderConfig): MailSender {
  const common = { ...(config.from ? { from: config.from } : {}), ...(config.logger ? { logger: config.logger } : {}) };
  if (config.mailUrl) return new SmtpMailSender({ url: config.mailUrl, ...common });
  const dir = join(config.dataDir, 'mail');
  config.logger?.info({ dir }, 'Mail: written as .eml files (no MAIL_URL)');
  return new FileMailSender({ dir, ...common });
}
