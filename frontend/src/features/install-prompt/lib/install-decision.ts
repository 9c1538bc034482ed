import { MOBILE_BREAKPOINT } from '../../../lib/viewport';

export const DISMISSED_KEY = 'pwa-install-dismissed';
export const DISMISS_DURATION_MS = 7 * 24 * 60 * 60 * 1000;

/** What the install prompt shows: iOS steps, the browser's install offer, a hint, or nothing. */
export type InstallPromptKind = 'none' | 'ios' | 'android' | 'other';

export interface InstallEnvironment {
  userAgent: string;
  /** navigator.maxTouchPoints: iPadOS reports a desktop user agent but has touch. */
  maxTouchPoints: number;
  viewportWidth: number;
  /** The app already runs installed (display-mode standalone). */
  standalone: boolean;
  /** When the prompt was last dismissed (ms since the epoch), if ever. */
  dismissedAt: number | null;
  now: number;
  /** The browser offered installation (a `beforeinstallprompt` event was kept). */
  canPromptInstall: boolean;
}

export function isIos(userAgent: string, maxTouchPoints: number): boolean {
  return /iPad|iPhone|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1);
}

export function isAndroid(userAgent: string): boolean {
  return /Android/i.test(userAgent);
}

/** Mobile is an iOS or Android device, or a window 768 px wide or narrower (spec 000, section 4). */
export function isMobileDevice(env: Pick<InstallEnvironment, 'userAgent' | 'maxTouchPoints' | 'viewportWidth'>): boolean {
  return isIos(env.userAgent, env.maxTouchPoints) || isAndroid(env.userAgent) || env.viewportWidth <= MOBILE_BREAKPOINT;
}

export function readDismissedAt(value: string | null): number | null {
  if (value === null) return null;
  const time = Number.parseInt(value, 10);
  return Number.isFinite(time) ? time : null;
}

export function decideInstallPrompt(env: InstallEnvironment): InstallPromptKind {
  if (env.standalone || !isMobileDevice(env)) return 'none';
  if (env.dismissedAt !== null && env.now - env.dismissedAt < DISMISS_DURATION_MS) return 'none';
  if (isIos(env.userAgent, env.maxTouchPoints)) return 'ios';
  if (env.canPromptInstall) return 'android';
  return 'other';
}
