import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Locator, Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { callApi, newAccount, type RegisteredAccount, registerThroughApi, signInWithToken } from './support/accounts.js';
import { launchBrowser, newContext, viewports } from './support/browser.js';
import { makeClip, publishedTimelineWithClip } from './support/media.js';
import { type RunningProduct, startProduct } from './support/product.js';
import { button, pathOf } from './support/screens.js';
import { eventually } from './support/watch.js';

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
      // The badge can reach 2 before Cy's like joins Ben's (it adds no unread notification): the
      // grown notification arrives over the socket, and the open list takes it in.
      await likes.filter({ hasText: `Cy Liker and Ben Liker liked your timeline "${title}"` }).waitFor();
      expect(await likes.count()).toBe(1);
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

  it('names the video, groups a batch of processed videos, and leads to the video, the post and the export file (desktop)', async () => {
    const desktop = viewports.find((v) => v.name === 'desktop')!;
    const owner = await registerThroughApi(product.baseUrl, newAccount('Dana', 'Maker'));
    const eli = await registerThroughApi(product.baseUrl, newAccount('Eli', 'Viewer'));
    const title = 'Harbour walk';
    const timelineId = await publishedTimelineWithClip(product.baseUrl, owner.token, title, makeClip('first-take.mp4', 2));
    const second = makeClip('second-take.mp4', 2);
    const form = new FormData();
    form.append('video', new Blob([readFileSync(second)], { type: 'video/mp4' }), path.basename(second));
    const upload = await fetch(`${product.baseUrl}/api/timelines/${timelineId}/videos`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: form });
    expect(upload.status).toBe(201);
    const videos = await eventually('both clips processed', async () => {
      const list = await callApi<Array<{ id: string; status: string; originalName: string }>>(product.baseUrl, 'GET', `/api/timelines/${timelineId}/videos`, { token: owner.token });
      return list.body.length === 2 && list.body.every((v) => v.status === 'completed') ? list.body : undefined;
    }, 90_000);
    const secondVideo = videos.find((v) => v.originalName === 'second-take.mp4')!;

    // Eli likes the second video and the owner's post; the owner exports the timeline.
    expect((await callApi(product.baseUrl, 'POST', `/api/videos/${secondVideo.id}/like`, { token: eli.token })).status).toBeLessThan(300);
    const post = await callApi<{ id: string }>(product.baseUrl, 'POST', '/api/posts', { token: owner.token, body: { content: 'Fresh harbour pictures' } });
    expect(post.status).toBe(201);
    expect((await callApi(product.baseUrl, 'POST', `/api/posts/${post.body.id}/like`, { token: eli.token })).status).toBeLessThan(300);
    const exported = await callApi<{ exportId: string; fileName: string }>(product.baseUrl, 'POST', `/api/timelines/${timelineId}/export`, { token: owner.token, body: { options: { title } } });
    expect(exported.status).toBe(200);

    type Entry = { type: string; kind: string; text: string; count: number };
    const entries = await eventually('the four notifications', async () => {
      const list = await callApi<Entry[]>(product.baseUrl, 'GET', '/api/notifications?limit=50', { token: owner.token });
      const types = list.body.map((e) => e.type).sort();
      return types.join() === 'export_ready,like,like,video_processed' ? list.body : undefined;
    }, 30_000);
    // The spec's field name, the batch as one entry, the video by its own name.
    expect(entries.every((e) => e.type === e.kind)).toBe(true);
    expect(entries.find((e) => e.type === 'video_processed')).toMatchObject({ count: 2, text: `2 of your videos in "${title}" are ready to watch` });

    const { context, problems } = await newContext(browser, desktop, product.baseUrl);
    await signInWithToken(context, owner.token);
    const page = await context.newPage();
    const entry = (text: string) => page.getByTestId('notification').filter({ hasText: text });
    await page.goto('/notifications');
    await entry('Eli Viewer liked your video "second-take.mp4"').waitFor();
    expect(await entry(`liked your video "${title}"`).count()).toBe(0);
    // What a system entry is about is drawn, not an empty circle.
    for (const text of ['2 of your videos', 'Your export']) {
      await expect(entry(text).getByTestId('notification-icon').locator('svg').count()).resolves.toBe(1);
    }

    // The liked video: the player opens at it, not at the timeline's first video.
    await entry('liked your video').click();
    await page.waitForURL((url) => url.pathname === `/watch/${timelineId}` && url.searchParams.get('video') === secondVideo.id);
    await page.getByText('2 of 2', { exact: true }).waitFor();

    // The post: its own page, not the owner's profile.
    await page.goto('/notifications');
    await entry('Eli Viewer liked your post').click();
    await page.waitForURL(`**/post/${post.body.id}`);
    await page.getByText('Fresh harbour pictures').first().waitFor();

    // The export: its file downloads.
    await page.goto('/notifications');
    const download = page.waitForEvent('download');
    await entry(`Your export "${title}" is ready to download`).click();
    await page.waitForURL(`**/exports/${exported.body.exportId}`);
    expect((await download).suggestedFilename()).toBe(exported.body.fileName);
    await page.getByRole('link', { name: 'Download again' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  }, 240_000);
});
