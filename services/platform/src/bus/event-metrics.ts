import { Counter, Gauge, type Registry } from 'prom-client';
import { deadLetterStats } from './dead-letters.js';

/**
 * What `/metrics` says about each consumer group of this process:
 *
 * - `events_pending{group}`: events stored for the group and not yet handled (waiting, in flight,
 *   or put back to be tried later);
 * - `events_oldest_pending_seconds{group}`: how long the oldest of them has waited (0 when none);
 * - `events_redeliveries_total{group,reason}`: events put back to be tried again, by why:
 *   `outage` (a dependency was down), `failed` (the handler failed on the event),
 *   `missing_reference` (it names something this service has not heard of yet);
 * - `events_dead_letters{group}`: events given up and kept for replay (dead-letters.ts).
 *
 * Pending counts come from the bus (JetStream's consumer state, or the in-process queues) when
 * Prometheus scrapes; every replica of a group reports the same JetStream figures.
 */
export type RedeliveryReason = 'outage' | 'failed' | 'missing_reference';

export interface ConsumerLag {
  group: string;
  pending: number;
  /** Age of the oldest pending event in seconds; 0 when nothing is pending. */
  oldestPendingSeconds: number;
}

/** Something that can say how far behind one consumer (or one subject of it) is. */
export interface LagSource {
  lag(): Promise<ConsumerLag>;
}

const redeliveries = new Map<string, { group: string; reason: RedeliveryReason; count: number }>();
const lagSources = new Set<LagSource>();

export const eventStats = {
  redelivered(group: string, reason: RedeliveryReason): void {
    const key = `${group}\u0000${reason}`;
    const entry = redeliveries.get(key) ?? { group, reason, count: 0 };
    entry.count++;
    redeliveries.set(key, entry);
  },
  redeliveries(): Array<{ group: string; reason: RedeliveryReason; count: number }> {
    return [...redeliveries.values()].map((entry) => ({ ...entry }));
  },
  addLagSource(source: LagSource): void {
    lagSources.add(source);
  },
  removeLagSource(source: LagSource): void {
    lagSources.delete(source);
  },
  /** Pending events and the oldest one's age per group, summed over the group's sources. */
  async lag(): Promise<ConsumerLag[]> {
    const byGroup = new Map<string, ConsumerLag>();
    const answers = await Promise.allSettled([...lagSources].map((source) => source.lag()));
    for (const answer of answers) {
      if (answer.status !== 'fulfilled') continue;
      const { group, pending, oldestPendingSeconds } = answer.value;
      const total = byGroup.get(group) ?? { group, pending: 0, oldestPendingSeconds: 0 };
      total.pending += pending;
      total.oldestPendingSeconds = Math.max(total.oldestPendingSeconds, oldestPendingSeconds);
      byGroup.set(group, total);
    }
    return [...byGroup.values()];
  },
};

/** Registers the event consumers' metrics (above) with a service's registry. */
export function registerEventMetrics(registry: Registry): void {
  // One look at the bus per scrape serves both lag gauges.
  let current: { at: number; lag: Promise<ConsumerLag[]> } | undefined;
  const lag = (): Promise<ConsumerLag[]> => {
    if (!current || Date.now() - current.at > 1000) current = { at: Date.now(), lag: eventStats.lag() };
    return current.lag;
  };
  new Gauge({
    name: 'events_pending',
    help: 'Events stored for a consumer group and not yet handled',
    labelNames: ['group'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const entry of await lag()) this.set({ group: entry.group }, entry.pending);
    },
  });
  new Gauge({
    name: 'events_oldest_pending_seconds',
    help: 'Age of the oldest event a consumer group has not handled yet (0 when none)',
    labelNames: ['group'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const entry of await lag()) this.set({ group: entry.group }, Math.round(entry.oldestPendingSeconds * 1000) / 1000);
    },
  });
  new Counter({
    name: 'events_redeliveries_total',
    help: 'Events put back to be tried again, by reason: outage, failed, missing_reference',
    labelNames: ['group', 'reason'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const { group, reason, count } of eventStats.redeliveries()) this.inc({ group, reason }, count);
    },
  });
  new Gauge({
    name: 'events_dead_letters',
    help: 'Events a consumer group gave up on, kept for replay (scripts/dead-letters.mjs)',
    labelNames: ['group'] as const,
    registers: [registry],
    collect() {
      for (const [group, count] of deadLetterStats.entries()) this.set({ group }, count);
    },
  });
}
