import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { toErrorBody } from '@timeliner/platform';
import { InvitationExpiredException } from './invitation.service.js';

/** The platform's error shape plus `expired: true`, which the invitation page looks for. */
@Catch(InvitationExpiredException)
export class InvitationExpiredFilter implements ExceptionFilter {
  catch(exception: InvitationExpiredException, host: ArgumentsHost) {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    void reply.status(410).header('content-type', 'application/json; charset=utf-8').send({ ...toErrorBody(exception), expired: true });
  }
}
