import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import { DEFAULT_MAIL_FROM, type MailLogger, type MailMessage, type MailSender, type SentMail } from './mail-sender.port.js';

/** Orders the files of one process by the order their messages were sent, even within a millisecond. */
let sequence = 0;

export interface FileMailSenderOptions {
  /** Directory the `.eml` files go to; created if missing. */
  dir: string;
  from?: string;
  logger?: MailLogger;
}

/**
 * Writes each message as a complete RFC 822 file (`<dir>/<time>-<sequence>-<random>.eml`, headers and MIME
 * body exactly as an SMTP relay would receive them) and logs its path. Lets the product run and
 * be tested without a mail server: open the file in any mail client, or read the link from it.
 */
export class FileMailSender implements MailSender {
  readonly kind = 'file' as const;
  private readonly composer = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });

  constructor(private readonly options: FileMailSenderOptions) {}

  async send(message: MailMessage): Promise<SentMail> {
    const info = await this.composer.sendMail({
      from: this.options.from ?? DEFAULT_MAIL_FROM,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html !== undefined ? { html: message.html } : {}),
    });
    const raw = info.message;
    if (!Buffer.isBuffer(raw)) throw new Error('The mail composer did not produce a message');
    await mkdir(this.options.dir, { recursive: true });
    sequence += 1;
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${String(sequence).padStart(6, '0')}-${randomBytes(4).toString('hex')}.eml`;
    const path = join(this.options.dir, name);
    // Written under a temporary name first, so a reader never sees half a message.
    await writeFile(`${path}.tmp`, raw, { mode: 0o600 });
    await rename(`${path}.tmp`, path);
    this.options.logger?.info({ to: message.to, path }, 'e-mail written to file (no MAIL_URL set)');
    return { messageId: info.messageId, path };
  }

  async close(): Promise<void> {
    this.composer.close();
  }
}
