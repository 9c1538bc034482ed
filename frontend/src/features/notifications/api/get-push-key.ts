import { api, unwrap } from '../../../lib/api-client';

/** The service's VAPID public key (URL-safe base64), for subscribing a browser. */
export async function getPushKey(): Promise<string> {
  return (await unwrap(api.GET('/api/notifications/push-key'))).publicKey;
}
