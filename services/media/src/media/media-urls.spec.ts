import { describe, expect, it } from '@jest/globals';
import { MediaUrlSigner, signPlaylist } from './media-urls.js';

const A = '0b6f3a52-6a1e-4c0e-9f0d-1f2e3d4c5b6a';
const B = '5d1c0e7a-2b3c-4d5e-8f90-a1b2c3d4e5f6';
const at = (iso: string) => () => Date.parse(iso);

describe('MediaUrlSigner', () => {
  it('expires at the next hour boundary plus one hour', () => {
    expect(new MediaUrlSigner('s', at('2025-01-01T10:00:00Z')).expiry()).toBe(Date.parse('2025-01-01T12:00:00Z') / 1000);
    expect(new MediaUrlSigner('s', at('2025-01-01T10:59:59Z')).expiry()).toBe(Date.parse('2025-01-01T12:00:00Z') / 1000);
    expect(new MediaUrlSigner('s', at('2025-01-01T11:00:01Z')).expiry()).toBe(Date.parse('2025-01-01T13:00:00Z') / 1000);
  });

  it('makes base64url(expiry).base64url(HMAC) tokens that stay the same within the hour', () => {
    const early = new MediaUrlSigner('secret', at('2025-01-01T10:05:00Z'));
    const late = new MediaUrlSigner('secret', at('2025-01-01T10:55:00Z'));
    const token = early.token(A);
    expect(token).toBe(late.token(A));
    const [expiry, mac] = token.split('.');
    expect(Buffer.from(expiry!, 'base64url').toString()).toBe(String(Date.parse('2025-01-01T12:00:00Z') / 1000));
    expect(Buffer.from(mac!, 'base64url')).toHaveLength(32);
    expect(early.sign('/api/videos/x/stream', A)).toBe(`/api/videos/x/stream?access=${token}`);
    expect(early.sign('/api/media/x/file?variant=original', A)).toBe(`/api/media/x/file?variant=original&access=${token}`);
  });

  it('verifies its own token for the same media id until it expires', () => {
    let now = Date.parse('2025-01-01T10:30:00Z');
    const signer = new MediaUrlSigner('secret', () => now);
    const token = signer.token(A);
    expect(signer.verify(A, token)).toBe(90 * 60);
    expect(signer.verify(A.toUpperCase(), token)).toBe(90 * 60);
    expect(signer.verify(B, token)).toBeNull();
    expect(new MediaUrlSigner('other secret', () => now).verify(A, token)).toBeNull();
    now = Date.parse('2025-01-01T11:59:59Z');
    expect(signer.verify(A, token)).toBe(1);
    now = Date.parse('2025-01-01T12:00:00Z');
    expect(signer.verify(A, token)).toBeNull();
  });

  it('refuses tampered and malformed tokens', () => {
    const signer = new MediaUrlSigner('secret', at('2025-01-01T10:30:00Z'));
    const token = signer.token(A);
    const [expiry, mac] = token.split('.') as [string, string];
    const later = Buffer.from(String(Number(Buffer.from(expiry, 'base64url').toString()) + 3600)).toString('base64url');
    const flipped = `${mac.slice(0, -2)}${mac.at(-2) === 'A' ? 'B' : 'A'}${mac.at(-1)}`;
    for (const bad of ['', '.', token.slice(0, -1), `${later}.${mac}`, `${expiry}.${flipped}`, `${expiry}.${mac}.x`, `${expiry}`, `${expiry}=.${mac}`, `${Buffer.from('-1').toString('base64url')}.${mac}`]) {
      expect(signer.verify(A, bad)).toBeNull();
    }
  });
});

describe('MediaUrlSigner during an identity key rotation', () => {
  it('keeps opening URLs signed with the previous key, signs with the current one, and refuses other keys', () => {
    const now = () => Date.parse('2026-03-01T10:20:00Z');
    const previous = new MediaUrlSigner('p'.repeat(40), now);
    const rotated = new MediaUrlSigner({ current: 'c'.repeat(40), accepted: ['p'.repeat(40)] }, now);
    const current = new MediaUrlSigner('c'.repeat(40), now);
    const id = '0b7e4f7a-3f4e-4c55-9f59-6a4f7d8f1c11';
    expect(rotated.verify(id, previous.token(id))).not.toBeNull();
    expect(rotated.token(id)).toBe(current.token(id));
    expect(current.verify(id, previous.token(id))).toBeNull();
    expect(rotated.verify(id, new MediaUrlSigner('o'.repeat(40), now).token(id))).toBeNull();
  });
});

describe('signPlaylist', () => {
  it('adds the token to every URI line and URI attribute, and to relative URIs only', () => {
    const master = '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360\n360p/index.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=1400000\n720p/index.m3u8\n';
    expect(signPlaylist(master, 'T.K')).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360\n360p/index.m3u8?access=T.K\n#EXT-X-STREAM-INF:BANDWIDTH=1400000\n720p/index.m3u8?access=T.K\n',
    );
    const media = '#EXTM3U\r\n#EXT-X-MAP:URI="init.mp4"\r\n#EXTINF:4.0,\r\nseg_000.m4s\r\n\r\n#EXTINF:4.0,\r\n  seg_001.m4s?x=1  \r\nhttps://cdn.example/seg.ts\r\n#EXT-X-ENDLIST';
    expect(signPlaylist(media, 'T.K')).toBe(
      '#EXTM3U\r\n#EXT-X-MAP:URI="init.mp4?access=T.K"\r\n#EXTINF:4.0,\r\nseg_000.m4s?access=T.K\r\n\r\n#EXTINF:4.0,\r\n  seg_001.m4s?x=1&access=T.K  \r\nhttps://cdn.example/seg.ts\r\n#EXT-X-ENDLIST',
    );
  });
});
