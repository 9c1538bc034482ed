import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { BadRequestException, NotFoundException } from '@nestjs/common';
import type { SignedInCaller } from '@timeliner/platform';
import type { DataSource } from 'typeorm';
import type { PushKeyDto, PushSubscribedDto, PushSubscriptionDto, PushUnsubscribeDto } from './push.dto.js';
import { PushSubscription } from './push-subscription.entity.js';

export interface PushEndpointPolicy {
  /** Tests only: accept endpoints on the loopback interface (a local push service). */
  allowLoopback: boolean;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Addresses the service must never be made to post to: loopback, private, link-local. */
function isInternalHost(hostname: string): boolean {
  if (LOOPBACK_HOSTS.has(hostname) || hostname.endsWith('.localhost') || hostname.endsWith('.internal') || hostname.endsWith('.local')) return true;
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare) === 4) {
    const [a = 0, b = 0] = bare.split('.').map(Number);
    return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  if (isIP(bare) === 6) return bare === '::1' || bare === '::' || /^f[cd]/i.test(bare) || /^fe[89ab]/i.test(bare) || bare.startsWith('::ffff:');
  return false;
}

/**
 * A push endpoint is where this service will POST: only public https URLs (no credentials, no
 * internal hosts), so a subscription cannot turn the service against the internal network.
 */
export function checkEndpoint(raw: string, policy: PushEndpointPolicy): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BadRequestException('endpoint must be an https URL');
  }
  if (url.username || url.password) throw new BadRequestException('endpoint must not carry credentials');
  if (url.protocol !== 'https:') throw new BadRequestException('endpoint must be an https URL');
  if (policy.allowLoopback && LOOPBACK_HOSTS.has(url.hostname)) return url.href;
  if (isInternalHost(url.hostname)) throw new BadRequestException('endpoint must be a public push service');
  return url.href;
}

const keyBytes = (value: string) => Buffer.from(value, 'base64url');

/** The caller's Web Push subscriptions: one per browser, found by its endpoint. */
export class PushService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly publicKey: string,
    private readonly policy: PushEndpointPolicy,
  ) {}

  key(): PushKeyDto {
    return { publicKey: this.publicKey };
  }

  async subscribe(caller: SignedInCaller, dto: PushSubscriptionDto): Promise<PushSubscribedDto> {
    const endpoint = checkEndpoint(dto.endpoint, this.policy);
    const p256dh = keyBytes(dto.keys.p256dh);
    if (p256dh.length !== 65 || p256dh[0] !== 0x04) throw new BadRequestException('keys.p256dh must be a 65-byte P-256 key in URL-safe base64');
    if (keyBytes(dto.keys.auth).length !== 16) throw new BadRequestException('keys.auth must be 16 bytes in URL-safe base64');
    const keys = { p256dh: p256dh.toString('base64url'), auth: keyBytes(dto.keys.auth).toString('base64url') };
    return this.dataSource.transaction(async (manager) => {
      // A browser has one subscription; signing in as someone else there hands it over.
      const existing = await manager.findOne(PushSubscription, { where: { endpoint }, lock: { mode: 'pessimistic_write' } });
      if (existing) {
        await manager.update(PushSubscription, { id: existing.id }, { userId: caller.userId, ...keys });
        return { id: existing.id };
      }
      const id = randomUUID();
      await manager.insert(PushSubscription, { id, userId: caller.userId, endpoint, ...keys });
      return { id };
    });
  }

  async unsubscribe(caller: SignedInCaller, dto: PushUnsubscribeDto): Promise<void> {
    const result = await this.dataSource.getRepository(PushSubscription).delete({ userId: caller.userId, endpoint: normalized(dto.endpoint) });
    if (!result.affected) throw new NotFoundException('Push subscription not found');
  }
}

function normalized(endpoint: string): string {
  try {
    return new URL(endpoint).href;
  } catch {
    return endpoint;
  }
}
