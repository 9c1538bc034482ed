import { pino, type Logger } from 'pino';
import { currentContext } from './request-context.js';

export type { Logger } from 'pino';

/**
 * JSON logs, one line per event, each carrying the service name and, inside a request or a
 * message handler, its request id and user.
 */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const context = currentContext();
      return context ? { requestId: context.requestId, ...(context.userId ? { userId: context.userId } : {}) } : {};
    },
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', '*.password', 'password', '*.token', 'token'],
      censor: '[redacted]',
    },
  });
}
