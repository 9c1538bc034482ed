import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { callApi, newAccount, type RegisteredAccount, registerThroughApi, signInWithToken } from './support/accounts.js';
import { journeyViewports, launchBrowser } from './support/browser.js';
import { makeClip } from './support/media.js';
import { type RunningProduct, startProduct } from './support/product.js';
import { dismissInstallPrompt, eventually, watchPages } from './support/watch.js';
import { button, toast } from './support/screens.js';

const COMPOSER_PROMPT = 'What timeline are you working on today?';
const EMPTY_POST = 'Please enter something to share';
const SPONSORED = 'Sponsored';
const EMPTY_FEED = 'No posts or timelines yet. Create your first timeline or share a post!';


const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface FeedItemAnswer {
  type: 'post' | 'timeline';
  id: string;
  timeline?: { id: string; coverMediaId: string | null };
}

/**
 * Spec 000 section 2 (home feed, timeline card, text post card, share dialogs), 4, 5, 8 and 9: two
 * people share, like, comment on, bookmark and follow through the home feed; a timeline made
 * public and published reaches it, its share is counted; sponsored blocks sit where the spec puts
 * them and stay dismissed; a timeline's video plays in the feed only while on screen. Real
 * Chromium, the real product, on a phone and on a desktop.
 */
