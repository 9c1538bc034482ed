import { BadRequestException, ConflictException, NotFoundException } from '@nestjs/common';
import { OutboundAddressError, type OutboundAddressGuard, type SignedInCaller } from '@timeliner/platform';
import type { PushKeyDto, PushSubscribedDto, PushSubscriptionDto, PushUnsubscribeDto } from './push.dto.js';
import { EndpointTakenError, type PushSubscriptionRepository } from './push-subscription.repository.js';

export interface PushSubscriptionRules {
  /** What endpoints must pass: the push sender's own guard, so subscribing and sending judge alike. */
  guard: OutboundAddressGuard;
  /** Subscriptions kept per person; registering one more drops their oldest. */
  perPerson: number;
}

const ENDPOINT_MESSAGES: Record<OutboundAddressError['reason'], string> = {
  'invalid-url': 'endpoint must be an https URL',
  protocol: 'endpoint must be an https URL',
  credentials: 'endpoint must not carry credentials',
  'host-not-allowed': 'endpoint must be on a push service this server sends to',
  'not-public': 'endpoint must be a public push service',
  unresolved: "endpoint's host does not resolve",
};

/**
 * A push endpoint is where this service will POST: an https URL without credentials whose host
 * (on the allow-list, when one is set) resolves only to public addresses, so a subscription cannot
 * turn the service against the internal network. The sender checks again when it connects.
 */
export async function checkEndpoint(raw: string, guard: OutboundAddressGuard): Promise<string> {
  try {
    return (await guard.check(raw)).href;
  } catch (error) {
    if (error instanceof OutboundAddressError) throw new BadRequestException(ENDPOINT_MESSAGES[error.reason]);
    throw error;
  }
}

const keyBytes = (value: string) => Buffer.from(value, 'base64url');

/** The caller's Web Push subscriptions: one per browser, found by its endpoint. */
export class PushService {
  constructor(
    private readonly subscriptions: PushSubscriptionRepository,
    private readonly publicKey: string,
    private readonly rules: PushSubscriptionRules,
  ) {}

  key(): PushKeyDto {
    return { publicKey: this.publicKey };
  }

  /**
   * One subscription per browser (endpoint). The same browser again updates it; a browser signed
   * into another account moves to that account only if the request carries the keys it was
   * registered with (the browser's own: whoever merely knows an endpoint cannot take it over).
   * A person keeps at most `perPerson` subscriptions: one more drops their oldest.
   */
  async subscribe(caller: SignedInCaller, dto: PushSubscriptionDto): Promise<PushSubscribedDto> {
    const p256dh = keyBytes(dto.keys.p256dh);
    if (p256dh.length !== 65 || p256dh[0] !== 0x04) throw new BadRequestException('keys.p256dh must be a 65-byte P-256 key in URL-safe base64');
    if (keyBytes(dto.keys.auth).length !== 16) throw new BadRequestException('keys.auth must be 16 bytes in URL-safe base64');
    const keys = { p256dh: p256dh.toString('base64url'), auth: keyBytes(dto.keys.auth).toString('base64url') };
    const endpoint = await checkEndpoint(dto.endpoint, this.rules.guard);
    try {
      return { id: await this.subscriptions.register(caller.userId, endpoint, keys, this.rules.perPerson) };
    } catch (error) {
      // Another account registered the same endpoint at the same moment.
      if (error instanceof EndpointTakenError || (error as { code?: string }).code === '23505') throw new ConflictException('This push endpoint is registered with other keys');
      throw error;
    }
  }

  async unsubscribe(caller: SignedInCaller, dto: PushUnsubscribeDto): Promise<void> {
    if (!(await this.subscriptions.remove(caller.userId, normalized(dto.endpoint)))) throw new NotFoundException('Push subscription not found');
  }
}

function normalized(endpoint: string): string {
  try {
    return new URL(endpoint).href;
  } catch {
    return endpoint;
  }
}
