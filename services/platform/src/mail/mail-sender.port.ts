/**
 * Outgoing e-mail port. Adapters: `FileMailSender` (the default: each message becomes an `.eml`
 * file a developer can open) and `SmtpMailSender` (any SMTP relay, from `MAIL_URL`).
 */
export interface MailMessage {
  /** One recipient address. */
  to: string;
  subject: string;
  /** Plain-text body; always sent, so every client can show the message. */
  text: string;
  /** Optional HTML alternative of the same content. */
  html?: string;
}

export interface SentMail {
  /** The Message-ID header of the sent message. */
  messageId: string;
  /** Where the file adapter wrote the message; absent for SMTP. */
  path?: string;
}

export interface MailSender {
  readonly kind: 'file' | 'smtp';
  /** Resolves once the message is written or accepted by the relay; rejects otherwise. */
  send(message: MailMessage): Promise<SentMail>;
  close(): Promise<void>;
}

/** The logging the mail adapters need, shaped like pino's methods. */
export interface MailLogger {
  info(obj: object, message?: string): void;
  warn(obj: object, message?: string): void;
}

export const DEFAULT_MAIL_FROM = 'Timeliner <no-reply@timeliner.local>';
