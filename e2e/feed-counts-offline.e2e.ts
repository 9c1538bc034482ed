import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { callApi, newAccount, type RegisteredAccount, registerThroughApi, signInWithToken } from './support/accounts.js';
import { journeyViewports, launchBrowser, type Viewport } from './support/browser.js';
import { makeClip, publishedTimelineWithClip } from './support/media.js';
import { type RunningProduct, startProduct } from './support/product.js';
import { heading, toast } from './support/screens.js';
import { dismissInstallPrompt, eventually, watchPages } from './support/watch.js';

const [, desktop] = journeyViewports as [Viewport, Viewport];
const OFFLINE = "You're offline. Showing what was loaded before; Timeliner updates by itself when the connection is back.";
const CANT_REACH = "Can't reach Timeliner";

/** A small PNG made by ffmpeg in a scratch folder. */
function makeImage(name: string): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'tl-e2e-image-')), name);
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=teal:s=320x180', '-frames:v', '1', file]);
  return file;
}

/**
 * What a new user hit in the feed, the studio and offline (issue: feed comments, offline, stale
 * counts, spec texts), in the browser against the real product: a comment on a feed card shows
 * and leaves likes and bookmarks working; a page opened offline shows what was seen a moment
 * before, marked as offline, and the app comes back by itself; the studio counts a creator's own
 * comment and a timeline's images; the spec's toasts where it places them.
 */
