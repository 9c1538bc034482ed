import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { type Logger, toErrorBody } from '@timeliner/platform';

/**
 * The error handler of the gateway's own plugins: every failure answers in the one JSON error
 * shape. (Nest installs its handler at the root only when it initialises, after these plugins'
 * routes exist, so each plugin sets this one for its routes.)
 */
export function jsonErrorHandler(logger: Logger) {
  return (error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): void => {
    const body = toErrorBody(error);
    if (body.statusCode >= 500) logger.error({ err: error, requestId: request.id, url: request.url }, 'request failed');
    void reply.status(body.statusCode).type('application/json; charset=utf-8').send(body);
  };
}
