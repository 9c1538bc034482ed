import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { toErrorBody } from '@timeliner/platform';
import { TooManyAttemptsException } from './too-many-attempts.js';

/** 429 answers tell the client when to try again. */
@Catch(TooManyAttemptsException)
export class RetryAfterFilter implements ExceptionFilter {
  catch(exception: TooManyAttemptsException, host: ArgumentsHost) {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    void reply.status(429).header('retry-after', String(exception.retryAfter)).send(toErrorBody(exception));
  }
}
