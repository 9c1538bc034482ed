import { type CanActivate, createParamDecorator, type ExecutionContext, Injectable, UnauthorizedException, UseGuards, applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

/** Who is calling, as verified by the gateway's signed headers. */
export interface Caller {
  userId?: string;
  sessionId?: string;
  clientIp: string;
  requestId: string;
}

export interface SignedInCaller extends Caller {
  userId: string;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
  }
}

export const callerOf = (request: FastifyRequest): Caller => request.caller;

/** `@CurrentCaller() caller: Caller` in a controller method. */
export const CurrentCaller = createParamDecorator((_data: unknown, ctx: ExecutionContext): Caller =>
  callerOf(ctx.switchToHttp().getRequest<FastifyRequest>()),
);

/** The client's User-Agent (for the sessions list); not part of the documented API. */
export const UserAgent = createParamDecorator((_data: unknown, ctx: ExecutionContext): string | undefined => {
  const value = ctx.switchToHttp().getRequest<FastifyRequest>().headers['user-agent'];
  return typeof value === 'string' ? value : undefined;
});

@Injectable()
export class SignedInGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    const caller = callerOf(ctx.switchToHttp().getRequest<FastifyRequest>());
    if (!caller?.userId) throw new UnauthorizedException('Authentication required');
    return true;
  }
}

/** The route needs a signed-in caller (401 otherwise). */
export const SignedIn = () =>
  applyDecorators(UseGuards(SignedInGuard), ApiBearerAuth(), ApiUnauthorizedResponse({ description: 'Not signed in' }));
