import { createHmac, timingSafeEqual } from 'node:crypto';
import { acceptedKeys, type IdentitySecret } from '../identity/identity-headers.js';

const HOUR = 3600;

/** How long a viewer's access to a timeline, once confirmed, stands for its signed media links (seconds). */
export const MEDIA_ACCESS_RECHECK_SECONDS = 30;
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
 *
 * A token for media on a timeline also names the viewer it was handed to (`''` for a signed-out
 * one): `base64url(expiry) '.' base64url(viewer) '.' base64url(HMAC(key, `${mediaId}:${expiry}:${viewer}`))`.
 * The media service asks again, at most every {@link MEDIA_ACCESS_RECHECK_SECONDS}, whether that
 * viewer may still see the timeline, so a link of content someone has lost access to (a private
 * account they no longer follow, a timeline made private) stops working within a minute while
 * the URL itself, and so playback, stays the same.
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

  private mac(mediaId: string, expiry: number, key = this.keys[0]!, viewer?: string): Buffer {
    return createHmac('sha256', key).update(`${mediaId.toLowerCase()}:${expiry}${viewer === undefined ? '' : `:${viewer}`}`).digest();
  }

  token(mediaId: string, expiry = this.expiry(), viewer?: string): string {
    if (viewer === undefined) return `${base64url(String(expiry))}.${base64url(this.mac(mediaId, expiry))}`;
    const who = viewer.toLowerCase();
    return `${base64url(String(expiry))}.${base64url(who)}.${base64url(this.mac(mediaId, expiry, this.keys[0], who))}`;
  }

  /** `url` with the token for `mediaId` appended; with `viewer`, a token that names who it was handed to. */
  sign(url: string, mediaId: string, expiry = this.expiry(), viewer?: string): string {
    return `${url}${url.includes('?') ? '&' : '?'}access=${this.token(mediaId, expiry, viewer)}`;
  }

  /**
   * Like {@link verify}, with the viewer the token names: `''` for a signed-out viewer, undefined
   * for a token that names nobody (exports, links signed before viewers were named).
   */
  verifyFor(mediaId: string, token: string): { secondsLeft: number; viewer?: string } | null {
    const parts = token.split('.');
    if (parts.length === 2) {
      const secondsLeft = this.verify(mediaId, token);
      return secondsLeft === null ? null : { secondsLeft };
    }
    if (parts.length !== 3) return null;
    const [encodedExpiry, encodedViewer, encodedMac] = parts as [string, string, string];
    const viewer = Buffer.from(encodedViewer, 'base64url').toString('latin1');
    if (base64url(viewer) !== encodedViewer || !/^[0-9a-f-]{0,36}$/.test(viewer)) return null;
    const secondsLeft = this.check(mediaId, encodedExpiry, encodedMac, viewer);
    return secondsLeft === null ? null : { secondsLeft, viewer };
  }

  /** The seconds the token has left when it is a valid, unexpired token for `mediaId`; else null. */
  verify(mediaId: string, token: string): number | null {
    const parts = token.split('.');
    if (parts.length === 3) return this.verifyFor(mediaId, token)?.secondsLeft ?? null;
    if (parts.length !== 2) return null;
    const [encodedExpiry, encodedMac] = parts as [string, string];
    return this.check(mediaId, encodedExpiry, encodedMac);
  }

  private check(mediaId: string, encodedExpiry: string, encodedMac: string, viewer?: string): number | null {
    const text = Buffer.from(encodedExpiry, 'base64url').toString('latin1');
    if (!EXPIRY.test(text) || base64url(text) !== encodedExpiry) return null;
    const expiry = Number(text);
    const given = Buffer.from(encodedMac, 'base64url');
    if (base64url(given) !== encodedMac) return null;
    const signed = this.keys.some((key) => {
      const wanted = this.mac(mediaId, expiry, key, viewer);
      return given.length === wanted.length && timingSafeEqual(given, wanted);
    });
    if (!signed) return null;
    const left = expiry - Math.floor(this.now() / 1000);
    return left > 0 ? left : null;
  }
}
