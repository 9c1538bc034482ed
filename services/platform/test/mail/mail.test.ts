import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SMTPServer } from 'smtp-server';
import { createMailSender } from '../../src/mail/mail.factory.js';
import { FileMailSender } from '../../src/mail/file-mail-sender.js';
import { SmtpMailSender } from '../../src/mail/smtp-mail-sender.js';

const message = {
  to: 'grace@example.com',
  subject: 'Ada invited you to “Analytical Engine”',
  text: 'Open https://timeliner.example/invite/abc_DEF-123 to join.',
  html: '<p>Open <a href="https://timeliner.example/invite/abc_DEF-123">the invitation</a> to join.</p>',
};

describe('FileMailSender', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'mail-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is the default, and writes an RFC 822 message under <dataDir>/mail', async () => {
    const logged: Array<{ obj: object; msg?: string }> = [];
    const logger = { info: (obj: object, msg?: string) => void logged.push({ obj, msg }), warn: () => undefined };
    const sender = createMailSender({ dataDir, logger });
    expect(sender).toBeInstanceOf(FileMailSender);

    const sent = await sender.send(message);
    expect(sent.path).toMatch(new RegExp(`^${join(dataDir, 'mail')}/.+\\.eml$`));
    expect(await readdir(join(dataDir, 'mail'))).toEqual([expect.stringMatching(/\.eml$/)]);
    expect(logged).toContainEqual(expect.objectContaining({ obj: expect.objectContaining({ path: sent.path }) }));

    const raw = await readFile(sent.path!, 'utf8');
    const [head = '', ...rest] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^From: Timeliner <no-reply@timeliner\.local>$/m);
    expect(head).toMatch(/^To: grace@example\.com$/m);
    // Non-ASCII subjects are encoded (RFC 2047), not written raw.
    expect(head).toMatch(/^Subject: =\?UTF-8\?/m);
    expect(head).toMatch(/^Date: /m);
    expect(head).toMatch(new RegExp(`^Message-ID: ${sent.messageId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    expect(head).toMatch(/^MIME-Version: 1\.0$/m);
    expect(head).toMatch(/^Content-Type: multipart\/alternative;/m);
    const body = rest.join('\r\n\r\n');
    expect(body).toContain('Content-Type: text/plain');
    expect(body).toContain('Content-Type: text/html');
    expect(body).toContain('https://timeliner.example/invite/abc_DEF-123');
  });

  it('writes a text-only message as a single part, one file per message', async () => {
    const dir = join(dataDir, 'plain');
    const sender = new FileMailSender({ dir, from: 'Studio <studio@example.com>' });
    const a = await sender.send({ to: 'a@example.com', subject: 'Plain', text: 'Hello' });
    await sender.send({ to: 'b@example.com', subject: 'Plain', text: 'Hello again' });
    expect(await readdir(dir)).toHaveLength(2);
    const raw = await readFile(a.path!, 'utf8');
    expect(raw).toMatch(/^From: Studio <studio@example\.com>$/m);
    expect(raw).toMatch(/^Content-Type: text\/plain; charset=utf-8$/m);
    expect(raw).toContain('Hello');
  });
});

interface Received {
  from: string;
  to: string[];
  user?: string;
  data: string;
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives. */
async function startSmtpServer(options: { secure: boolean }) {
  const received: Received[] = [];
  const server = new SMTPServer({
    secure: options.secure,
    // Plain smtp:// here offers no STARTTLS (its certificate would be self-signed).
    disabledCommands: options.secure ? [] : ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'mailer' && auth.password === 's3cret') return callback(null, { user: auth.username });
      return callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === 'string' ? session.user : undefined,
          data: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('SmtpMailSender', () => {
  it('delivers to a relay over smtp:// with credentials from the URL', async () => {
    const relay = await startSmtpServer({ secure: false });
    const sender = createMailSender({ mailUrl: `smtp://mailer:s3cret@127.0.0.1:${relay.port}`, dataDir: '/nonexistent', from: 'Timeliner <invites@example.com>' });
    try {
      expect(sender).toBeInstanceOf(SmtpMailSender);
      const sent = await sender.send(message);
      expect(relay.received).toHaveLength(1);
      const [mail] = relay.received;
      expect(mail).toMatchObject({ from: 'invites@example.com', to: ['grace@example.com'], user: 'mailer' });
      expect(mail!.data).toMatch(/^Subject: =\?UTF-8\?/m);
      expect(mail!.data).toContain(`Message-ID: ${sent.messageId}`);
      expect(mail!.data).toContain('https://timeliner.example/invite/abc_DEF-123');
    } finally {
      await sender.close();
      await relay.close();
    }
  });

  it('delivers over smtps:// (TLS from the start)', async () => {
    const relay = await startSmtpServer({ secure: true });
    const sender = new SmtpMailSender({ url: `smtps://mailer:s3cret@127.0.0.1:${relay.port}?tls.rejectUnauthorized=false` });
    try {
      await sender.send({ to: 'linus@example.com', subject: 'Hi', text: 'Over TLS' });
      expect(relay.received).toEqual([expect.objectContaining({ to: ['linus@example.com'], data: expect.stringContaining('Over TLS') })]);
    } finally {
      await sender.close();
      await relay.close();
    }
  });

  it('rejects when the relay refuses the credentials or cannot be reached', async () => {
    const relay = await startSmtpServer({ secure: false });
    const wrong = new SmtpMailSender({ url: `smtp://mailer:wrong@127.0.0.1:${relay.port}` });
    await expect(wrong.send(message)).rejects.toThrow(/Invalid username or password|auth/i);
    await wrong.close();
    await relay.close();

    const dead = new SmtpMailSender({ url: `smtp://127.0.0.1:${relay.port}`, timeoutMs: 2_000 });
    await expect(dead.send(message)).rejects.toThrow();
    await dead.close();
    expect(relay.received).toEqual([]);
  });

  it('refuses a URL that is not smtp:// or smtps://', () => {
    expect(() => new SmtpMailSender({ url: 'http://127.0.0.1:25' })).toThrow(/smtp:\/\/ or smtps:\/\//);
  });
});
