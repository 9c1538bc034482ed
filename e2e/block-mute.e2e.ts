import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { callApi, newAccount, type RegisteredAccount, registerThroughApi, signInWithToken } from './support/accounts.js';
import { journeyViewports, launchBrowser } from './support/browser.js';
import { type RunningProduct, startProduct } from './support/product.js';
import { button, heading, toast } from './support/screens.js';
import { dismissInstallPrompt, eventually, watchPages } from './support/watch.js';

/**
 * Issue 28, block and mute: someone blocks a person from their profile's menu; then neither sees
 * the other's profile (as if absent) or posts in their feed; the blocked account is listed in
 * Settings and unblocked there. A muted word hides the posts that say it from the home feed.
 * Real Chromium, the real product, on a phone and on a desktop.
 */
describe('block and mute journeys', () => {
  let product: RunningProduct;
  let browser: Browser;

  beforeAll(async () => {
    product = await startProduct('e2eblockmute');
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  describe.each(journeyViewports)('on a $name', (viewport) => {
    const contexts: BrowserContext[] = [];
    const problems: string[] = [];
    afterAll(async () => {
      for (const context of contexts) await context.close().catch(() => undefined);
    });

    async function open(token: string): Promise<Page> {
      const context = await browser.newContext({ ...viewport.options, baseURL: product.baseUrl, reducedMotion: 'reduce' });
      context.setDefaultTimeout(20_000);
      context.setDefaultNavigationTimeout(30_000);
      contexts.push(context);
      watchPages(context, problems);
      await dismissInstallPrompt(context);
      await signInWithToken(context, token);
      return context.newPage();
    }
    const post = async (who: RegisteredAccount, content: string) => {
      const res = await callApi<{ id: string }>(product.baseUrl, 'POST', '/api/posts', { token: who.token, body: { content } });
      expect(res.status).toBe(201);
      return res.body.id;
    };
    /** Everything that went wrong, but the 404s a blocked pair's profile answers on purpose (the page shows it as absent). */
    const unexpected = () => problems.filter((p) => !/404/.test(p));
    const feedShows = async (page: Page, text: string) => (await page.getByText(text, { exact: false }).count()) > 0;

    it('blocks from a profile: neither sees the other, and Settings lists the block with Unblock', async () => {
      const tag = randomBytes(3).toString('hex');
      const bea = await registerThroughApi(product.baseUrl, newAccount('Bea', `Blocker${tag}`));
      const ben = await registerThroughApi(product.baseUrl, newAccount('Ben', `Blocked${tag}`));
      const benSays = `Ben's harbour at dusk ${tag}`;
      const beaSays = `Bea's mountain morning ${tag}`;
      await post(ben, benSays);
      await post(bea, beaSays);
      // Ben follows Bea: the block ends it.
      expect((await callApi(product.baseUrl, 'POST', `/api/users/${bea.id}/follow`, { token: ben.token })).status).toBe(200);

      const page = await open(bea.token);
      await page.goto('/');
      await page.getByText(benSays).first().waitFor();

      await page.goto(`/profile/${ben.id}`);
      await heading(page, ben.displayName).waitFor();
      await page.getByRole('button', { name: `More options for ${ben.displayName}` }).click();
      await page.getByRole('menuitem', { name: `Block ${ben.displayName}` }).click();
      const confirm = page.getByRole('alertdialog', { name: `Block ${ben.displayName}?` });
      await confirm.waitFor();
      await button(confirm, 'Block').click();
      await toast(page, `You blocked ${ben.displayName}`).waitFor();
      await page.waitForURL((url) => url.pathname === '/');

      // The blocker's side: no profile, no posts.
      await page.goto(`/profile/${ben.id}`);
      await page.getByText("This profile doesn't exist.").waitFor();
      await page.goto('/');
      await page.getByText(beaSays).first().waitFor();
      expect(await feedShows(page, benSays)).toBe(false);

      // The blocked person's side: the same, and the follow is gone.
      const benPage = await open(ben.token);
      await benPage.goto(`/profile/${bea.id}`);
      await benPage.getByText("This profile doesn't exist.").waitFor();
      await benPage.goto('/');
      await benPage.getByText(benSays).first().waitFor();
      expect(await feedShows(benPage, beaSays)).toBe(false);
      expect((await callApi<{ isFollowing: boolean }>(product.baseUrl, 'GET', `/api/users/${bea.id}/following`, { token: ben.token })).status).toBe(404);

      // Settings lists the block; Unblock brings the profile back.
      await page.goto('/settings?tab=safety');
      const blocked = page.getByRole('region', { name: 'Blocked accounts' }).or(page.locator('section[aria-labelledby="safety-blocked"]'));
      await blocked.getByText(ben.displayName).waitFor();
      await blocked.getByRole('button', { name: `Unblock ${ben.displayName}` }).click();
      await blocked.getByText("You haven't blocked anyone.").waitFor();
      await eventually('the profile to open again', async () => ((await callApi(product.baseUrl, 'GET', `/api/users/${ben.id}/profile`, { token: bea.token })).status === 200 ? true : undefined));
      await page.goto(`/profile/${ben.id}`);
      await heading(page, ben.displayName).waitFor();
      expect(unexpected()).toEqual([]);
    }, 120_000);

    it('mutes a word in Settings: the home feed hides the posts that say it', async () => {
      const tag = randomBytes(3).toString('hex');
      const word = `spoiler${tag}`;
      const me = await registerThroughApi(product.baseUrl, newAccount('Mia', `Muter${tag}`));
      const them = await registerThroughApi(product.baseUrl, newAccount('Tom', `Talker${tag}`));
      const spoils = `The ending, a ${word}: the ship comes home`;
      const fine = `Nothing to hide here ${tag}`;
      await post(them, spoils);
      await post(them, fine);

      const page = await open(me.token);
      await page.goto('/');
      await page.getByText(spoils).first().waitFor();

      await page.goto('/settings?tab=safety');
      await page.getByLabel('Word or hashtag').fill(word.toUpperCase());
      await page.getByLabel('For').selectOption('day');
      await button(page, 'Mute').click();
      await toast(page, `Muted "${word}"`).waitFor();
      const list = page.getByRole('list', { name: 'Muted words' });
      await list.getByText(word, { exact: true }).waitFor();
      await list.getByText(/^Until /).waitFor();

      await page.goto('/');
      await page.getByText(fine).first().waitFor();
      expect(await feedShows(page, spoils)).toBe(false);
      await page.reload();
      await page.getByText(fine).first().waitFor();
      expect(await feedShows(page, spoils)).toBe(false);

      // Removing the word shows the post again.
      await page.goto('/settings?tab=safety');
      await page.getByRole('button', { name: `Remove ${word}` }).click();
      await page.getByText("You haven't muted any words.").waitFor();
      await page.goto('/');
      await page.getByText(spoils).first().waitFor();
      expect(unexpected()).toEqual([]);
    }, 120_000);
  });
});
