import { type Browser, type BrowserContext, chromium, devices } from 'playwright-core';

/** The system Chromium; no browser is ever downloaded. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** `extraArgs`: e.g. FAKE_CAMERA, for journeys that record. */
export const launchBrowser = (extraArgs: string[] = []): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic', ...extraArgs],
  });

/** Chromium's built-in test camera and microphone, granted without a prompt. */
export const FAKE_CAMERA = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'];

export interface Viewport {
  name: string;
  options: Parameters<Browser['newContext']>[0];
}

/** Every journey runs on a phone and on a desktop. */
export const viewports: Viewport[] = [
  { name: 'phone', options: { ...devices['Pixel 7'] } },
  { name: 'desktop', options: { viewport: { width: 1280, height: 800 } } },
];

/** The issue reports' devices: a 390x844 touch phone and a 1366x900 desktop. */
export const journeyViewports: Viewport[] = [
  { name: 'phone', options: { ...devices['Pixel 7'], viewport: { width: 390, height: 844 }, screen: { width: 390, height: 844 } } },
  { name: 'desktop', options: { viewport: { width: 1366, height: 900 } } },
];

/** A fresh context that fails the test on any page error or CSP violation. */
export async function newContext(browser: Browser, viewport: Viewport, baseURL: string): Promise<{ context: BrowserContext; problems: string[] }> {
  const context = await browser.newContext({ ...viewport.options, baseURL });
  const problems: string[] = [];
  context.on('page', (page) => {
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error' && /Content Security Policy|Refused to/.test(msg.text())) problems.push(`CSP: ${msg.text()}`);
    });
  });
  return { context, problems };
}
