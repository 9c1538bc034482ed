import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import webpush from 'web-push';

/** RFC 8292 application server keys (URL-safe base64) and the contact the push services see. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  /** `mailto:` or `https:` address of the operator. */
  subject: string;
}

export const DEFAULT_VAPID_SUBJECT = 'mailto:notifications@timeliner.invalid';

/**
 * Keys generated once and kept under the data directory (`notifications/vapid.json`, mode 0600),
 * so subscriptions made with the public key keep working across restarts.
 */
export async function loadOrCreateVapidKeys(dataDir: string, subject = DEFAULT_VAPID_SUBJECT): Promise<VapidKeys> {
  const file = path.join(dataDir, 'notifications', 'vapid.json');
  try {
    const stored = JSON.parse(await readFile(file, 'utf8')) as Partial<VapidKeys>;
    if (typeof stored.publicKey === 'string' && typeof stored.privateKey === 'string') return { publicKey: stored.publicKey, privateKey: stored.privateKey, subject };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const keys = webpush.generateVAPIDKeys();
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(keys), { mode: 0o600 });
  await rename(temporary, file);
  return { ...keys, subject };
}
