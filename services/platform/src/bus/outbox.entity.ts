import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An event written in the same transaction as the change it describes, published afterwards by
 * the OutboxRelay. Lives in the owning service's schema (the DataSource's `schema`); the table is
 * created by `createOutboxTables` in the service's first migration.
 */
@Entity({ name: 'outbox' })
@Index('outbox_undispatched_idx', ['position'], { where: '"dispatched_at" IS NULL' })
export class OutboxEvent {
  /** The event id: Nats-Msg-Id on the wire, the consumers' inbox key. */
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'outbox_pkey' })
  id: string;

  /** Publication order; commit order may differ, insertion order is what we can know. */
  @Column({ type: 'bigint', generated: 'identity', generatedIdentity: 'ALWAYS', insert: false, update: false })
  position: string;

  @Column({ type: 'text' })
  subject: string;

  @Column({ type: 'text' })
  type: string;

  @Column({ type: 'integer' })
  version: number;

  @Column({ type: 'bytea' })
  payload: Buffer;

  @Column({ name: 'actor_user_id', type: 'uuid', nullable: true })
  actorUserId: string | null;

  @Column({ name: 'request_id', type: 'text', nullable: true })
  requestId: string | null;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt: Date;

  @Column({ name: 'dispatched_at', type: 'timestamptz', nullable: true })
  dispatchedAt: Date | null;

  /** Failed publish attempts, for alerting on an outbox that does not drain. */
  @Column({ type: 'integer', default: 0 })
  attempts: number;
}

/** An event a consumer group has applied; written in the handler's own transaction. */
@Entity({ name: 'inbox' })
export class InboxEntry {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'inbox_pkey' })
  consumer: string;

  @PrimaryColumn({ name: 'event_id', type: 'uuid', primaryKeyConstraintName: 'inbox_pkey' })
  eventId: string;

  @Column({ name: 'processed_at', type: 'timestamptz', default: () => 'now()' })
  processedAt: Date;
}

/** Register these with every DataSource that produces or consumes events. */
export const busEntities = [OutboxEvent, InboxEntry];
