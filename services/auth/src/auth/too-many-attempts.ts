import { HttpException, HttpStatus } from '@nestjs/common';
import type { LimitState } from '../security/rate-limiter.js';

/** A 429 that says when to try again (RetryAfterFilter puts it in Retry-After). */
export class TooManyAttemptsException extends HttpException {
  constructor(readonly retryAfter: number) {
    const minutes = Math.ceil(retryAfter / 60);
    super({ message: `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, retryAfter }, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/** Refuses when any of the limits is exceeded, with the longest wait among them. */
export function throwIfLimited(...states: LimitState[]): void {
  const limited = states.filter((s) => s.limited);
  if (limited.length > 0) throw new TooManyAttemptsException(Math.max(...limited.map((s) => s.retryAfter)));
}
