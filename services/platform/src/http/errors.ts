import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, HttpStatus } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { STATUS_CODES } from 'node:http';
import { failureKind } from '../bus/failure-kind.js';

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

/**
 * An error answer that carries more than its message: fields a client reads from the JSON body
 * (the space left under a quota) and headers (Retry-After). HttpErrorFilter sends both.
 */
export class DetailedHttpException extends HttpException {
  constructor(
    status: number,
    message: string,
    readonly fields: Readonly<Record<string, string | number>> = {},
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super({ message }, status);
  }
}

/** 429 with Retry-After (whole seconds, at least 1) in the header and as `retryAfterSeconds` in the body. */
export class TooManyRequestsException extends DetailedHttpException {
  constructor(message: string, retryAfterSeconds: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super(HttpStatus.TOO_MANY_REQUESTS, message, { retryAfterSeconds: seconds }, { 'retry-after': String(seconds) });
  }
}

export function toErrorBody(exception: unknown): ErrorBody {
  if (exception instanceof DetailedHttpException) {
    return { ...exception.fields, ...errorBody(exception.getStatus(), exception.message) };
  }
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
  // The database or the bus is unreachable: nothing is wrong with the request, so say when to come back.
  if (failureKind(exception) === 'infrastructure') return errorBody(HttpStatus.SERVICE_UNAVAILABLE, UNAVAILABLE_MESSAGE);
  return errorBody(HttpStatus.INTERNAL_SERVER_ERROR, 'Internal server error');
}

export const UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable, try again shortly';
/** Seconds a client is told to wait after a 503. */
export const RETRY_AFTER_SECONDS = 2;
/** An outage is logged when it starts, then at most once per this many ms, with a count. */
const OUTAGE_LOG_EVERY_MS = 30_000;

/**
 * Answers every error in the one shape. A 503 (a dependency is down) carries Retry-After and is
 * logged as an outage: the first one at once, then one line per 30 s with how many requests were
 * answered 503 meanwhile, never one line per request. Other 5xx are logged each time.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private unavailableSince = 0;
  private lastLogged = Number.NEGATIVE_INFINITY;
  private suppressed = 0;

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  catch(exception: unknown, host: ArgumentsHost) {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const body = toErrorBody(exception);
    if (body.statusCode === HttpStatus.SERVICE_UNAVAILABLE) this.unavailable(exception);
    else if (body.statusCode >= 500) this.logger.error({ err: exception }, 'request failed');
    if (reply.sent) return;
    if (exception instanceof DetailedHttpException) for (const [name, value] of Object.entries(exception.headers)) void reply.header(name, value);
    if (body.statusCode === HttpStatus.SERVICE_UNAVAILABLE && !reply.hasHeader('retry-after')) void reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    void reply.status(body.statusCode).header('content-type', 'application/json; charset=utf-8').send(body);
  }

  private unavailable(exception: unknown): void {
    const now = this.now();
    if (now - this.lastLogged < OUTAGE_LOG_EVERY_MS) {
      this.suppressed++;
      return;
    }
    const ongoing = now - this.lastLogged < 2 * OUTAGE_LOG_EVERY_MS;
    if (!ongoing) this.unavailableSince = now;
    this.logger.warn(
      { err: exception, answered503: this.suppressed + 1, secondsSinceFirst: Math.round((now - this.unavailableSince) / 1000) },
      ongoing ? 'dependency still unavailable; requests answered 503' : 'dependency unavailable; requests answered 503 with Retry-After',
    );
    this.lastLogged = now;
    this.suppressed = 0;
  }
}
