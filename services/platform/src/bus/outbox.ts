import { currentRequestId } from '../logging/request-context.js';
import { randomUUID } from 'node:crypto';
import { create, type DescMessage, type MessageInitShape, toBinary } from '@bufbuild/protobuf';
import type { EventDefinition } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import type { BusMessage } from './event-bus.port.js';
import { OutboxEvent } from './outbox.entity.js';

export interface OutboxContext {
  /** The user whose action caused the event; absent for system work. */
  actorUserId?: string;
  /** The HTTP request id, so logs can follow the change into consumers. */
  requestId?: string;
}

/**
 * Producing events: write them with the change, in the caller's transaction, so an event exists
 * exactly when its change committed. The OutboxRelay publishes them afterwards.
 *
 * This is the bare row. Services write through `EventWriter.add(manager, ...)`, which also nudges
 * the relay once the transaction commits (`afterCommit`), so the event goes out at once:
 *
 *   await transactions.run(async (manager) => {
 *     await users.insert(manager, user);
 *     await events.add(manager, AuthEvents.UserRegistered, { userId: user.id, ... }, { actorUserId: user.id });
 *   });
 */
export const Outbox = {
  /** Returns the event id. */
  async add<Schema extends DescMessage>(
    manager: EntityManager,
    definition: EventDefinition<Schema>,
    payload: MessageInitShape<Schema>,
    context: OutboxContext = {},
  ): Promise<string> {
    if (!manager.queryRunner?.isTransactionActive) {
      throw new Error(`Outbox.add(${definition.type}) must run inside the transaction that makes the change`);
    }
    const id = randomUUID();
    await manager.insert(OutboxEvent, {
      id,
      subject: definition.subject,
      type: definition.type,
      version: definition.version,
      payload: Buffer.from(toBinary(definition.schema, create(definition.schema, payload))),
      actorUserId: context.actorUserId ?? null,
      requestId: context.requestId ?? currentRequestId() ?? null,
      occurredAt: new Date(),
    });
    return id;
  },
};

export function outboxEventToMessage(row: OutboxEvent): BusMessage {
  return {
    subject: row.subject,
    meta: {
      id: row.id,
      type: row.type,
      version: row.version,
      occurredAt: row.occurredAt.toISOString(),
      ...(row.actorUserId ? { actorUserId: row.actorUserId } : {}),
      ...(row.requestId ? { requestId: row.requestId } : {}),
    },
    data: row.payload,
  };
}
