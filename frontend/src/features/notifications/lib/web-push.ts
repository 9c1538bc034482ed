import { addPushSubscription } from '../api/add-push-subscription';
import { getPushKey } from '../api/get-push-key';
import { removePushSubscription } from '../api/remove-push-subscription';

/** What this browser can do about push, as the settings screen explains it. */
export type PushSupport =
  | 'supported'
  /** iPhone and iPad: only an app added to the Home Screen may receive push (iOS 16.4+). */
  | 'needs-home-screen'
  | 'unsupported';

export type PushPermission = 'default' | 'granted' | 'denied';

const isAppleMobile = () => /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.userAgent.includes('Macintosh') && navigator.maxTouchPoints > 1);
const isStandalone = () => window.matchMedia?.('(display-mode: standalone)').matches === true || (navigator as Navigator & { standalone?: boolean }).standalone === true;

export function pushSupport(): PushSupport {
  const capable = 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
  if (isAppleMobile() && !isStandalone()) return 'needs-home-screen';
  return capable ? 'supported' : 'unsupported';
}

export const pushPermission = (): PushPermission => ('Notification' in window ? Notification.permission : 'denied');

/** The VAPID key as PushManager wants it: bytes from URL-safe base64. */
function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.ready;
  return registration.pushManager.getSubscription();
}

/** Whether this browser is subscribed for the signed-in person. */
export async function isPushSubscribed(): Promise<boolean> {
  if (pushSupport() !== 'supported' || pushPermission() !== 'granted') return false;
  return (await currentSubscription()) !== null;
}

/**
 * Asks permission (only now, when push is turned on), subscribes this browser with the service's
 * key and registers the subscription. Resolves to the permission the browser ended with.
 */
export async function enablePush(): Promise<PushPermission> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission;
  const publicKey = await getPushKey();
  const registration = await navigator.serviceWorker.ready;
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: applicationServerKey(publicKey) }));
  await addPushSubscription(subscription);
  return permission;
}

/** Stops push to this browser: the service forgets it, then the browser does. */
export async function disablePush(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await removePushSubscription(subscription.endpoint).catch(() => undefined);
  await subscription.unsubscribe();
}
