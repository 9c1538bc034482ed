import { runWithContext } from '../logging/request-context.js';
import { type DescMessage, fromBinary, type MessageShape } from '@bufbuild/protobuf';
import type { EventDefinition } from '@timeliner/proto';
import type { DataSource, EntityManager } from 'typeorm';
import { type BusLogger, defaultBusLogger } from './bus-logger.js';
import {
  type BusMessage,
  type ConsumeOptions,
  type EventBus,
  type EventMeta,
  type Subscription,
  UnprocessableMessageError,
} from './event-bus.port.js';
import { InboxEntry } from './outbox.entity.js';
import { afterCommit, inTransaction } from '../database/transactions.js';
import { isUuid } from '../payload/payload-checks.js';

/** What a handler is told about its event, and a way to act once its transaction has committed. */
export interface HandlerMeta extends EventMeta {
  /**
   * Runs `fn` after the handler's transaction commits (not at all when it rolls back or the event
   * was already applied): for in-process caches that must not be refreshed before the change is
   * visible. The same as `afterCommit(manager, fn)` (database/transactions.ts). Absent where a
   * handler is called outside a consumer (tests).
   */
  afterCommit?(fn: () => void): void;
}

export interface EventHandler<Schema extends DescMessage> {
  definition: EventDefinition<Schema>;
  // Method syntax on purpose: handlers of different events go in one list.
  handle(payload: MessageShape<Schema>, meta: HandlerMeta, manager: EntityManager): Promise<void>;
}

/** Declares the handler of one event: `on(AuthEvents.UserRegistered, async (user, meta, manager) => ...)`. */
export function on<Schema extends DescMessage>(
  definition: EventDefinition<Schema>,
  handle: (payload: MessageShape<Schema>, meta: HandlerMeta, manager: EntityManager) => Promise<void>,
): EventHandler<Schema> {
  return { definition, handle };
}

export interface ConsumeEventsOptions extends Omit<ConsumeOptions, 'subjects'> {
  /** The consuming service's DataSource; its schema holds the inbox. */
  dataSource: DataSource;
  logger?: BusLogger;
}

/**
 * Typed, idempotent consumption. Each event is decoded with its definition's schema and handled
 * in a transaction that also records it in the inbox (consumer group, event id), so a redelivered
 * event is applied once: the second delivery finds the row and only acknowledges.
 *
 * A payload that does not decode is given up at once (logged), not retried until maxDeliver.
 */
export async function consumeEvents(
  bus: EventBus,
  options: ConsumeEventsOptions,
  handlers: ReadonlyArray<EventHandler<DescMessage>>,
): Promise<Subscription> {
  const { dataSource, logger = defaultBusLogger, ...consumeOptions } = options;
  const bySubject = new Map<string, EventHandler<DescMessage>>();
  for (const handler of handlers) {
    if (bySubject.has(handler.definition.subject)) {
      throw new Error(`Two handlers for ${handler.definition.subject} in consumer group ${options.durable}`);
    }
    bySubject.set(handler.definition.subject, handler);
  }

  return bus.consume({ ...consumeOptions, subjects: [...bySubject.keys()] }, async (message) => {
    const handler = bySubject.get(message.subject);
    if (!handler) throw new UnprocessableMessageError(`No handler for ${message.subject} in ${options.durable}`);
    const payload = decodePayload(handler.definition, message);
    // Log lines of the handler carry the request id of the HTTP call that caused the event.
    const context = { requestId: message.meta.requestId ?? message.meta.id, ...(message.meta.actorUserId ? { userId: message.meta.actorUserId } : {}) };
    await runWithContext(context, () => inTransaction(dataSource, async (manager) => {
      const recorded = await manager
        .createQueryBuilder()
        .insert()
        .into(InboxEntry)
        .values({ consumer: options.durable, eventId: message.meta.id })
        .orIgnore()
        .returning(['event_id'])
        .execute();
      if ((recorded.raw as unknown[]).length === 0) {
        logger.debug({ group: options.durable, eventId: message.meta.id }, 'Event already applied; skipped');
        return;
      }
      await handler.handle(payload, { ...message.meta, afterCommit: (fn) => afterCommit(manager, fn) }, manager);
    }));
  });
}

/** Decodes an event's payload; for subscribers that need no inbox (cache invalidation). */
export function decodeEvent<Schema extends DescMessage>(
  definition: EventDefinition<Schema>,
  message: BusMessage,
): MessageShape<Schema> {
  return decodePayload(definition, message);
}

function decodePayload<Schema extends DescMessage>(
  definition: EventDefinition<Schema>,
  message: BusMessage,
): MessageShape<Schema> {
  if (!isUuid(message.meta.id)) {
    throw new UnprocessableMessageError(`${message.subject} event id "${message.meta.id}" is not a UUID`);
  }
  try {
    return fromBinary(definition.schema, message.data);
  } catch (error) {
    throw new UnprocessableMessageError(`${message.subject} event ${message.meta.id} does not decode`, { cause: error });
  }
}
