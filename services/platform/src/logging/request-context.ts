import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * What is known about the work in progress: the request id that ties log lines together across
 * HTTP hops and NATS messages, and the caller once verified.
 */
export interface WorkContext {
  requestId: string;
  userId?: string;
}

const storage = new AsyncLocalStorage<WorkContext>();

export const currentContext = (): WorkContext | undefined => storage.getStore();

export const currentRequestId = (): string | undefined => storage.getStore()?.requestId;

export function runWithContext<T>(context: WorkContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** Request ids from outside are accepted only if they look like ids, so logs cannot be forged. */
export function acceptRequestId(candidate: unknown): string {
  return typeof candidate === 'string' && /^[A-Za-z0-9._:-]{8,100}$/.test(candidate) ? candidate : randomUUID();
}

export const REQUEST_ID_HEADER = 'x-request-id';
