import { createHmac, timingSafeEqual } from 'node:crypto';
import { acceptedKeys, type IdentitySecret } from '../identity/identity-headers.js';

const HOUR = 3600;
const EXPIRY = /^[0-9]{1,12}$/;

const base64url = (data: string | Buffer): string => Buffer.from(data).toString('base64url');

/**
 * Short-lived signed media URLs. A `<video src>`, an `<img src>` or a link opened in a new tab
 * cannot send the bearer header, so every media URL the API hands to a caller who may view the
 * media carries `?access=<token>`, with
 *
 *   token = base64url(expiry seconds) '.' base64url(HMAC-SHA256(key, `${mediaId}:${expiry}`))
 *
 * and key = HMAC-SHA256(identitySecret, 'media-url'). The expiry is the next hour boundary plus
 * one hour (one to two hours ahead), so the URLs stay the same for an hour and cache well. A
 * token opens exactly one media id, and only until it expires.
 */
export class MediaUrlSigner {
  /** Derived from each accepted identity key, the signing one first: a URL signed before a rotation still opens. */
  private readonly keys: Buffer[];

  constructor(identitySecret: IdentitySecret, private readonly now: () => number = Date.now) {
    this.keys = acceptedKeys(identitySecret).map((secret) => createHmac('sha256', secret).update('media-url').digest());
  }

  /** Seconds since the epoch at which the URLs signed now expire. */
  expiry(): number {
    const seconds = Math.floor(this.now() / 1000);
    return (Math.floor(seconds / HOUR) + 1) * HOUR + HOUR;
  }

  private mac(mediaId: string, expiry: number, key = this.keys[0]!): Buffer {
    return createHmac('sha256', key).update(`${mediaId.toLowerCase()}:${expiry}`).digest();
  }

  token(mediaId: string, expiry = this.expiry()): string {
    return `${base64url(String(expiry))}.${base64url(this.mac(mediaId, expiry))}`;
  }

  /** `url` with the token for `mediaId` appended. */
  sign(url: string, mediaId: string, expiry = this.expiry()): string {
    return `${url}${url.includes('?') ? '&' : '?'}access=${this.token(mediaId, expiry)}`;
  }

  /** The seconds the token has left when it is a valid, unexpired token for `mediaId`; else null. */
  verify(mediaId: string, token: string): number | null {
    const parts = token.split('.');
    if (parts.length !== 2) return null;
    const [encodedExpiry, encodedMac] = parts as [string, string];
    const text = Buffer.from(encodedExpiry, 'base64url').toString('latin1');
    if (!EXPIRY.test(text) || base64url(text) !== encodedExpiry) return null;
    const expiry = Number(text);
    const given = Buffer.from(encodedMac, 'base64url');
    if (base64url(given) !== encodedMac) return null;
    const signed = this.keys.some((key) => {
      const wanted = this.mac(mediaId, expiry, key);
      return given.length === wanted.length && timingSafeEqual(given, wanted);
    });
    if (!signed) return null;
    const left = expiry - Math.floor(this.now() / 1000);
    return left > 0 ? left : null;
  }
}
