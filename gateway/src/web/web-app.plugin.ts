import { resolve } from 'node:path';
import { NotFoundException } from '@nestjs/common';
import { errorBody, type Logger } from '@timeliner/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { jsonErrorHandler } from '../http/error-handler.js';
import { webCacheHeaders } from './cache-policy.js';
import { type FileServerOptions, serveFile } from './file-server.js';
import { IndexPage } from './index-page.js';

export interface WebAppOptions {
  /** The frontend's build output. */
  webDist: string;
  logger: Logger;
}

// Paths that belong to the server: never answered with the app's index.html.
const SERVER_PATHS = /^\/(api|ws|health|metrics)(\/|$)/;

/** The embed player (spec 001, Sharing tab): the one page another site may frame. */
export const EMBED_PAGE = /^\/embed\/timeline\/[^/]+\/?$/;

/** A page load (the browser wants a document), as opposed to a script or fetch asking for a file. */
const isNavigation = (request: FastifyRequest): boolean =>
  request.headers['sec-fetch-mode'] === 'navigate' || (request.headers.accept ?? '').includes('text/html');

/**
 * The installable web app: built files with their cache policy, and index.html for any other
 * page load so the client-side router can take it (`/studio/42` after a reload).
 */
export async function webAppPlugin(fastify: FastifyInstance, options: WebAppOptions): Promise<void> {
  const files: FileServerOptions = { root: resolve(options.webDist), headersFor: webCacheHeaders, precompressed: true };
  const index = new IndexPage(resolve(files.root, 'index.html'));
  fastify.setErrorHandler(jsonErrorHandler(options.logger));

  const sendIndex = async (request: FastifyRequest, reply: FastifyReply) => {
    const framable = EMBED_PAGE.test(request.url.split('?', 1)[0]!);
    const page = await index.render({ framable });
    if (page) {
      // Like helmet's headers, on the raw response, replacing the nonce-less policy.
      reply.raw.setHeader('content-security-policy', page.csp);
      // frame-ancestors decides for browsers that know it; X-Frame-Options would still forbid it.
      if (framable) reply.raw.removeHeader('x-frame-options');
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page.html);
    }
    return reply
      .status(503)
      .send(errorBody(503, `The web app is not built: no index.html in ${files.root}. Run "npm run build", or point WEB_DIST at a build.`));
  };

  fastify.get('/', sendIndex);
  fastify.get('/index.html', sendIndex);
  fastify.get('/*', async (request, reply) => {
    const path = request.url.split('?', 1)[0]!;
    if (SERVER_PATHS.test(path)) throw new NotFoundException(`Cannot GET ${path}`);
    if (await serveFile(request, reply, path, files)) return reply;
    if (isNavigation(request)) return sendIndex(request, reply);
    throw new NotFoundException(`Cannot GET ${path}`);
  });
}
