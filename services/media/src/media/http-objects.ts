import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MediaService, ServedObject } from './media.service.js';
import { signPlaylist } from './media-urls.js';

const PLAYLIST = 'application/vnd.apple.mpegurl';
/** Playlists are small; one larger than this is sent as stored. */
const MAX_REWRITTEN_PLAYLIST = 1024 * 1024;

async function readAll(source: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}

/**
 * Cache-Control: for a signed request as long as the token lasts (playlists, which change while
 * renditions are added, are revalidated anyway); else a day for what never changes.
 */
function cacheControl(object: ServedObject): string {
  if (!object.immutable) return 'private, no-cache';
  return object.signed ? `private, max-age=${object.signed.secondsLeft}` : 'private, max-age=86400';
}

export type RangeAnswer = { kind: 'whole' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * One `Range: bytes=...` range (RFC 9110 14.1.2): `a-b`, `a-` or the suffix `-n`. Anything else
 * (other units, several ranges, garbage) is ignored and the whole object is sent, as the RFC
 * allows. A range that starts past the end, or an empty suffix, cannot be satisfied.
 */
export function parseRange(header: string | undefined, size: number): RangeAnswer {
  if (!header) return { kind: 'whole' };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'whole' };
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (match[2] !== '' && Number(match[2]) < start) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end };
}

/** RFC 6266 / 8187: an ASCII fallback and the exact UTF-8 name. */
export function contentDisposition(type: 'inline' | 'attachment', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Passes exactly `length` bytes on and stops: a store that sends more than the range asked (s3rver does) cannot leak it. */
function exactly(length: number): Transform {
  let left = length;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (left <= 0) return done();
      const piece = chunk.length > left ? chunk.subarray(0, left) : chunk;
      left -= piece.length;
      done(null, piece);
    },
  });
}

/**
 * Sends a stored object: 200 or 206 by Range, 416 for a range it cannot satisfy, 304 for a
 * matching If-None-Match; a safe Content-Type, nosniff, and Content-Disposition for originals.
 * A playlist served for an access token is sent whole with the token added to each of its URIs,
 * so that the browser's own HLS player (which cannot send the bearer header) can follow them.
 */
export async function sendObject(media: MediaService, object: ServedObject, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const { size } = object.info;
  const etag = object.info.etag ? `"${object.info.etag.replace(/"/g, '')}"` : undefined;
  void reply
    .header('content-type', object.contentType)
    .header('x-content-type-options', 'nosniff')
    .header('accept-ranges', 'bytes')
    .header('cache-control', cacheControl(object))
    .header('last-modified', object.info.lastModified.toUTCString());
  if (object.signed && object.contentType === PLAYLIST && size <= MAX_REWRITTEN_PLAYLIST) {
    const playlist = signPlaylist((await readAll(await media.stream(object.key))).toString('utf8'), object.signed.token);
    const body = Buffer.from(playlist, 'utf8');
    void reply.header('content-length', String(body.length));
    void reply.send(request.method === 'HEAD' ? Readable.from([]) : body);
    return;
  }
  if (etag) void reply.header('etag', etag);
  if (object.downloadName) void reply.header('content-disposition', contentDisposition(object.disposition ?? 'inline', object.downloadName));

  if (etag && request.headers['if-none-match'] === etag) {
    void reply.status(304).send();
    return;
  }
  const ifRange = request.headers['if-range'];
  const range = ifRange && ifRange !== etag ? ({ kind: 'whole' } as const) : parseRange(request.headers.range, size);
  if (range.kind === 'unsatisfiable') {
    void reply.status(416).header('content-range', `bytes */${size}`).header('content-type', 'application/json; charset=utf-8')
      .send({ statusCode: 416, error: 'Range Not Satisfiable', message: `The file has ${size} bytes` });
    return;
  }
  const start = range.kind === 'partial' ? range.start : 0;
  const end = range.kind === 'partial' ? range.end : size - 1;
  const length = size === 0 ? 0 : end - start + 1;
  void reply.header('content-length', String(length));
  if (range.kind === 'partial') void reply.status(206).header('content-range', `bytes ${start}-${end}/${size}`);
  if (request.method === 'HEAD' || length === 0) {
    // An empty stream: Fastify's HEAD handling keeps the Content-Length set above.
    void reply.send(Readable.from([]));
    return;
  }
  const source: Readable = await media.stream(object.key, range.kind === 'partial' ? { start, end } : undefined);
  const body = exactly(length);
  pipeline(source, body).catch(() => undefined);
  return reply.send(body);
}
