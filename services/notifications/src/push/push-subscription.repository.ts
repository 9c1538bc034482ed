import { randomUUID } from 'node:crypto';
import { type DataSource, type EntityManager, In } from 'typeorm';
import { PushSubscription } from './push-subscription.entity.js';

export interface PushKeys {
  p256dh: string;
  auth: string;
}

/** Registering an endpoint that another account holds with other keys. */
export class EndpointTakenError extends Error {
  constructor() {
    super('This push endpoint is registered with other keys');
  }
}

/** People's Web Push subscriptions: one per browser, found by its endpoint. */
export class PushSubscriptionRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Registers the browser's endpoint for the person, or updates it (the same browser again, or a
   * browser signed into another account that proves it with the keys it was registered with), and
   * drops the person's oldest past `perPerson`. The subscription's id.
   */
  register(userId: string, endpoint: string, keys: PushKeys, perPerson: number): Promise<string> {
    return this.dataSource.transaction(async (manager) => {
      // One person's registrations one at a time, so two at once cannot pass the cap together.
      await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`push-subscriptions:${userId}`]);
      const existing = await manager.findOne(PushSubscription, { where: { endpoint }, lock: { mode: 'pessimistic_write' } });
      let id: string;
      if (existing) {
        if (existing.userId !== userId && (existing.p256dh !== keys.p256dh || existing.auth !== keys.auth)) throw new EndpointTakenError();
        await manager.update(PushSubscription, { id: existing.id }, { userId, ...keys });
        id = existing.id;
      } else {
        id = randomUUID();
        await manager.insert(PushSubscription, { id, userId, endpoint, ...keys });
      }
      const theirs = await manager.find(PushSubscription, { where: { userId }, select: { id: true }, order: { createdAt: 'DESC', id: 'DESC' } });
      const dropped = theirs.filter((s) => s.id !== id).slice(perPerson - 1).map((s) => s.id);
      if (dropped.length > 0) await manager.delete(PushSubscription, { id: In(dropped) });
      return id;
    });
  }

  /** False when the person has no subscription at that endpoint. */
  async remove(userId: string, endpoint: string): Promise<boolean> {
    const result = await this.dataSource.getRepository(PushSubscription).delete({ userId, endpoint });
    return Boolean(result.affected);
  }

  find(id: string): Promise<PushSubscription | null> {
    return this.dataSource.getRepository(PushSubscription).findOneBy({ id });
  }

  async delete(id: string): Promise<void> {
    await this.dataSource.getRepository(PushSubscription).delete({ id });
  }

  /** The ids of the person's newest `limit` subscriptions, in `manager`'s transaction. */
  async newestIds(manager: EntityManager, userId: string, limit: number): Promise<string[]> {
    const rows = await manager.getRepository(PushSubscription).find({ where: { userId }, select: { id: true }, order: { createdAt: 'DESC', id: 'DESC' }, take: limit });
    return rows.map((row) => row.id);
  }
}
