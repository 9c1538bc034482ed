import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { callApi, newAccount, type RegisteredAccount, registerThroughApi } from './support/accounts.js';
import { axeViolations } from './support/axe.js';
import { launchBrowser, viewports } from './support/browser.js';
import { type RunningProduct, startProduct } from './support/product.js';

/** axe-core's WCAG 2.1 A and AA rules and its best practices, on the page as it stands. */
async function violations(page: Page): Promise<string[]> {
  return (await axeViolations(page)).map((v) => v.summary);
}

/** Waits until the screen has loaded what it shows first (no "Loading..." left, no spinner). */
async function settled(page: Page): Promise<void> {
  await page.locator('main').first().waitFor();
  await page.waitForFunction(() => !/Loading(\.\.\.|…)/.test(document.body.innerText) && !document.querySelector('[role="progressbar"][aria-busy="true"], .spinner'), undefined, { timeout: 15_000 });
  // Fonts, images and transitions finish settling (contrast is read from what is painted).
  await page.waitForTimeout(300);
}

/**
 * Every main screen, signed out and signed in, on a phone and on a desktop, checked with axe-core
 * (WCAG 2.1 A/AA and best practices): no violation of any impact.
 */
describe('accessibility of every main screen', () => {
  let product: RunningProduct;
  let browser: Browser;
  let creator: RegisteredAccount;
  let viewer: RegisteredAccount;
  let timelineId: string;

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tl-e2e-a11y-'));
    const clip = path.join(dir, 'clip.mp4');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25', '-t', '4', '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', clip]);
    product = await startProduct('e2ea11y');
    browser = await launchBrowser();
    creator = await registerThroughApi(product.baseUrl, newAccount('Chantal', 'Akerman'));
    viewer = await registerThroughApi(product.baseUrl, newAccount('Jacques', 'Demy'));
    const created = await callApi<{ id: string }>(product.baseUrl, 'POST', '/api/timelines', {
      token: creator.token,
      body: { title: 'Jeanne at home', description: 'Three days in a kitchen #film', visibility: 'public' },
    });
    timelineId = created.body.id;
    const form = new FormData();
    form.append('video', new Blob([readFileSync(clip)], { type: 'video/mp4' }), 'kitchen.mp4');
    const uploaded = await fetch(`${product.baseUrl}/api/timelines/${timelineId}/videos`, { method: 'POST', headers: { authorization: `Bearer ${creator.token}` }, body: form });
    expect(uploaded.status).toBe(201);
    const deadline = Date.now() + 90_000;
    while ((await callApi<Array<{ status: string }>>(product.baseUrl, 'GET', `/api/timelines/${timelineId}/videos`, { token: creator.token })).body[0]?.status !== 'completed') {
      if (Date.now() > deadline) throw new Error('the clip was not processed');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect((await callApi(product.baseUrl, 'PATCH', `/api/timelines/${timelineId}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);
    expect((await callApi(product.baseUrl, 'POST', '/api/posts', { token: creator.token, body: { content: 'A new timeline is up #film' } })).status).toBe(201);
    expect((await callApi(product.baseUrl, 'POST', `/api/users/${creator.id}/follow`, { token: viewer.token })).status).toBe(200);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  }, 60_000);

  const screens = (): Array<{ name: string; path: string; as: RegisteredAccount | null }> => [
    { name: 'sign-in', path: '/', as: null },
    { name: 'home', path: '/', as: viewer },
    { name: 'watch', path: `/watch/${timelineId}`, as: viewer },
    { name: 'search', path: '/search', as: viewer },
    { name: 'profile', path: `/profile/${creator.id}`, as: viewer },
    { name: 'own profile', path: `/profile/${viewer.id}`, as: viewer },
    { name: 'collections', path: '/collections', as: viewer },
    { name: 'saved', path: '/saved', as: viewer },
    { name: 'settings', path: '/settings', as: viewer },
    { name: 'studio', path: '/studio', as: creator },
    { name: 'dashboard', path: '/dashboard', as: creator },
    { name: 'timeline studio', path: `/timeline/${timelineId}`, as: creator },
  ];

  it.each(viewports.map((viewport) => [viewport.name, viewport] as const))('%s: no axe violation on any screen', async (_name, viewport) => {
    const found: string[] = [];
    for (const screen of screens()) {
      // A context per screen: a clean start, as someone arriving by a link.
      const context = await browser.newContext({ ...viewport.options, baseURL: product.baseUrl, bypassCSP: true });
      if (screen.as) {
        await context.addInitScript((token: string) => {
          try {
            localStorage.setItem('authToken', token);
          } catch {
            // about:blank has no storage
          }
        }, screen.as.token);
      }
      const page = await context.newPage();
      await page.goto(screen.path);
      await settled(page);
      found.push(...(await violations(page)).map((v) => `${screen.name}: ${v}`));
      await context.close();
    }
    expect(found).toEqual([]);
  }, 240_000);
});
