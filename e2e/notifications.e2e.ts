import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Locator, Page } from 'playwright-core';
import { callApi, newAccount, type RegisteredAccount, registerThroughApi, signInWithToken } from './support/accounts.js';
import { launchBrowser, newContext, viewports } from './support/browser.js';
import { type RunningProduct, startProduct } from './support/product.js';
import { button, pathOf } from './support/screens.js';

const bell = (page: Page): Locator => page.getByRole('button', { name: /^Notifications, / });

/**
 * Issue 12: someone's likes and comment reach the owner's bell live (no reload), the list shows
 * the likes as one grouped entry, following it opens the timeline, and the badge clears. Real
 * Chromium, the real product, on a phone (full-screen list) and a desktop (popover).
 */
describe('notifications journey', () => {
  let product: RunningProduct;
  let browser: Browser;

  beforeAll(async () => {
    product = await startProduct('e2enotif');
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  for (const viewport of viewports) {
    it(`tells the owner at once and leads to the timeline (${viewport.name})`, async () => {
      const register = (first: string, last: string): Promise<RegisteredAccount> => registerThroughApi(product.baseUrl, newAccount(first, last));
      const [owner, ben, cy] = [await register('Ana', 'Owner'), await register('Ben', 'Liker'), await register('Cy', 'Liker')];
      const title = `Lisbon ${viewport.name}`;
      const created = await callApi<{ id: string }>(product.baseUrl, 'POST', '/api/timelines', { token: owner.token, body: { title, visibility: 'public' } });
      expect(created.status).toBe(201);
      const timelineId = created.body.id;
      expect((await callApi(product.baseUrl, 'PATCH', `/api/timelines/${timelineId}`, { token: owner.token, body: { status: 'published' } })).status).toBe(200);

      const { context, problems } = await newContext(browser, viewport, product.baseUrl);
      await signInWithToken(context, owner.token);
      const page = await context.newPage();
      await page.goto('/');
      await expect(bell(page).getAttribute('aria-label')).resolves.toBe('Notifications, none unread');
      // The bell listens on the socket before anything happens.
      await page.waitForFunction(() => performance.getEntriesByType('resource').length > 0);
      await page.waitForTimeout(500);

      expect((await callApi(product.baseUrl, 'POST', `/api/timelines/${timelineId}/like`, { token: ben.token })).status).toBe(200);
      expect((await callApi(product.baseUrl, 'POST', `/api/timelines/${timelineId}/comments`, { token: ben.token, body: { content: 'What a trip!' } })).status).toBe(201);
      expect((await callApi(product.baseUrl, 'POST', `/api/timelines/${timelineId}/like`, { token: cy.token })).status).toBe(200);

      // Live: well inside the 30 s poll, without a reload.
      const started = Date.now();
      await page.getByRole('button', { name: 'Notifications, 2 unread' }).waitFor({ timeout: 10_000 });
      expect(Date.now() - started).toBeLessThan(10_000);
      await expect(page.getByTestId('unread-badge').textContent()).resolves.toBe('2');

      await bell(page).click();
      if (viewport.name === 'phone') await page.waitForURL('**/notifications');
      else await page.getByRole('dialog', { name: 'Notifications' }).waitFor();
      const likes = page.getByTestId('notification').filter({ hasText: 'liked your timeline' });
      await likes.first().waitFor();
      expect(await likes.count()).toBe(1);
      await expect(likes.textContent()).resolves.toContain(`Cy Liker and Ben Liker liked your timeline "${title}"`);
      await expect(page.getByTestId('notification').filter({ hasText: 'Ben Liker commented on your timeline' }).count()).resolves.toBe(1);

      await likes.click();
      await page.waitForURL(`**/watch/${timelineId}`);
      expect(pathOf(page)).toBe(`/watch/${timelineId}`);

      await page.goBack();
      await page.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor();
      await bell(page).click();
      await button(page, 'Mark all read').click();
      await page.getByRole('button', { name: 'Notifications, none unread' }).waitFor();
      expect(await page.getByTestId('unread-badge').count()).toBe(0);
      expect(problems).toEqual([]);
      await context.close();
    }, 90_000);
  }
});