describe('home feed journeys', () => {
  let product: RunningProduct;
  let browser: Browser;
  let clip: string;

  beforeAll(async () => {
    clip = makeClip('clip.mp4', 4);
    product = await startProduct('e2efeed');
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  describe.each(journeyViewports)('on a $name', (viewport) => {
    const opened: { context: BrowserContext; problems: string[]; label: string }[] = [];
    let ann: RegisteredAccount | undefined;
    let ben: RegisteredAccount | undefined;
    let benPage: Page | undefined;

    afterAll(async () => {
      for (const { context } of opened) await context.close().catch(() => undefined);
    });

    /**
     * A signed-in context (clipboard allowed, reduced motion) that records every page error,
     * console error, failed request and error answer, except the known missing notification count
     * and requests cancelled by a reload or a detached video.
     */
    async function open(label: string, token: string): Promise<Page> {
      const context = await browser.newContext({ ...viewport.options, baseURL: product.baseUrl, reducedMotion: 'reduce' });
      context.setDefaultTimeout(20_000);
      context.setDefaultNavigationTimeout(30_000);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: product.baseUrl });
      const problems: string[] = [];
      opened.push({ context, problems, label });
      watchPages(context, problems, { warnings: /Feed video could not load|HLS playback failed|Could not load the HLS player/ });
      await dismissInstallPrompt(context);
      await signInWithToken(context, token);
      return context.newPage();
    }

    const noProblems = () => expect(opened.flatMap(({ label, problems }) => problems.map((p) => `${label}: ${p}`))).toEqual([]);

    function need<T>(value: T | undefined, what: string): T {
      if (value === undefined) throw new Error(`${what} is missing: an earlier journey on this ${viewport.name} failed`);
      return value;
    }

    async function openHome(page: Page, who: RegisteredAccount): Promise<void> {
      await page.goto('/');
      // Signed in as `who`: the account menu names them (whatever its wording around the name).
      await page.getByRole('button', { name: new RegExp(`account menu for ${who.displayName}$`, 'i') }).waitFor();
      await page.getByRole('form', { name: 'Share a post' }).getByPlaceholder(COMPOSER_PROMPT).waitFor();
      await page.getByRole('tab', { name: 'For you', selected: true }).waitFor();
      await loadedFeed(page);
    }

    const feed = (page: Page, tab = 'For you') => page.getByRole('feed', { name: tab });
    /** The first page's cards, or the empty feed's text: not the empty list that stands in for them for the column's first render. */
    const loadedFeed = (page: Page) => feed(page).and(page.locator('[aria-busy="false"]')).or(page.getByText(EMPTY_FEED, { exact: true })).waitFor();
    const postCard = (page: Page, content: string, tab?: string) => feed(page, tab).getByRole('article').filter({ has: page.getByText(content, { exact: true }) });
    const timelineCard = (page: Page, title: string) => feed(page).getByRole('article', { name: title, exact: true });
    const likeButton = (card: Locator) => card.getByRole('button', { name: /^Like, / });
    const commentsButton = (card: Locator) => card.getByRole('button', { name: /^Comments, / });
    const bookmarkButton = (card: Locator) => card.getByRole('button', { name: 'Bookmark', exact: true });

    /** Reloads until `card` shows (the feed is read once per load). */
    async function reloadUntilShown(page: Page, card: Locator, what: string, timeoutMs = 15_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if ((await card.count()) > 0) return;
        if (Date.now() > deadline) throw new Error(`${what} did not reach the feed`);
        await sleep(750);
        await page.reload();
        await loadedFeed(page);
      }
    }

    it('posts: A shares through the composer; B likes, comments, bookmarks, follows; it all holds after a reload; A sees it', async () => {
      const tag = randomBytes(3).toString('hex');
      const a = await registerThroughApi(product.baseUrl, newAccount('Ann', 'Author'));
      const b = await registerThroughApi(product.baseUrl, newAccount('Ben', 'Reader'));
      const content = `Editing the harbour timeline today ${tag}`;
      const comment = `Looks great, Ann ${tag}`;

      const pageA = await open('A', a.token);
      await openHome(pageA, a);
      const composer = pageA.getByRole('form', { name: 'Share a post' });
      const box = composer.getByPlaceholder(COMPOSER_PROMPT);
      // Blank (only spaces) is refused with the spec's words.
      await box.fill('   ');
      await button(composer, 'Share').click();
      await toast(pageA, EMPTY_POST).waitFor();
      await box.fill(`  ${content}  `);
      await button(composer, 'Share').click();
      await postCard(pageA, content).waitFor();
      expect(await box.inputValue()).toBe('');

      // B sees it in For you, and likes, comments on and bookmarks it.
      const pageB = await open('B', b.token);
      await openHome(pageB, b);
      const card = postCard(pageB, content);
      await card.waitFor();
      await card.getByRole('link', { name: a.displayName, exact: true }).waitFor();
      expect(await likeButton(card).getAttribute('aria-label')).toBe('Like, 0 likes');
      await likeButton(card).click();
      await card.getByRole('button', { name: 'Like, 1 like', pressed: true }).waitFor();

      await commentsButton(card).click();
      const input = card.getByPlaceholder('Write a comment...');
      await input.fill(comment);
      await input.press('Enter');
      await card.getByText(comment, { exact: true }).waitFor();
      await card.getByRole('button', { name: 'Comments, 1 comment' }).waitFor();
      expect(await input.inputValue()).toBe('');

      await bookmarkButton(card).click();
      await card.getByRole('button', { name: 'Bookmark', pressed: true }).waitFor();

      // No follow button on the card: follow through the API, as the profile page would.
      expect(await card.getByRole('button', { name: /follow/i }).count()).toBe(0);
      const followed = await callApi(product.baseUrl, 'POST', `/api/users/${a.id}/follow`, { token: b.token });
      expect([200, 201]).toContain(followed.status);
      await pageB.getByRole('tab', { name: 'Following', exact: true }).click();
      await postCard(pageB, content, 'Following').waitFor();

      // After a reload everything B did is still there.
      await pageB.reload();
      await feed(pageB).waitFor();
      const again = postCard(pageB, content);
      await again.getByRole('button', { name: 'Like, 1 like', pressed: true }).waitFor();
      await again.getByRole('button', { name: 'Comments, 1 comment' }).waitFor();
      await again.getByRole('button', { name: 'Bookmark', pressed: true }).waitFor();

      // A sees one like (not their own) and B's comment.
      await pageA.reload();
      await feed(pageA).waitFor();
      const own = postCard(pageA, content);
      await own.getByRole('button', { name: 'Like, 1 like', pressed: false }).waitFor();
      await own.getByRole('button', { name: 'Comments, 1 comment' }).click();
      await own.getByText(comment, { exact: true }).waitFor();
      await own.getByText(b.displayName, { exact: true }).waitFor();

      noProblems();
      ann = a;
      ben = b;
      benPage = pageB;
    }, 60_000);

    it('timelines: a public, published timeline reaches B’s feed; B likes it (kept) and copies its link; A’s analytics count the share', async () => {
      const a = need(ann, 'A');
      const pageB = need(benPage, "B's page");
      const title = `Harbour week ${randomBytes(3).toString('hex')}`;

      const created = await callApi<{ id: string }>(product.baseUrl, 'POST', '/api/timelines', { token: a.token, body: { title, visibility: 'public' } });
      expect(created.status).toBe(201);
      const id = created.body.id;
      const published = await callApi(product.baseUrl, 'PATCH', `/api/timelines/${id}`, { token: a.token, body: { status: 'published' } });
      expect(published.status).toBe(200);

      const card = timelineCard(pageB, title);
      await reloadUntilShown(pageB, card, `the timeline '${title}'`);
      await card.getByRole('link', { name: a.displayName, exact: true }).waitFor();
      await card.getByText('Timeline • 0:00', { exact: true }).waitFor();

      // The like is kept once the server has it: the reload waits for its answer (a reload while
      // the request is still on its way may cancel it, which is another story).
      const liked = pageB.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === `/api/timelines/${id}/like`);
      await likeButton(card).click();
      await card.getByRole('button', { name: 'Like, 1 like', pressed: true }).waitFor();
      expect((await liked).status()).toBeLessThan(300);
      await pageB.reload();
      await feed(pageB).waitFor();
      await card.getByRole('button', { name: 'Like, 1 like', pressed: true }).waitFor();

      await card.getByRole('button', { name: 'Share', exact: true }).click();
      const dialog = pageB.getByRole('dialog', { name: 'Share Timeline' });
      await dialog.waitFor();
      await button(dialog, 'Copy link').click();
      await toast(pageB, 'Link copied!').waitFor();
      await toast(pageB, 'Timeline link has been copied to your clipboard.').waitFor();
      const copied = await pageB.evaluate(() => navigator.clipboard.readText());
      expect(copied).toBe(`${product.baseUrl}/watch/${id}`);
      await button(dialog, 'Close').click();
      await dialog.waitFor({ state: 'detached' });

      const shares = await eventually('the share to be counted', async () => {
        const analytics = await callApi<{ shares: number }>(product.baseUrl, 'GET', `/api/timelines/${id}/analytics`, { token: a.token });
        expect(analytics.status).toBe(200);
        return analytics.body.shares >= 1 ? analytics.body.shares : undefined;
      }, 10_000);
      expect(shares).toBe(1);

      noProblems();
    }, 60_000);

    it('ads: with nine or more items, Sponsored blocks stand before items 4 and 8; a dismissed one stays gone after a reload', async () => {
      const a = need(ann, 'A');
      const pageB = need(benPage, "B's page");
      const tag = randomBytes(3).toString('hex');
      for (let n = 1; n <= 8; n += 1) {
        const made = await callApi(product.baseUrl, 'POST', '/api/posts', { token: a.token, body: { content: `Filler ${n} ${tag}` } });
        expect(made.status).toBe(201);
      }
      await pageB.reload();
      const list = feed(pageB);
      await postCard(pageB, `Filler 8 ${tag}`).waitFor();

      /** The feed's children in order: 'ad:<kind>' for a sponsored block, 'item' for a card. */
      const layout = () =>
        list.evaluate((element) =>
          [...element.children].map((child) => (child.matches('aside') ? `ad:${child.getAttribute('data-ad-kind')}` : 'item')),
        );
      const before = await layout();
      const items = before.filter((entry) => entry === 'item').length;
      expect(items).toBeGreaterThanOrEqual(9);
      /** For each ad, the 0-based index of the item it stands before. */
      const adPositions = (entries: string[]) => {
        const found: string[] = [];
        let index = 0;
        for (const entry of entries) {
          if (entry === 'item') index += 1;
          else found.push(`${entry}@${index}`);
        }
        return found;
      };
      const expected = (dismissed: string[]) =>
        Array.from({ length: items }, (_, index) => index)
          .filter((index) => index > 0 && index % 4 === 0)
          .map((index) => `ad:${index % 12 === 0 ? 'hero' : index % 8 === 0 ? 'preview' : 'featured'}@${index}`)
          .filter((entry) => !dismissed.some((kind) => entry.startsWith(`ad:${kind}@`)));
      expect(adPositions(before)).toEqual(expected([]));
      expect(adPositions(before).slice(0, 2)).toEqual(['ad:featured@4', 'ad:preview@8']);
      const ads = list.locator('aside');
      expect(await ads.first().getByText(SPONSORED, { exact: true }).isVisible()).toBe(true);
      expect(await ads.nth(1).getByText(SPONSORED, { exact: true }).isVisible()).toBe(true);

      // Dismiss the block before item 4; it stays gone after a reload, the one before item 8 stays.
      const first = ads.first();
      await first.getByRole('button', { name: /^Dismiss: / }).click();
      await pageB.waitForFunction(() => !document.querySelector('[role="feed"] aside[data-ad-kind="featured"]'));
      expect(adPositions(await layout())).toEqual(expected(['featured']));
      await pageB.reload();
      await postCard(pageB, `Filler 8 ${tag}`).waitFor();
      expect(adPositions(await layout())).toEqual(expected(['featured']));
      expect(await list.locator('aside[data-ad-kind="preview"]').first().getByText(SPONSORED, { exact: true }).isVisible()).toBe(true);

      noProblems();
    }, 60_000);

    it('video: a timeline’s video plays in the feed (HLS, with the session) while on screen and pauses when scrolled away', async () => {
      const a = need(ann, 'A');
      const b = need(ben, 'B');
      const pageB = need(benPage, "B's page");
      const title = `Harbour clip ${randomBytes(3).toString('hex')}`;

      const created = await callApi<{ id: string }>(product.baseUrl, 'POST', '/api/timelines', { token: a.token, body: { title, visibility: 'public' } });
      expect(created.status).toBe(201);
      const id = created.body.id;
      const form = new FormData();
      form.append('video', new Blob([readFileSync(clip)], { type: 'video/mp4' }), 'clip.mp4');
      const uploaded = await fetch(`${product.baseUrl}/api/timelines/${id}/videos`, { method: 'POST', headers: { authorization: `Bearer ${a.token}` }, body: form });
      expect(uploaded.status).toBeLessThan(300);
      await uploaded.arrayBuffer();
      const videoId = await eventually('the video to be processed', async () => {
        const videos = await callApi<Array<{ id: string; status: string; hlsUrl: string | null }>>(product.baseUrl, 'GET', `/api/timelines/${id}/videos`, { token: a.token });
        const ready = videos.body.find((v) => v.status === 'completed' && v.hlsUrl);
        return ready?.id;
      }, 60_000, 500);
      expect((await callApi(product.baseUrl, 'PATCH', `/api/timelines/${id}`, { token: a.token, body: { status: 'published' } })).status).toBe(200);
      await eventually('the feed to carry the cover video', async () => {
        const answer = await callApi<FeedItemAnswer[]>(product.baseUrl, 'GET', '/api/feed?tab=for-you&limit=50', { token: b.token });
        return answer.body.find((item) => item.timeline?.id === id)?.timeline?.coverMediaId === videoId ? true : undefined;
      }, 15_000, 500);

      const hlsAnswers: string[] = [];
      pageB.on('response', (response) => {
        if (response.url().includes(`/api/videos/${videoId}/`)) hlsAnswers.push(`${response.status()} ${new URL(response.url()).pathname.replace(`/api/videos/${videoId}/`, '')}`);
      });
      await pageB.reload();
      const card = timelineCard(pageB, title);
      // Where it ranks depends on the other timelines' activity: scroll (the feed loads more) until it shows.
      await feed(pageB).waitFor();
      await eventually('the card to be loaded into the feed', async () => {
        if ((await card.count()) > 0) return true;
        await pageB.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        return undefined;
      }, 20_000, 500);
      const video = card.locator('video');

      const state = () => video.evaluate((v: HTMLVideoElement) => ({ paused: v.paused, time: v.currentTime }));
      await video.scrollIntoViewIfNeeded();
      await video.evaluate((v) => v.scrollIntoView({ block: 'center' }));
      await pageB.waitForFunction((element) => !(element as HTMLVideoElement).paused && (element as HTMLVideoElement).currentTime > 0.3, await video.elementHandle(), { timeout: 20_000 });
      const t1 = (await state()).time;
      await sleep(700);
      const playing = await state();
      expect(playing.paused).toBe(false);
      expect(playing.time).toBeGreaterThan(t1);
      expect(hlsAnswers).toContain('200 hls/master.m3u8');
      expect(hlsAnswers.every((answer) => answer.startsWith('2'))).toBe(true);
      // The ladder, not the original file.
      expect(hlsAnswers.filter((answer) => answer.endsWith(' stream'))).toEqual([]);
      await card.getByRole('button', { name: `Play preview of ${title}` }).waitFor({ state: 'detached' });

      // Scrolled out of view, it pauses and shows the play overlay again.
      await video.evaluate((v) => {
        const box = v.getBoundingClientRect();
        const top = box.top + window.scrollY;
        const bottom = box.bottom + window.scrollY;
        window.scrollTo(0, top - window.innerHeight - 10 >= 0 ? top - window.innerHeight - 10 : bottom + 10);
      });
      expect(await video.evaluate((v) => {
        const box = v.getBoundingClientRect();
        return box.bottom <= 0 || box.top >= window.innerHeight;
      })).toBe(true);
      await pageB.waitForFunction((element) => (element as HTMLVideoElement).paused, await video.elementHandle(), { timeout: 10_000 });
      await card.getByRole('button', { name: `Play preview of ${title}` }).waitFor({ state: 'attached' });
      const stopped = (await state()).time;
      await sleep(500);
      expect((await state()).time).toBe(stopped);

      noProblems();
    }, 120_000);
  });
});
