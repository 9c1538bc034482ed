export { MediaUrlSigner } from '@timeliner/platform';

/** A URI of an HLS playlist that resolves on this server (relative), not one with a scheme or host. */
const relative = (uri: string): boolean => !/^[a-z][a-z0-9+.-]*:/i.test(uri) && !uri.startsWith('//');
const withAccess = (uri: string, token: string): string => (relative(uri) ? `${uri}${uri.includes('?') ? '&' : '?'}access=${token}` : uri);

/**
 * An HLS playlist whose URIs carry `access=<token>`: the URI lines (rendition playlists,
 * segments) and the `URI="..."` attributes of tags (EXT-X-MAP init segments, EXT-X-MEDIA,
 * EXT-X-KEY). Relative URIs only: the token never goes to another host.
 */
export function signPlaylist(playlist: string, token: string): string {
  return playlist
    .split(/(\r?\n)/)
    .map((line) => {
      const trimmed = line.trim();
      if (trimmed === '' || line === '\n' || line === '\r\n') return line;
      if (trimmed.startsWith('#')) return line.replace(/URI="([^"]*)"/g, (_m, uri: string) => `URI="${withAccess(uri, token)}"`);
      return line.replace(trimmed, withAccess(trimmed, token));
    })
    .join('');
}
