import { createTransport } from 'nodemailer';
import { DEFAULT_MAIL_FROM, type MailLogger, type MailMessage, type MailSender, type SentMail } from './mail-sender.port.js';

export interface SmtpMailSenderOptions {
  /**
   * `smtp://user:pass@host:587` (STARTTLS when the server offers it) or `smtps://user:pass@host:465`
   * (TLS from the start). Query options are passed to the transport, e.g. `?tls.rejectUnauthorized=false`
   * for a relay with a self-signed certificate.
   */
  url: string;
  from?: string;
  logger?: MailLogger;
  /** Connection, greeting and socket timeouts; default 10 s, so a dead relay fails a request quickly. */
  timeoutMs?: number;
}

/** Sends through an SMTP relay with nodemailer (pooled connections). */
export class SmtpMailSender implements MailSender {
  readonly kind = 'smtp' as const;
  private readonly transport;

  constructor(private readonly options: SmtpMailSenderOptions) {
    const url = new URL(options.url);
    if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new Error('MAIL_URL must be an smtp:// or smtps:// URL');
    const timeout = options.timeoutMs ?? 10_000;
    // Settings in the URL win over these.
    this.transport = createTransport(
      { url: options.url, pool: true, maxConnections: 3, connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout },
      { from: options.from ?? DEFAULT_MAIL_FROM },
    );
  }

  async send(message: MailMessage): Promise<SentMail> {
    const info = await this.transport.sendMail({
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html !== undefined ? { html: message.html } : {}),
    });
    // The recipient is personal data; the message id is enough to find it in the relay's logs.
    this.options.logger?.info({ messageId: info.messageId }, 'e-mail sent');
    return { messageId: info.messageId };
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