describe('feed comments, offline, counts and texts', () => {
  let product: RunningProduct;
  let browser: Browser;
  let creator: RegisteredAccount;
  let viewer: RegisteredAccount;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    product = await startProduct('e2efeedoffline');
    browser = await launchBrowser();
    creator = await registerThroughApi(product.baseUrl, newAccount('Berenice', 'Abbott'));
    viewer = await registerThroughApi(product.baseUrl, newAccount('Helen', 'Levitt'));
  }, 90_000);
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await product?.stop();
  }, 60_000);

  /** A signed-in page recording every problem (console errors, failed requests, error answers). */
  async function open(viewport: Viewport, token: string): Promise<{ page: Page; context: BrowserContext; problems: string[] }> {
    const context = await browser.newContext({ ...viewport.options, baseURL: product.baseUrl, reducedMotion: 'reduce' });
    contexts.push(context);
    context.setDefaultTimeout(20_000);
    const problems: string[] = [];
    watchPages(context, problems);
    await dismissInstallPrompt(context);
    await signInWithToken(context, token);
    return { page: await context.newPage(), context, problems };
  }

  async function publishedTimeline(title: string): Promise<string> {
    const created = await callApi<{ id: string }>(product.baseUrl, 'POST', '/api/timelines', { token: creator.token, body: { title, visibility: 'public' } });
    expect(created.status).toBe(201);
    expect((await callApi(product.baseUrl, 'PATCH', `/api/timelines/${created.body.id}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);
    return created.body.id;
  }

  const feed = (page: Page) => page.getByRole('feed', { name: 'For you' });
  const loadedFeed = (page: Page) => feed(page).and(page.locator('[aria-busy="false"]')).waitFor();
  const timelineCard = (page: Page, title: string) => feed(page).getByRole('article', { name: title, exact: true });

  /** Reloads until `card` shows (the feed is read once per load). */
  async function reloadUntilShown(page: Page, card: Locator): Promise<void> {
    await eventually('the card in the feed', async () => {
      if ((await card.count()) > 0) return true;
      await page.reload();
      await loadedFeed(page);
      return (await card.count()) > 0 || undefined;
    }, 20_000, 500);
  }

  /** The next answer to `method path` (a path under /api), with its status. */
  const answerTo = (page: Page, method: string, pathname: string) =>
    page.waitForResponse((response) => response.request().method() === method && new URL(response.url()).pathname === pathname);

  describe.each(journeyViewports)('on a $name', (viewport) => {
    it('comments on a timeline card: the comment shows, the box empties, and later likes and bookmarks reach the server', async () => {
      const title = `Night shift ${viewport.name} ${randomBytes(3).toString('hex')}`;
      const other = `Morning market ${viewport.name} ${randomBytes(3).toString('hex')}`;
      const id = await publishedTimeline(title);
      const otherId = await publishedTimeline(other);
      const { page, problems } = await open(viewport, viewer.token);
      await page.goto('/');
      await loadedFeed(page);
      const card = timelineCard(page, title);
      await reloadUntilShown(page, card);
      await reloadUntilShown(page, timelineCard(page, other));

      await card.getByRole('button', { name: 'Comments, 0 comments' }).click();
      await card.getByText('No comments yet.', { exact: true }).waitFor();
      const box = card.getByPlaceholder('Write a comment...');
      const words = `The second clip's light is lovely ${randomBytes(2).toString('hex')}`;
      await box.fill(`  ${words}  `);
      const saved = answerTo(page, 'POST', `/api/timelines/${id}/comments`);
      await box.press('Enter');
      expect((await saved).status()).toBe(201);
      await card.getByText(words, { exact: true }).waitFor();
      await card.getByRole('button', { name: 'Comments, 1 comment' }).waitFor();
      expect(await card.getByText('No comments yet.', { exact: true }).count()).toBe(0);
      expect(await box.inputValue()).toBe('');

      // Every later tap still reaches the server: a like and a bookmark here, a bookmark on another card.
      const liked = answerTo(page, 'POST', `/api/timelines/${id}/like`);
      await card.getByRole('button', { name: /^Like, / }).click();
      expect((await liked).status()).toBeLessThan(300);
      const bookmarked = answerTo(page, 'POST', `/api/timelines/${id}/bookmark`);
      await card.getByRole('button', { name: 'Bookmark', exact: true }).click();
      expect((await bookmarked).status()).toBeLessThan(300);
      const otherCard = timelineCard(page, other);
      const otherBookmarked = answerTo(page, 'POST', `/api/timelines/${otherId}/bookmark`);
      await otherCard.getByRole('button', { name: 'Bookmark', exact: true }).click();
      expect((await otherBookmarked).status()).toBeLessThan(300);

      // After a reload all of it holds: nothing was lost.
      await page.reload();
      await loadedFeed(page);
      await card.getByRole('button', { name: 'Like, 1 like', pressed: true }).waitFor();
      await card.getByRole('button', { name: 'Bookmark', pressed: true }).waitFor();
      await card.getByRole('button', { name: 'Comments, 1 comment' }).waitFor();
      await otherCard.getByRole('button', { name: 'Bookmark', pressed: true }).waitFor();
      expect(problems).toEqual([]);
    }, 90_000);

    it('offline: a reload shows what was just seen, marked offline; back online, the app catches up by itself', async () => {
      const title = `Harbour lights ${viewport.name} ${randomBytes(3).toString('hex')}`;
      await publishedTimeline(title);
      const { page, context } = await open(viewport, viewer.token);
      await page.goto('/');
      await loadedFeed(page);
      const card = timelineCard(page, title);
      await reloadUntilShown(page, card);
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      // The copy of what is shown is written within a second of a change.
      await page.waitForTimeout(1_500);

      await context.setOffline(true);
      await page.reload();
      await page.getByText(OFFLINE, { exact: true }).waitFor();
      await card.waitFor();
      expect(await heading(page, CANT_REACH).count()).toBe(0);

      // Something new happens meanwhile; once back online it shows without a reload.
      const post = `Back at the harbour ${randomBytes(3).toString('hex')}`;
      expect((await callApi(product.baseUrl, 'POST', '/api/posts', { token: creator.token, body: { content: post } })).status).toBe(201);
      await context.setOffline(false);
      await page.getByText(OFFLINE, { exact: true }).waitFor({ state: 'detached' });
      await feed(page).getByText(post, { exact: true }).waitFor();
    }, 90_000);

    it('offline with nothing kept: says it cannot reach Timeliner, then recovers by itself once back online', async () => {
      const { page, context } = await open(viewport, viewer.token);
      await page.goto('/');
      await loadedFeed(page);
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      await context.setOffline(true);
      // Nothing kept from before (a first visit in a while): the session cannot be checked. The
      // page keeps its cache as it is hidden, so the copy goes as the next page starts.
      await page.addInitScript(() => localStorage.removeItem('offline-cache'));
      await page.reload();
      await heading(page, CANT_REACH).waitFor();
      await context.setOffline(false);
      await loadedFeed(page);
      expect(await heading(page, CANT_REACH).count()).toBe(0);
    }, 60_000);
  });

  it('studio: the summary counts the creator’s own comments at once; the picker and studio cards count images too', async () => {
    const title = `Coastline ${randomBytes(3).toString('hex')}`;
    const id = await publishedTimelineWithClip(product.baseUrl, creator.token, title, makeClip('coast.mp4', 2));
    const form = new FormData();
    form.append('media', new Blob([readFileSync(makeImage('coast.png'))], { type: 'image/png' }), 'coast.png');
    const upload = await fetch(`${product.baseUrl}/api/timelines/${id}/media`, { method: 'POST', headers: { authorization: `Bearer ${creator.token}` }, body: form });
    expect(upload.status).toBeLessThan(300);
    await eventually('the image counted', async () => {
      const timeline = await callApi<{ imageCount?: number }>(product.baseUrl, 'GET', `/api/timelines/${id}`, { token: creator.token });
      return timeline.body.imageCount === 1 || undefined;
    }, 60_000, 500);

    const { page, problems } = await open(desktop, creator.token);
    await page.goto(`/timeline/${id}`);
    const summary = page.getByRole('region', { name: title });
    const stat = (label: string) => summary.locator('.stat-row__item').filter({ has: page.getByText(label, { exact: true }) }).locator('dd');
    await stat('Comments').waitFor();
    expect(await stat('Comments').innerText()).toBe('0');
    const comments = page.getByRole('form', { name: 'Add a comment' });
    for (const [index, words] of ['Tighten the intro', 'Swap clips two and three'].entries()) {
      await comments.getByLabel('Comment').fill(words);
      const saved = answerTo(page, 'POST', `/api/timelines/${id}/comments`);
      await comments.getByRole('button', { name: 'Add Comment' }).click();
      expect((await saved).status()).toBe(201);
      await page.getByRole('list', { name: 'Recent comments' }).getByText(words, { exact: true }).waitFor();
      expect(await stat('Comments').innerText()).toBe(String(index + 1));
    }
    await page.waitForTimeout(1_000);
    expect(await stat('Comments').innerText()).toBe('2');

    await page.goto('/studio');
    const studioCard = page.getByRole('article').filter({ has: page.getByRole('link', { name: title, exact: true }) });
    await studioCard.getByText('1 video', { exact: true }).waitFor();
    await studioCard.getByText('1 image', { exact: true }).waitFor();

    await page.goto('/');
    await page.getByRole('button', { name: 'Add videos' }).click();
    const picker = page.getByRole('dialog', { name: 'Select Timeline' });
    const item = picker.getByRole('list', { name: 'Your timelines' }).getByRole('button', { name: new RegExp(title) });
    await item.getByText('1 video', { exact: true }).waitFor();
    await item.getByText('1 image', { exact: true }).waitFor();
    expect(problems).toEqual([]);
  }, 150_000);

  it('texts: the composer says a post was shared; the studio says an upload started', async () => {
    const { page, problems } = await open(desktop, creator.token);
    await page.goto('/');
    const composer = page.getByRole('form', { name: 'Share a post' });
    await composer.getByPlaceholder('What timeline are you working on today?').fill(`Editing day ${randomBytes(3).toString('hex')}`);
    await composer.getByRole('button', { name: 'Share', exact: true }).click();
    await toast(page, 'Your post has been shared!').waitFor();

    const id = await publishedTimeline(`Postcards ${randomBytes(3).toString('hex')}`);
    await page.goto(`/timeline/${id}`);
    await page.getByLabel('Choose videos or images to upload').setInputFiles(makeImage('postcard.png'));
    await toast(page, 'Upload Started').waitFor({ timeout: 30_000 });
    await toast(page, 'Your image/video is being processed').waitFor();
    expect(problems).toEqual([]);
  }, 90_000);
});
