import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Locator, Page } from 'playwright-core';
import { callApi, newAccount, type RegisteredAccount, registerThroughApi, signInWithToken } from './support/accounts.js';
import { journeyViewports, launchBrowser, newContext } from './support/browser.js';
import { makeClip, publishedTimelineWithClip } from './support/media.js';
import { type RunningProduct, startProduct } from './support/product.js';
import { button, pathOf, toast } from './support/screens.js';

const bell = (page: Page): Locator => page.getByRole('button', { name: /^Notifications, / });

/**
 * Issue 28, abuse found in review: someone added to a timeline directly (an invitation to an
 * address that has an account) is told, and can leave it at once; a comment with many replies
 * shows the first few and "View N more replies"; a sensitive timeline opens behind a cover with
 * Show unless the viewer always shows sensitive media. Real Chromium, the real product, on a 390 px
 * phone and a 1366 px desktop.
 */
describe('safety: abuse found in review', () => {
  let product: RunningProduct;
  let browser: Browser;

  beforeAll(async () => {
    product = await startProduct('e2esafetyabuse');
    browser = await launchBrowser();
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  let clipTimeline: { id: string; owner: RegisteredAccount } | undefined;
  /** One public timeline with a processed clip, shared by both viewports' reply journeys. */
  async function timelineWithClip(): Promise<{ id: string; owner: RegisteredAccount }> {
    if (clipTimeline) return clipTimeline;
    const owner = await registerThroughApi(product.baseUrl, newAccount('Rui', 'Threads'));
    const id = await publishedTimelineWithClip(product.baseUrl, owner.token, 'Busy thread', makeClip('thread.mp4', 2));
    clipTimeline = { id, owner };
    return clipTimeline;
  }

  for (const viewport of journeyViewports) {
    it(`a comment with many replies shows the first three and loads the others on asking (${viewport.name})`, async () => {
      const { id, owner } = await timelineWithClip();
      const videos = await callApi<Array<{ id: string }>>(product.baseUrl, 'GET', `/api/timelines/${id}/videos`, { token: owner.token });
      const videoId = videos.body[0]!.id;
      const top = await callApi<{ id: string }>(product.baseUrl, 'POST', `/api/videos/${videoId}/comments`, { token: owner.token, body: { content: `Where was this? (${viewport.name})` } });
      expect(top.status).toBe(201);
      for (let i = 1; i <= 26; i += 1) {
        const answer = await callApi(product.baseUrl, 'POST', `/api/videos/${videoId}/comments/${top.body.id}/replies`, { token: owner.token, body: { content: `Answer ${i} ${viewport.name}` } });
        expect(answer.status).toBe(201);
      }
      const listed = await callApi<Array<{ replies: unknown[]; repliesCount: number; repliesCursor: string | null }>>(product.baseUrl, 'GET', `/api/videos/${videoId}/comments?limit=1`, { token: owner.token });
      expect([listed.body[0]!.replies.length, listed.body[0]!.repliesCount, typeof listed.body[0]!.repliesCursor]).toEqual([3, 26, 'string']);

      const { context, problems } = await newContext(browser, viewport, product.baseUrl);
      context.setDefaultTimeout(20_000);
      await signInWithToken(context, owner.token);
      const page = await context.newPage();
      await page.goto(`/watch/${id}`);
      await page.getByRole('button', { name: /^Comments, / }).click();
      // Both viewports comment on the one video: this viewport's thread.
      const dialog = page.getByRole('dialog', { name: 'Comments' }).getByRole('listitem').filter({ hasText: `Where was this? (${viewport.name})` });
      await dialog.getByText(`Answer 3 ${viewport.name}`, { exact: true }).waitFor();
      expect(await dialog.getByText(`Answer 4 ${viewport.name}`, { exact: true }).count()).toBe(0);
      await button(dialog, 'View 23 more replies').click();
      await dialog.getByText(`Answer 23 ${viewport.name}`, { exact: true }).waitFor();
      expect(await dialog.getByText(`Answer 24 ${viewport.name}`, { exact: true }).count()).toBe(0);
      await button(dialog, 'View 3 more replies').click();
      await dialog.getByText(`Answer 26 ${viewport.name}`, { exact: true }).waitFor();
      expect(await dialog.getByRole('button', { name: /more repl/ }).count()).toBe(0);
      expect(problems).toEqual([]);
      await context.close();
    }, 150_000);

    it(`a sensitive timeline opens behind a cover with Show, unless the viewer always shows sensitive media (${viewport.name})`, async () => {
      const { id, owner } = await timelineWithClip();
      expect((await callApi(product.baseUrl, 'PATCH', `/api/timelines/${id}`, { token: owner.token, body: { sensitive: true } })).status).toBe(200);
      const viewer = await registerThroughApi(product.baseUrl, newAccount('Vera', 'Viewer'));
      const { context, problems } = await newContext(browser, viewport, product.baseUrl);
      context.setDefaultTimeout(20_000);
      await signInWithToken(context, viewer.token);
      const page = await context.newPage();
      // Its card in the home feed waits behind the cover too.
      await page.goto('/');
      const card = page.getByRole('article').filter({ hasText: 'Busy thread' }).first();
      await card.getByTestId('sensitive-cover').getByText('Sensitive content', { exact: true }).waitFor();
      expect(await card.locator('video').count()).toBe(0);
      await page.goto(`/watch/${id}`);
      const cover = page.getByTestId('sensitive-cover');
      await cover.getByText('Sensitive content', { exact: true }).waitFor();
      expect(await page.locator('video').count()).toBe(0);
      await button(cover, 'Show').click();
      await page.locator('video').first().waitFor({ state: 'attached' });
      expect(await cover.count()).toBe(0);

      // Settings > Safety: always show sensitive media; the next visit opens straight away.
      await page.goto('/settings?tab=safety');
      const always = page.getByRole('switch', { name: 'Always show sensitive media' });
      await always.click();
      await page.getByRole('switch', { name: 'Always show sensitive media', checked: true }).waitFor();
      expect((await callApi<{ alwaysShowSensitive: boolean }>(product.baseUrl, 'GET', '/api/auth/preferences', { token: viewer.token })).body).toEqual({ alwaysShowSensitive: true });
      await page.goto(`/watch/${id}`);
      await page.locator('video').first().waitFor({ state: 'attached' });
      expect(await page.getByTestId('sensitive-cover').count()).toBe(0);
      expect((await callApi(product.baseUrl, 'PATCH', `/api/timelines/${id}`, { token: owner.token, body: { sensitive: false } })).status).toBe(200);
      expect(problems).toEqual([]);
      await context.close();
    }, 150_000);

    it(`a person added directly is told, and leaves the timeline at once (${viewport.name})`, async () => {
      const register = (first: string, last: string): Promise<RegisteredAccount> => registerThroughApi(product.baseUrl, newAccount(first, last));
      const [owner, joan] = [await register('Ana', 'Owner'), await register('Joan', 'Added')];
      const title = `Not asked for ${viewport.name}`;
      const created = await callApi<{ id: string }>(product.baseUrl, 'POST', '/api/timelines', { token: owner.token, body: { title, visibility: 'private' } });
      expect(created.status).toBe(201);
      const timelineId = created.body.id;
      const invited = await callApi<{ userExists: boolean }>(product.baseUrl, 'POST', `/api/timelines/${timelineId}/invite`, { token: owner.token, body: { email: joan.email } });
      expect([invited.status, invited.body.userExists]).toEqual([200, true]);

      const { context, problems } = await newContext(browser, viewport, product.baseUrl);
      context.setDefaultTimeout(20_000);
      await signInWithToken(context, joan.token);
      const page = await context.newPage();
      if (viewport.name === 'phone') {
        // The phone's notifications are a screen of their own.
        await page.goto('/notifications');
      } else {
        await page.goto('/');
        await page.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor();
        await bell(page).click();
        await page.getByRole('dialog', { name: 'Notifications' }).waitFor();
      }
      const told = page.getByTestId('notification').filter({ hasText: `Ana Owner added you as a collaborator on "${title}"` });
      await told.waitFor();
      await told.click();
      await page.waitForURL(`**/watch/${timelineId}`);

      // The timeline has no videos yet: its page offers to leave it; asked once, then gone.
      await button(page, 'Leave timeline').click();
      const dialog = page.getByRole('alertdialog', { name: 'Leave Timeline' });
      await dialog.waitFor();
      await expect(dialog.textContent()).resolves.toContain(`Leave "${title}"?`);
      await button(dialog, 'Leave').click();
      await toast(page, 'Left Timeline').waitFor();
      await page.waitForURL((url) => url.pathname === '/');
      expect(pathOf(page)).toBe('/');

      expect((await callApi(product.baseUrl, 'GET', `/api/timelines/${timelineId}`, { token: joan.token })).status).toBe(404);
      const team = await callApi<Array<{ userId: string }>>(product.baseUrl, 'GET', `/api/timelines/${timelineId}/collaborators`, { token: owner.token });
      expect(team.body.map((c) => c.userId)).toEqual([owner.id]);
      // Opening the old link again: not found, nothing to leave.
      await page.goto(`/watch/${timelineId}`);
      await page.getByRole('heading', { name: 'Timeline Not Found' }).waitFor();
      expect(await button(page, 'Leave timeline').count()).toBe(0);
      expect(problems).toEqual([]);
      await context.close();
    }, 90_000);
  }
});
