import type { DescMessage, MessageInitShape } from '@bufbuild/protobuf';
import type { EventDefinition } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { Outbox, type OutboxContext } from './outbox.js';
import type { OutboxRelay } from './outbox-relay.js';

/**
 * Writes domain events with the change (transactional outbox) and, once the transaction has
 * committed, nudges the relay so they go out at once instead of at the next poll.
 */
export class EventWriter {
  constructor(private readonly relay?: Pick<OutboxRelay, 'kick'>) {}

  add<Schema extends DescMessage>(manager: EntityManager, definition: EventDefinition<Schema>, payload: MessageInitShape<Schema>, context: OutboxContext): Promise<string> {
    return Outbox.add(manager, definition, payload, context);
  }

  committed(): void {
    this.relay?.kick();
  }
}
