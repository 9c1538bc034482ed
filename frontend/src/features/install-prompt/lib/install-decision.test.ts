import { describe, expect, it } from '@jest/globals';
import { decideInstallPrompt, DISMISS_DURATION_MS, readDismissedAt, type InstallEnvironment } from './install-decision';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const IPAD_DESKTOP_UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

const now = Date.parse('2025-06-01T12:00:00Z');

function env(overrides: Partial<InstallEnvironment>): InstallEnvironment {
  return {
    userAgent: DESKTOP,
    maxTouchPoints: 0,
    viewportWidth: 1280,
    standalone: false,
    dismissedAt: null,
    now,
    canPromptInstall: false,
    ...overrides,
  };
}

describe('install prompt decision', () => {
  it('shows the iOS guide on iPhone and on iPad (desktop user agent with touch)', () => {
    expect(decideInstallPrompt(env({ userAgent: IPHONE, viewportWidth: 390 }))).toBe('ios');
    expect(decideInstallPrompt(env({ userAgent: IPAD_DESKTOP_UA, maxTouchPoints: 5, viewportWidth: 1024 }))).toBe('ios');
  });

  it('shows the install card on Android when the browser offers installation', () => {
    expect(decideInstallPrompt(env({ userAgent: ANDROID, viewportWidth: 412, canPromptInstall: true }))).toBe('android');
  });

  it('shows the menu hint on other mobile devices', () => {
    expect(decideInstallPrompt(env({ userAgent: ANDROID, viewportWidth: 412 }))).toBe('other');
    expect(decideInstallPrompt(env({ userAgent: DESKTOP, viewportWidth: 768 }))).toBe('other');
  });

  it('shows nothing on the desktop, even when installation is offered', () => {
    expect(decideInstallPrompt(env({}))).toBe('none');
    expect(decideInstallPrompt(env({ viewportWidth: 769, canPromptInstall: true }))).toBe('none');
    expect(decideInstallPrompt(env({ userAgent: IPAD_DESKTOP_UA, maxTouchPoints: 0 }))).toBe('none');
  });

  it('shows nothing when the app already runs installed', () => {
    expect(decideInstallPrompt(env({ userAgent: IPHONE, standalone: true }))).toBe('none');
  });

  it('stays hidden for 7 days after a dismissal', () => {
    const iphone = { userAgent: IPHONE, viewportWidth: 390 };
    expect(decideInstallPrompt(env({ ...iphone, dismissedAt: now - 1000 }))).toBe('none');
    expect(decideInstallPrompt(env({ ...iphone, dismissedAt: now - DISMISS_DURATION_MS + 1000 }))).toBe('none');
    expect(decideInstallPrompt(env({ ...iphone, dismissedAt: now - DISMISS_DURATION_MS }))).toBe('ios');
    expect(decideInstallPrompt(env({ ...iphone, dismissedAt: now - 8 * 24 * 3600 * 1000 }))).toBe('ios');
  });

  it('reads the stored dismissal timestamp', () => {
    expect(readDismissedAt(null)).toBeNull();
    expect(readDismissedAt('1717243200000')).toBe(1717243200000);
    expect(readDismissedAt('garbage')).toBeNull();
  });
});
