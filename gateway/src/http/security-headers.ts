import type { FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

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

export const helmetOptions: FastifyHelmetOptions = {
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

export function addPermissionsPolicy(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (_request, reply, done) => {
    // On the raw response, like helmet's headers: present on every answer, errors included.
    reply.raw.setHeader('permissions-policy', PERMISSIONS_POLICY);
    done();
  });
}
