import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Browser, devices } from 'playwright-core';
import { launchBrowser, newContext, viewports } from './support/browser.js';
import { type RunningProduct, startProduct } from './support/product.js';

/** Spec 000 section 4 and DESIGN.md: installable, works offline, install prompt only on phones. */
describe('installable app', () => {
  let product: RunningProduct;
  let browser: Browser;

  beforeAll(async () => {
    product = await startProduct('e2epwa');
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('serves a manifest with the icons an install needs', async () => {
    const manifest = await (await fetch(`${product.baseUrl}/manifest.webmanifest`)).json();
    expect(manifest).toMatchObject({ start_url: '/', display: 'standalone' });
    // The installed app turns with the phone, so a 16:9 video can fill a landscape screen.
    expect(manifest.orientation ?? 'any').toBe('any');
    const sizes = (manifest.icons as Array<{ sizes: string; src: string }>).map((i) => i.sizes);
    expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
    for (const icon of manifest.icons as Array<{ src: string; type: string }>) {
      const res = await fetch(new URL(icon.src, product.baseUrl));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(icon.type);
    }
  });

  it('sends a first visit its JavaScript compressed, within the 150 KB budget as transferred', async () => {
    const { context } = await newContext(browser, viewports[0]!, product.baseUrl);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const scripts = new Map<string, { url: string; encoding: string | undefined; bytes: number; decoded: number }>();
    cdp.on('Network.responseReceived', ({ requestId, response, type }) => {
      if (type === 'Script') scripts.set(requestId, { url: response.url, encoding: response.headers['content-encoding'] ?? response.headers['Content-Encoding'], bytes: 0, decoded: 0 });
    });
    cdp.on('Network.dataReceived', ({ requestId, dataLength }) => {
      const script = scripts.get(requestId);
      if (script) script.decoded += dataLength;
    });
    cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
      const script = scripts.get(requestId);
      if (script) script.bytes = encodedDataLength;
    });
    await page.goto('/');
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
    await page.waitForLoadState('networkidle');
    const loaded = [...scripts.values()].filter((s) => s.bytes > 0);
    expect(loaded.length).toBeGreaterThan(0);
    // Every script of more than a kilobyte travels brotli-compressed.
    for (const script of loaded.filter((s) => s.decoded > 1_024)) expect([script.url, script.encoding]).toEqual([script.url, 'br']);
    const total = loaded.reduce((sum, s) => sum + s.bytes, 0);
    expect(total).toBeLessThanOrEqual(150_000);
    await context.close();
  }, 30_000);

  it('keeps the app shell working offline once the service worker is installed', async () => {
    const { context, problems } = await newContext(browser, viewports[1]!, product.baseUrl);
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
    await page.goto('/search?q=offline');
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  }, 30_000);

  it('guides iPhone users in three steps, and a dismissal holds for 7 days', async () => {
    const context = await browser.newContext({ ...devices['iPhone 13'], baseURL: product.baseUrl });
    const page = await context.newPage();
    await page.goto('/');
    const prompt = page.getByRole('region', { name: /install/i });
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
    // Offered once the person starts using the page, not before.
    await page.waitForTimeout(3_500);
    expect(await page.getByRole('button', { name: 'Got it!' }).count()).toBe(0);
    await page.keyboard.press('Shift');
    await page.getByRole('button', { name: 'Got it!' }).waitFor();
    const guide = await prompt.innerText();
    expect(guide).toMatch(/Share/);
    expect(guide).toContain("Add to Home Screen");
    expect(guide).toMatch(/Add/);
    await page.getByRole('button', { name: 'Got it!' }).click();
    const dismissed = Number(await page.evaluate(() => localStorage.getItem('pwa-install-dismissed')));
    expect(Date.now() - dismissed).toBeLessThan(60_000);
    await page.reload();
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
    await page.keyboard.press('Shift');
    await page.waitForTimeout(3_500);
    expect(await page.getByRole('button', { name: 'Got it!' }).count()).toBe(0);
    await context.close();
  }, 30_000);

  it('shows nothing to install on a desktop', async () => {
    const { context } = await newContext(browser, viewports[1]!, product.baseUrl);
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
    await page.waitForTimeout(3_500);
    expect(await page.getByText("Add to Home Screen").count()).toBe(0);
    await context.close();
  }, 30_000);
});
