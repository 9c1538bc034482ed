import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, HttpStatus } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { STATUS_CODES } from 'node:http';

/** The one error shape every service answers with. */
export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  details?: Array<{ field: string; message: string }>;
}

export const errorBody = (statusCode: number, message: string, details?: ErrorBody['details']): ErrorBody => ({
  statusCode,
  error: STATUS_CODES[statusCode] ?? 'Error',
  message,
  ...(details && details.length > 0 ? { details } : {}),
});

/** Fastify's own errors (bad JSON, body too large, ...) mapped to messages a client can act on. */
const fastifyErrors: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'Malformed JSON body'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'Request body must not be empty'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'Request body is too large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Unsupported content type'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Content-Length does not match the body'],
};

export function toErrorBody(exception: unknown): ErrorBody {
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    if (typeof response === 'object' && response !== null && 'message' in response) {
      const r = response as { message: unknown; details?: ErrorBody['details'] };
      const message = Array.isArray(r.message) ? String(r.message[0]) : String(r.message);
      return errorBody(status, message, r.details);
    }
    return errorBody(status, typeof response === 'string' ? response : exception.message);
  }
  const code = (exception as { code?: unknown })?.code;
  if (typeof code === 'string' && fastifyErrors[code]) {
    const [status, message] = fastifyErrors[code];
    return errorBody(status, message);
  }
  const statusCode = (exception as { statusCode?: unknown })?.statusCode;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return errorBody(statusCode, (exception as Error).message || STATUS_CODES[statusCode] || 'Bad request');
  }
  return errorBody(HttpStatus.INTERNAL_SERVER_ERROR, 'Internal server error');
}

@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost) {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const body = toErrorBody(exception);
    if (body.statusCode >= 500) this.logger.error({ err: exception }, 'request failed');
    if (reply.sent) return;
    void reply.status(body.statusCode).header('content-type', 'application/json; charset=utf-8').send(body);
  }
}
