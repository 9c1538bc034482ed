import { api } from '../../../lib/api-client';

/** The service forgets this browser's subscription. */
export async function removePushSubscription(endpoint: string): Promise<void> {
  await api.DELETE('/api/notifications/push-subscriptions', { body: { endpoint } });
}
