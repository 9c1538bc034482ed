import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Seals authenticator secrets at rest: AES-256-GCM under the service's key (TOTP_SECRET_KEY),
 * `v1.<iv|tag|ciphertext in base64url>`. Without a key (development) the secret is kept as
 * `plain.<secret>`; either way no answer ever carries it after set-up.
 */
export class SecretBox {
  private readonly key: Buffer | undefined;

  constructor(key?: Buffer) {
    if (key && key.length !== 32) throw new Error('The TOTP secret key must be 32 bytes');
    this.key = key;
  }

  seal(secret: string): string {
    if (!this.key) return `plain.${secret}`;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `v1.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
  }

  open(stored: string): string {
    if (stored.startsWith('plain.')) return stored.slice('plain.'.length);
    if (!stored.startsWith('v1.') || !this.key) throw new Error('An authenticator secret cannot be opened without the key it was sealed with');
    const raw = Buffer.from(stored.slice(3), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}

/** The key from configuration: 32 bytes as base64 or hex; unset, none. */
export function secretKeyFrom(value: string | undefined): Buffer | undefined {
  if (!value) return undefined;
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32) throw new Error('TOTP_SECRET_KEY must be 32 bytes, as 64 hex digits or base64');
  return key;
}
