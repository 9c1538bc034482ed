import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** One e-mail the product wrote as a file (file mail adapter, `<DATA_DIR>/mail/*.eml`). */
export interface ReceivedMail {
  file: string;
  to: string;
  subject: string;
  /** The decoded text/plain part (or the whole decoded body of a single-part message). */
  text: string;
  /** The decoded text/html part, when there is one. */
  html: string | undefined;
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

/** Splits a message or MIME part into unfolded, lower-cased headers and its body. */
function splitPart(raw: string): Part {
  const normalised = raw.replace(/\r\n/g, '\n');
  const end = normalised.indexOf('\n\n');
  const head = end === -1 ? normalised : normalised.slice(0, end);
  const body = end === -1 ? '' : normalised.slice(end + 2);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = part.body
      .replace(/=\n/g, '')
      .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return part.body;
}

/** The leaf parts of a message, depth first. */
function leaves(part: Part): Part[] {
  const type = part.headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!/^multipart\//i.test(type) || !boundary) return [part];
  const pieces = part.body.split(`--${boundary}`).slice(1);
  return pieces.filter((piece) => !piece.startsWith('--')).flatMap((piece) => leaves(splitPart(piece.replace(/^\n/, ''))));
}

export function parseMail(file: string, raw: string): ReceivedMail {
  const message = splitPart(raw);
  const parts = leaves(message);
  const of = (type: RegExp) => parts.find((part) => type.test(part.headers.get('content-type') ?? 'text/plain'));
  const plain = of(/^text\/plain/i) ?? parts[0]!;
  const html = of(/^text\/html/i);
  return {
    file,
    to: message.headers.get('to') ?? '',
    subject: message.headers.get('subject') ?? '',
    text: decodeBody(plain),
    html: html ? decodeBody(html) : undefined,
  };
}

async function readMailbox(dataDir: string): Promise<ReceivedMail[]> {
  const dir = path.join(dataDir, 'mail');
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.eml')).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return Promise.all(names.map(async (name) => parseMail(name, await readFile(path.join(dir, name), 'utf8'))));
}

const addressedTo = (mail: ReceivedMail, address: string) => mail.to.toLowerCase().includes(address.toLowerCase());

/**
 * Waits for an e-mail to `address` that is not among `seen` (file names), and returns the newest
 * such. Polls the mailbox directory; the product writes each file atomically.
 */
export async function waitForMail(dataDir: string, address: string, options: { seen?: readonly string[]; subject?: string; timeoutMs?: number } = {}): Promise<ReceivedMail> {
  const seen = new Set(options.seen ?? []);
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  for (;;) {
    // With a subject, only that e-mail: one sent a moment earlier for another reason can land later.
    const found = (await readMailbox(dataDir)).filter((mail) => addressedTo(mail, address) && !seen.has(mail.file) && (options.subject === undefined || mail.subject === options.subject));
    if (found.length > 0) return found[found.length - 1]!;
    if (Date.now() > deadline) throw new Error(`no e-mail to ${address}${options.subject ? ` with the subject "${options.subject}"` : ''} arrived in ${dataDir}/mail`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The file names of the e-mails to `address` so far, to tell a later one from them. */
export async function mailsTo(dataDir: string, address: string): Promise<string[]> {
  return (await readMailbox(dataDir)).filter((mail) => addressedTo(mail, address)).map((mail) => mail.file);
}

/** The invitation link (`<origin>/invite/<token>`) in an invitation e-mail's text. */
export function inviteLinkIn(mail: ReceivedMail): string {
  const link = /(https?:\/\/[^\s"<>]+\/invite\/[A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/.exec(mail.text)?.[1];
  if (!link) throw new Error(`no invitation link in ${mail.file}:\n${mail.text}`);
  return link;
}
