import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The Content-Security-Policy of every response. Everything comes from our own origin; `blob:`
 * for media because HLS playback and recorded clips use object URLs, `data:` for images because
 * client-made thumbnails are data URLs. `connect-src 'self'` covers the same-origin `/ws`
 * (CSP 3 matches ws:/wss: of the page's own host). No `upgrade-insecure-requests`: a
 * deployment reached over plain http (a LAN address) would lose its assets.
 */
export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'media-src': ["'self'", 'blob:'],
  'connect-src': ["'self'"],
  'font-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'frame-ancestors': ["'none'"],
  'form-action': ["'self'"],
  'worker-src': ["'self'"],
  'manifest-src': ["'self'"],
};

export const helmetOptions: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
  strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  crossOriginOpenerPolicy: { policy: 'same-origin' },
  crossOriginResourcePolicy: { policy: 'same-origin' },
  // Would require every embedded resource to opt in; nothing here needs cross-origin isolation.
  crossOriginEmbedderPolicy: false,
  xFrameOptions: { action: 'deny' },
};

/** The app records video: camera and microphone for our own pages only; no other powerful feature. */
export const PERMISSIONS_POLICY = 'camera=(self), microphone=(self), fullscreen=(self), picture-in-picture=(self), geolocation=(), payment=(), usb=()';

/**
 * The headers helmet writes for these options, computed once: they are the same for every
 * response (no per-request nonce), and building helmet's middleware for each request (as its
 * Fastify plugin does) parsed the policy again every time.
 */
export function securityHeaders(options: HelmetOptions = helmetOptions): Array<[string, string]> {
  const headers = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  };
  let applied = false;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => {
    applied = true;
  });
  if (!applied) throw new Error('helmet did not apply its headers synchronously');
  headers.set('permissions-policy', PERMISSIONS_POLICY);
  return [...headers];
}

/** Every response, errors included, carries the security headers (on the raw response, so nothing later drops them). */
export function addSecurityHeaders(fastify: FastifyInstance): void {
  const headers = securityHeaders();
  fastify.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}
