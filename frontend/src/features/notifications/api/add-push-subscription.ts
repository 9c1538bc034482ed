import { api, type ApiSchemas } from '../../../lib/api-client';

type PushSubscriptionBody = ApiSchemas['PushSubscriptionDto'];

/** Registers this browser's subscription for the signed-in person. */
export async function addPushSubscription(subscription: PushSubscription): Promise<void> {
  // The browser's JSON form of a subscription marks every field optional; a subscription it has
  // just made has them all, and the server refuses one that does not (400).
  const json = subscription.toJSON() as PushSubscriptionBody;
  await api.POST('/api/notifications/push-subscriptions', { body: json });
}
