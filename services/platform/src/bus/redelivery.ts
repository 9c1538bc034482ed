import type { ConsumeOptions } from './event-bus.port.js';

export const DEFAULT_MAX_DELIVER = 5;
export const DEFAULT_BACKOFF_MS: readonly number[] = [200, 1000, 5000, 15000];

export interface RedeliveryPolicy {
  maxDeliver: number;
  backoffMs: readonly number[];
}

export function redeliveryPolicy(options: ConsumeOptions): RedeliveryPolicy {
  const maxDeliver = options.maxDeliver ?? DEFAULT_MAX_DELIVER;
  if (!Number.isInteger(maxDeliver) || maxDeliver < 1) throw new Error(`maxDeliver must be ≥ 1, got ${maxDeliver}`);
  const backoffMs = options.backoffMs?.length ? options.backoffMs : DEFAULT_BACKOFF_MS;
  return { maxDeliver, backoffMs };
}

/** Wait before the next delivery, after `delivered` failed deliveries (1-based). */
export function redeliveryDelay(policy: RedeliveryPolicy, delivered: number): number {
  return policy.backoffMs[Math.min(delivered, policy.backoffMs.length) - 1] ?? 0;
}
