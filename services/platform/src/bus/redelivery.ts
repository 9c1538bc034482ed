import type { ConsumeOptions, MissingReferencePolicy } from './event-bus.port.js';

export const DEFAULT_MAX_DELIVER = 5;
export const DEFAULT_BACKOFF_MS: readonly number[] = [200, 1000, 5000, 15000];

export const DEFAULT_MISSING_REFERENCE: MissingReferencePolicy = { maxAttempts: 20, firstDelayMs: 1000, maxDelayMs: 300_000 };

export interface RedeliveryPolicy {
  maxDeliver: number;
  backoffMs: readonly number[];
  missingReference: MissingReferencePolicy;
}

export function redeliveryPolicy(options: ConsumeOptions): RedeliveryPolicy {
  const maxDeliver = options.maxDeliver ?? DEFAULT_MAX_DELIVER;
  if (!Number.isInteger(maxDeliver) || maxDeliver < 1) throw new Error(`maxDeliver must be ≥ 1, got ${maxDeliver}`);
  const backoffMs = options.backoffMs?.length ? options.backoffMs : DEFAULT_BACKOFF_MS;
  const missingReference = { ...DEFAULT_MISSING_REFERENCE, ...options.missingReference };
  if (!Number.isInteger(missingReference.maxAttempts) || missingReference.maxAttempts < 1) {
    throw new Error(`missingReference.maxAttempts must be ≥ 1, got ${missingReference.maxAttempts}`);
  }
  return { maxDeliver, backoffMs, missingReference };
}

/** Wait before the next delivery, after `delivered` failed deliveries (1-based). */
export function redeliveryDelay(policy: RedeliveryPolicy, delivered: number): number {
  return policy.backoffMs[Math.min(delivered, policy.backoffMs.length) - 1] ?? 0;
}

/** Wait before trying again an event that met a missing reference `failures` times: doubling, capped. */
export function missingReferenceDelay(policy: MissingReferencePolicy, failures: number): number {
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.max(0, Math.min(failures - 1, 30)));
}
