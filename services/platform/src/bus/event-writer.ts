import type { DescMessage, MessageInitShape } from '@bufbuild/protobuf';
import type { EventDefinition } from '@timeliner/proto';
import type { EntityManager } from 'typeorm';
import { afterCommit } from '../database/transactions.js';
import { Outbox, type OutboxContext } from './outbox.js';
import type { OutboxRelay } from './outbox-relay.js';

/**
 * Writes domain events with the change (transactional outbox) and, once the transaction has
 * committed, nudges the relay so they go out at once instead of at the next poll: `add` asks for
 * the nudge itself (`afterCommit`, database/transactions.ts), so nobody calls anything after the
 * commit by hand.
 */
export class EventWriter {
  private readonly kick: () => void;

  constructor(private readonly relay?: Pick<OutboxRelay, 'kick'>) {
    // One function per writer, so a transaction writing many events nudges the relay once.
    this.kick = () => this.relay?.kick();
  }

  /** Writes the event in `manager`'s transaction; the relay is nudged once that transaction commits. */
  async add<Schema extends DescMessage>(manager: EntityManager, definition: EventDefinition<Schema>, payload: MessageInitShape<Schema>, context: OutboxContext): Promise<string> {
    const id = await Outbox.add(manager, definition, payload, context);
    afterCommit(manager, this.kick);
    return id;
  }

  /** @deprecated `add` nudges the relay after the commit by itself; this extra nudge does nothing useful. */
  committed(): void {
    this.relay?.kick();
  }
}
