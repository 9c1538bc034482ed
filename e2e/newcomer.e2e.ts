import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { callApi, newAccount, type RegisteredAccount, registerThroughApi, signInWithToken } from './support/accounts.js';
import { launchBrowser, newContext, type Viewport, viewports } from './support/browser.js';
import { type RunningProduct, startProduct } from './support/product.js';
import { makeClip, publishedTimelineWithClip } from './support/media.js';
import { heading } from './support/screens.js';
import { eventually } from './support/watch.js';

const [phone, desktop] = viewports as [Viewport, Viewport];

/**
 * What a new person hit in their first hour, in the browser: a viewer whose clock says UTC is
 * counted; a page for something that does not exist says so at once, without retrying; someone
 * invited to watch finds the timeline in their Creator Studio; a desktop has the timeline picker
 * and the dashboard within reach.
 */
describe('a newcomer’s first hour', () => {
  let product: RunningProduct;
  let browser: Browser;
  let creator: RegisteredAccount;
  let viewer: RegisteredAccount;
  let timelineId: string;
  const title = 'Low tide at the pier';

  beforeAll(async () => {
    const clip = makeClip('low-tide.mp4', 4);
    product = await startProduct('e2enewcomer');
    browser = await launchBrowser();
    creator = await registerThroughApi(product.baseUrl, newAccount('Dorothea', 'Lange'));
    viewer = await registerThroughApi(product.baseUrl, newAccount('Walker', 'Evans'));
    timelineId = await publishedTimelineWithClip(product.baseUrl, creator.token, title, clip);
  }, 150_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  }, 60_000);

  async function signedIn(viewport: Viewport, token: string, options: { timezoneId?: string } = {}) {
    const { context, problems } = await newContext(browser, { ...viewport, options: { ...viewport.options, ...options } }, product.baseUrl);
    await signInWithToken(context, token);
    return { context, problems, page: await context.newPage() };
  }

  it('counts a viewer whose browser says UTC', async () => {
    const { context, problems, page } = await signedIn(phone, viewer.token, { timezoneId: 'UTC' });
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('UTC');
    await page.goto(`/watch/${timelineId}`);
    await page.waitForFunction(() => {
      const video = document.querySelector('video');
      return !!video && video.currentTime >= 1;
    }, undefined, { timeout: 30_000 });

    // Leaving the video records the view, with the browser's zone.
    const recorded = page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith(`/api/timelines/${timelineId}/views`));
    await page.getByRole('button', { name: 'Back' }).click();
    const request = await recorded;
    expect(request.postDataJSON()).toMatchObject({ timeZone: 'UTC' });
    expect((await request.response())?.status()).toBe(204);

    const views = await eventually('the view counted', async () => {
      const answer = await callApi<{ views: number }>(product.baseUrl, 'GET', `/api/timelines/${timelineId}`, { token: creator.token });
      return answer.body.views > 0 ? answer.body.views : undefined;
    });
    expect(views).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('says at once that a timeline or a profile does not exist, asking the API once', async () => {
    const { context, page } = await signedIn(phone, viewer.token);
    const missing = randomUUID();
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes(`/api/`) && request.url().includes(missing)) asked.push(new URL(request.url()).pathname);
    });
    const screens: Array<[string, string]> = [
      [`/timeline/${missing}`, 'Timeline not found'],
      [`/watch/${missing}`, 'Timeline Not Found'],
      [`/profile/${missing}`, 'Invalid Profile'],
    ];
    for (const [at, says] of screens) {
      asked.length = 0;
      const started = Date.now();
      await page.goto(at);
      await heading(page, says).waitFor({ timeout: 10_000 });
      const took = Date.now() - started;
      await page.waitForLoadState('networkidle');
      // Retrying a 404 held the screen on "Loading..." for about 8 s; a 404 is an answer.
      expect([at, took < 5_000, took]).toEqual([at, true, took]);
      expect([at, asked.length > 0, new Set(asked).size === asked.length, asked]).toEqual([at, true, true, asked]);
    }
    await context.close();
  }, 60_000);

  it('shows someone invited to watch the timeline in their Creator Studio', async () => {
    const invited = await registerThroughApi(product.baseUrl, newAccount('Gordon', 'Parks'));
    const invite = await callApi(product.baseUrl, 'POST', `/api/timelines/${timelineId}/invite`, { token: creator.token, body: { email: invited.email, role: 'viewer' } });
    expect(invite.status).toBe(200);

    const { context, problems, page } = await signedIn(desktop, invited.token);
    await page.goto('/studio');
    const watching = page.getByRole('list', { name: 'Timelines shared with you to watch' });
    const card = watching.getByRole('listitem').filter({ hasText: title });
    await card.getByText('Shared with you · Viewer', { exact: true }).waitFor();
    await card.getByRole('link', { name: title, exact: true }).click();
    await page.waitForURL(`**/watch/${timelineId}`);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('opens the timeline picker and the dashboard from a desktop’s header', async () => {
    const { context, problems, page } = await signedIn(desktop, creator.token);
    await page.goto('/');
    await page.getByRole('button', { name: 'Add videos' }).click();
    const picker = page.getByRole('dialog', { name: 'Select Timeline' });
    await picker.getByRole('list', { name: 'Your timelines' }).getByRole('button', { name: new RegExp(title) }).click();
    await page.waitForURL(`**/timeline/${timelineId}?tab=upload`);
    await heading(page, title).waitFor();

    await page.getByRole('button', { name: `account menu for ${creator.displayName}` }).click();
    await page.getByRole('menuitem', { name: 'Dashboard' }).click();
    await page.waitForURL('**/dashboard');
    await heading(page, 'Experiences Dashboard').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});
