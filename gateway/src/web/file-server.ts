import { stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import send from '@fastify/send';
import { HttpException } from '@nestjs/common';
import { errorBody } from '@timeliner/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface FileServerOptions {
  /** Directory served; nothing outside it is reachable (send refuses `..` and, here, dotfiles). */
  root: string;
  /** Extra response headers for a file, by its path relative to root (`assets/app.js`). */
  headersFor?: (file: string) => Record<string, string>;
  /** Serve `file.br` / `file.gz` beside `file` to clients that accept them. */
  precompressed?: boolean;
}

const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

const exists = (path: string): Promise<boolean> => stat(path).then((s) => s.isFile(), () => false);

async function precompressedVariant(request: FastifyRequest, root: string, path: string) {
  // Ranges address the stored bytes; keep them simple by serving the plain file.
  if (request.headers.range) return undefined;
  const accepted = String(request.headers['accept-encoding'] ?? '');
  const file = resolve(root, `.${decodeURIComponent(path)}`);
  if (!file.startsWith(root + sep)) return undefined; // send() refuses it below
  for (const encoding of ENCODINGS) {
    if (accepted.includes(encoding.name) && (await exists(`${file}${encoding.suffix}`))) return encoding;
  }
  return undefined;
}

/**
 * Streams one file with ETag/Last-Modified, conditional requests (304) and Range (206), through
 * `@fastify/send`. Resolves false when there is no such file, so the caller decides what a miss
 * means (the app's index.html, or a 404).
 */
export async function serveFile(request: FastifyRequest, reply: FastifyReply, urlPath: string, options: FileServerOptions): Promise<boolean> {
  let path = urlPath;
  let encoding: (typeof ENCODINGS)[number] | undefined;
  try {
    encoding = options.precompressed ? await precompressedVariant(request, options.root, urlPath) : undefined;
  } catch {
    throw new HttpException(errorBody(400, 'Malformed request path'), 400);
  }
  if (encoding) path = `${urlPath}${encoding.suffix}`;

  const result = await send(request.raw, path, {
    root: options.root,
    dotfiles: 'ignore',
    index: false,
    extensions: false,
    cacheControl: false,
    contentType: !encoding,
  });
  if (result.type === 'directory' || (result.type === 'error' && result.statusCode === 404)) {
    result.stream.destroy();
    return false;
  }
  if (result.type === 'error') {
    result.stream.destroy();
    throw new HttpException(errorBody(result.statusCode, result.statusCode === 400 ? 'Malformed request path' : 'Cannot serve this file'), result.statusCode);
  }
  void reply.status(result.statusCode).headers(result.headers);
  if (encoding) {
    void reply.header('content-encoding', encoding.name).header('vary', 'Accept-Encoding');
    const type = send.mime.getType(urlPath);
    if (type) void reply.header('content-type', send.isUtf8MimeType(type) ? `${type}; charset=utf-8` : type);
  }
  const file = result.metadata.path.slice(options.root.length + 1).replace(/\\/g, '/');
  const extra = options.headersFor?.(encoding ? file.slice(0, -encoding.suffix.length) : file);
  if (extra) void reply.headers(extra);
  await reply.send(result.stream);
  return true;
}
