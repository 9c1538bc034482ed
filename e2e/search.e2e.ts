import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { callApi, newAccount, type RegisteredAccount, registerThroughApi, signInWithToken } from './support/accounts.js';
import { launchBrowser, viewports } from './support/browser.js';
import { type RunningProduct, startProduct } from './support/product.js';
import { pathOf } from './support/screens.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it holds, or fails with `what`. */
async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

const TAG = 'shorebirds';
/** A tag only the creator uses: trending still shows it (a small product's tags in use). */
const OWN_TAG = 'tidepools';

/**
 * Spec 001 section 2 (Search) and spec 000 section 2 (the header box): a public timeline is found
 * by a word of its description typed with a typo and opens; the tabs switch; a trending hashtag
 * opens its results. Real Chromium, the real product, on a phone and on a desktop.
 */
describe('search journeys', () => {
  let product: RunningProduct;
  let browser: Browser;
  let creator: RegisteredAccount;
  let viewer: RegisteredAccount;
  let timelineId: string;

  beforeAll(async () => {
    product = await startProduct('e2esearch');
    browser = await launchBrowser();
    creator = await registerThroughApi(product.baseUrl, newAccount('Wanda', 'Wader'));
    viewer = await registerThroughApi(product.baseUrl, newAccount('Victor', 'Viewer'));

    const created = await callApi<{ id: string }>(product.baseUrl, 'POST', '/api/timelines', {
      token: creator.token,
      body: { title: 'Tideline diaries', description: `Sandpipers feeding on the estuary at low tide #${TAG} #${OWN_TAG}`, visibility: 'public' },
    });
    expect(created.status).toBe(201);
    timelineId = created.body.id;
    expect((await callApi(product.baseUrl, 'PATCH', `/api/timelines/${timelineId}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);
    // A second public timeline of the same creator: popular shows one timeline per creator.
    const another = await callApi<{ id: string }>(product.baseUrl, 'POST', '/api/timelines', { token: creator.token, body: { title: 'Heron mornings', visibility: 'public' } });
    expect((await callApi(product.baseUrl, 'PATCH', `/api/timelines/${another.body.id}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);

    // Three people use the tag today: enough for a trend.
    for (const person of [creator, viewer, await registerThroughApi(product.baseUrl, newAccount('Tess', 'Tagger'))]) {
      expect((await callApi(product.baseUrl, 'POST', '/api/posts', { token: person.token, body: { content: `Low tide walk #${TAG}` } })).status).toBe(201);
    }
    await eventually('the timeline and the trend to reach search', async () => {
      const found = await callApi<{ timelines: Array<{ id: string }> }>(product.baseUrl, 'GET', '/api/search/enhanced?q=estuary', { token: viewer.token });
      const trending = await callApi<Array<{ name: string }>>(product.baseUrl, 'GET', '/api/hashtags/trending?limit=10', { token: viewer.token });
      const heron = await callApi<{ timelines: Array<{ id: string }> }>(product.baseUrl, 'GET', '/api/search/enhanced?q=heron', { token: viewer.token });
      return heron.body.timelines.length === 1 && found.body.timelines.some((t) => t.id === timelineId) && trending.body.some((t) => t.name === TAG) && trending.body.some((t) => t.name === OWN_TAG);
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  describe.each(viewports)('on a $name', (viewport) => {
    let context: BrowserContext;
    let page: Page;
    const problems: string[] = [];

    beforeAll(async () => {
      context = await browser.newContext({ ...viewport.options, baseURL: product.baseUrl, reducedMotion: 'reduce' });
      context.setDefaultTimeout(20_000);
      await signInWithToken(context, viewer.token);
      page = await context.newPage();
      page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
      page.on('response', (res) => {
        if (res.url().includes('/api/search') || res.url().includes('/api/discover') || res.url().includes('/api/hashtags')) {
          if (res.status() >= 400) problems.push(`${res.status()} ${res.url()}`);
        }
      });
    });
    afterAll(async () => {
      await context?.close();
    });

    const searchBox = () => page.getByRole('searchbox', { name: 'Search timelines, people and hashtags' });

    it('finds the timeline by a word of its description typed with a typo, and opens it', async () => {
      await page.goto('/');
      await page.getByRole('searchbox', { name: 'Search timelines and people' }).click();
      await page.waitForURL((url) => url.pathname === '/search');
      // An empty box: popular timelines and trending hashtags.
      await page.getByRole('list', { name: 'Popular timelines' }).waitFor();
      await page.getByRole('list', { name: 'Trending hashtags' }).getByRole('button', { name: new RegExp(`#${TAG}`) }).waitFor();
      // A tag only one person uses is in use too: the list is never empty while tags are.
      await page.getByRole('list', { name: 'Trending hashtags' }).getByRole('button', { name: new RegExp(`#${OWN_TAG}`) }).waitFor();
      // One timeline per creator among the first 12 (the list's own items: a result's hashtags are a list too).
      await expect(page.getByRole('list', { name: 'Popular timelines' }).locator(':scope > li').count()).resolves.toBe(1);

      await searchBox().fill('estuery');
      await page.waitForURL((url) => url.searchParams.get('q') === 'estuery');
      const result = page.getByRole('list', { name: 'Timelines' }).getByRole('link', { name: /Tideline diaries/ });
      await result.waitFor();
      await result.click();
      await page.waitForURL((url) => url.pathname === `/watch/${timelineId}`);
      expect(pathOf(page)).toBe(`/watch/${timelineId}`);
    });

    it('finds the timeline by two words each with a typo, a short one too', async () => {
      await page.goto('/search');
      // "estuary" with a wrong vowel, "tide" without its i, still being typed.
      await searchBox().fill('estuery tde');
      await page.waitForURL((url) => url.searchParams.get('q') === 'estuery tde');
      await page.getByRole('list', { name: 'Timelines' }).getByRole('link', { name: /Tideline diaries/ }).waitFor();
    });

    it('switches tabs: people by name, their timelines, and the no-result texts', async () => {
      await page.goto('/search');
      await searchBox().fill('wanda');
      await page.getByRole('tab', { name: 'Users' }).click();
      await page.getByRole('link', { name: /Wanda Wader/ }).waitFor();
      // Timelines are found by their creator's name too.
      await page.getByRole('tab', { name: 'Timelines' }).click();
      await page.getByRole('link', { name: /Tideline diaries/ }).waitFor();
      await searchBox().fill('zzqxjv');
      await page.getByText('No timelines found', { exact: true }).waitFor();
      await page.getByRole('tab', { name: 'Users' }).click();
      await page.getByText('No users found', { exact: true }).waitFor();
      await page.getByRole('tab', { name: 'All' }).click();
      await page.getByText('No results found', { exact: true }).waitFor();
      expect(new URL(page.url()).searchParams.get('q')).toBe('zzqxjv');
    });

    it('opens a trending hashtag\'s results', async () => {
      await page.goto('/search');
      await page.getByRole('tab', { name: 'Trending' }).click();
      await page.getByRole('list', { name: 'Trending hashtags' }).getByRole('button', { name: new RegExp(`#${TAG}`) }).click();
      await page.waitForURL((url) => url.searchParams.get('q') === `#${TAG}`);
      await expectValue(searchBox(), `#${TAG}`);
      await page.getByRole('list', { name: 'Timelines' }).getByRole('link', { name: /Tideline diaries/ }).waitFor();
      expect(problems).toEqual([]);
    });
  });
});

async function expectValue(box: ReturnType<Page['getByRole']>, value: string): Promise<void> {
  await eventually(`the box to read ${value}`, async () => (await box.inputValue()) === value, 5_000);
}
