import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { Logger } from '@timeliner/platform';
import type { FastifyInstance } from 'fastify';
import { NotFoundException } from '@nestjs/common';
import { jsonErrorHandler } from '../http/error-handler.js';
import { serveFile } from '../web/file-server.js';
import type { OpenApiAggregator } from './openapi-aggregator.js';

export interface ApiDocsOptions {
  aggregator: OpenApiAggregator;
  logger: Logger;
}

// Swagger UI from the npm package, served by us: no CDN, and every script is a file of our
// own origin, as the Content-Security-Policy requires (no inline script).
const SWAGGER_UI = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const SWAGGER_FILES = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png']);

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Timeliner API</title>
<link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png">
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/start.js"></script>
</body>
</html>
`;

const START = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#swagger-ui', deepLinking: true });\n`;

/** `/api/openapi.json` (the merged description) and `/api/docs` (a viewer for it). */
export async function apiDocsPlugin(fastify: FastifyInstance, options: ApiDocsOptions): Promise<void> {
  fastify.setErrorHandler(jsonErrorHandler(options.logger));

  fastify.get('/api/openapi.json', async (_request, reply) =>
    reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send(await options.aggregator.json()),
  );

  fastify.get('/api/docs', (_request, reply) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(PAGE));
  fastify.get('/api/docs/start.js', (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(START),
  );
  fastify.get<{ Params: { file: string } }>('/api/docs/:file', async (request, reply) => {
    const { file } = request.params;
    if (SWAGGER_FILES.has(file) && (await serveFile(request, reply, `/${file}`, { root: SWAGGER_UI, headersFor: () => ({ 'cache-control': 'public, max-age=3600' }) }))) {
      return reply;
    }
    throw new NotFoundException(`Cannot GET ${request.url}`);
  });
}
