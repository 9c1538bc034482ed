const IMMUTABLE = 'public, max-age=31536000, immutable';
// Stored, but checked with the server (ETag) before each use: a deploy shows at once.
const REVALIDATE = 'no-cache';

/**
 * Cache headers of the built web app, by file (relative to the build directory). Files under
 * assets/ carry a content hash in their name and never change; everything else (index.html,
 * sw.js, the manifest, icons) keeps its name across deploys and must be revalidated, or users
 * would run a stale app against a new API.
 */
export function webCacheHeaders(file: string): Record<string, string> {
  if (file.startsWith('assets/')) return { 'cache-control': IMMUTABLE };
  if (file === 'sw.js') return { 'cache-control': REVALIDATE, 'service-worker-allowed': '/' };
  if (file === 'manifest.webmanifest') return { 'cache-control': REVALIDATE, 'content-type': 'application/manifest+json; charset=utf-8' };
  return { 'cache-control': REVALIDATE };
}
