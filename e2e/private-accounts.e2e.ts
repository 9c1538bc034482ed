import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { callApi, newAccount, registerThroughApi, type RegisteredAccount, signInWithToken } from './support/accounts.js';
import { journeyViewports, launchBrowser } from './support/browser.js';
import { type RunningProduct, startProduct } from './support/product.js';
import { button, heading } from './support/screens.js';
import { dismissInstallPrompt, eventually, watchPages } from './support/watch.js';

/**
 * Issue 28, private accounts: someone asks to follow a private account from its profile (the
 * button says Requested, the profile says "This account is private" and shows no posts), the
 * owner opens Follow requests from the notification and approves, and the content appears to the
 * follower. Real Chromium, the real product, on a phone and on a desktop.
 */
describe('private accounts journey', () => {
  let product: RunningProduct;
  let browser: Browser;

  beforeAll(async () => {
    product = await startProduct('e2eprivate');
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  describe.each(journeyViewports)('on a $name', (viewport) => {
    const contexts: BrowserContext[] = [];
    const problems: string[] = [];
    let owner: RegisteredAccount;
    let asker: RegisteredAccount;
    let postWords: string;
    let postId: string;

    afterAll(async () => {
      for (const context of contexts) await context.close().catch(() => undefined);
    });

    async function open(token: string): Promise<Page> {
      const context = await browser.newContext({ ...viewport.options, baseURL: product.baseUrl, reducedMotion: 'reduce' });
      context.setDefaultTimeout(20_000);
      context.setDefaultNavigationTimeout(30_000);
      watchPages(context, problems);
      await dismissInstallPrompt(context);
      await signInWithToken(context, token);
      contexts.push(context);
      return context.newPage();
    }

    beforeAll(async () => {
      const tag = randomBytes(3).toString('hex');
      owner = await registerThroughApi(product.baseUrl, newAccount('Pia', `Private${tag}`));
      asker = await registerThroughApi(product.baseUrl, newAccount('Ray', `Asker${tag}`));
      expect((await callApi(product.baseUrl, 'PUT', '/api/auth/profile', { token: owner.token, body: { isPrivate: true } })).status).toBe(200);
      postWords = `Only my followers see this ${tag}`;
      const created = await callApi<{ id: string }>(product.baseUrl, 'POST', '/api/posts', { token: owner.token, body: { content: postWords } });
      expect(created.status).toBe(201);
      postId = created.body.id;
    }, 60_000);

    it('a stranger sees the private header, asks to follow, and the button says Requested', async () => {
      const page = await open(asker.token);
      await page.goto(`/profile/${owner.id}`);
      await heading(page, 'This account is private').waitFor();
      await expect(page.getByText(postWords).count()).resolves.toBe(0);
      // the post itself is as absent as one that does not exist
      expect((await callApi(product.baseUrl, 'GET', `/api/posts/${postId}`, { token: asker.token })).status).toBe(404);
      // The button turns at once (optimistically); the reload waits for the server's answer.
      const asked = page.waitForResponse((res) => res.request().method() === 'POST' && res.url().endsWith(`/api/users/${owner.id}/follow`));
      await button(page, 'Follow').click();
      await page.getByRole('button', { name: 'Requested: take back the follow request' }).waitFor();
      expect((await asked).status()).toBeLessThan(300);
      // still closed: a request is not a follow
      await page.reload();
      await heading(page, 'This account is private').waitFor();
      await page.getByText(/Your follow request is waiting/).waitFor();
    }, 90_000);

    it('the owner opens Follow requests from the notification and approves', async () => {
      const page = await open(owner.token);
      await page.goto('/notifications');
      const notice = page.getByRole('link', { name: /asked to follow you/ });
      await eventually('the follow request notification', async () => ((await notice.count()) > 0 ? true : (await page.reload(), undefined)));
      await notice.first().click();
      await eventually('the follow requests page', async () => (new URL(page.url()).pathname === '/follow-requests' ? true : undefined));
      await heading(page, 'Follow requests').waitFor();
      await button(page, `Approve ${asker.displayName}`).click();
      await heading(page, 'No follow requests').waitFor();
      // reachable from the owner's profile too
      await page.goto(`/profile/${owner.id}`);
      await page.getByRole('link', { name: /^Follow requests/ }).waitFor();
    }, 90_000);

    it('the approved follower sees the content', async () => {
      const page = await open(asker.token);
      await page.goto(`/profile/${owner.id}`);
      await button(page, 'Unfollow').waitFor();
      await expect(heading(page, 'This account is private').count()).resolves.toBe(0);
      const post = await callApi<{ content: string }[]>(product.baseUrl, 'GET', `/api/posts`, { token: asker.token });
      expect(post.body.some((p) => p.content === postWords)).toBe(true);
      await page.goto(`/post/${postId}`);
      await page.getByText(postWords).first().waitFor();
      expect(problems).toEqual([]);
    }, 90_000);
  });
});
