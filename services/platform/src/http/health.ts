import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';

/** A readiness check: resolves true when the dependency answers in time. */
export type HealthCheck = () => Promise<boolean>;
export const HEALTH_CHECKS = Symbol('HEALTH_CHECKS');

const CHECK_TIMEOUT_MS = 2_000;

async function runCheck(check: HealthCheck): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check().catch(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `/health/live`: the process can serve (no dependency checks, so a database outage does not get
 * every pod restarted). `/health/ready`: every dependency answers; 503 takes the pod out of
 * load balancing until they do, and during shutdown.
 */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  static shuttingDown = false;

  constructor(@Inject(HEALTH_CHECKS) private readonly checks: Record<string, HealthCheck>) {}

  @Get('live')
  @HttpCode(200)
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(@Res() reply: FastifyReply) {
    const names = Object.keys(this.checks);
    const results = await Promise.all(names.map((n) => runCheck(this.checks[n]!)));
    const checks = Object.fromEntries(names.map((n, i) => [n, results[i] ? 'up' : 'down']));
    const ok = !HealthController.shuttingDown && results.every(Boolean);
    void reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : HealthController.shuttingDown ? 'shutting-down' : 'unavailable', checks });
  }
}
