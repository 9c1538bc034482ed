import { createOutboxErasures, dropOutboxErasures } from '@timeliner/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The people to erase from the outbox once what names them has been sent (platform bus/outbox-erasure.ts). */
export class OutboxErasures1768100000000 implements MigrationInterface {
  name = 'OutboxErasures1768100000000';

  async up(q: QueryRunner): Promise<void> {
    await createOutboxErasures(q);
  }

  async down(q: QueryRunner): Promise<void> {
    await dropOutboxErasures(q);
  }
}
